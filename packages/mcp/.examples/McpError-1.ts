import { ErrorResponse, ResourceNotFound } from "@effect-mcp/mcp/McpError"
import * as Effect from "effect/Effect"

// a prompt or resource handler choosing the error the client receives
const badCursor = Effect.fail(ErrorResponse.invalidParams("cursor is not valid"))
// a resource (template) handler saying the resource does not exist: -32002
const missing = Effect.fail(new ResourceNotFound({ uri: "users://99" }))
export {}
