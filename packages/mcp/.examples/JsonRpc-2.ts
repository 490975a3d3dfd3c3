import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const failure = JsonRpc.failure(1, { code: JsonRpc.ErrorCode.MethodNotFound, message: "Method not found: nope" })
export {}
