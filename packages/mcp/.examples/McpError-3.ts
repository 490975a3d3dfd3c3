import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import * as Effect from "effect/Effect"

const refused = Effect.fail(new ErrorResponse({ code: -32001, message: "refused", data: { why: "policy" } }))
const invalid = Effect.fail(ErrorResponse.invalidParams("cursor is not valid"))
export {}
