import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const frame = JsonRpc.invalid(null, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: empty batch")
JsonRpc.isInvalid(frame) // true
export {}
