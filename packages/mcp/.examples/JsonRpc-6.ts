import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

JsonRpc.failure(1, { code: JsonRpc.ErrorCode.InvalidParams, message: "name is required" })
export {}
