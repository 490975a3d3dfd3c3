import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const frame = JsonRpc.parse("{not json")
if (JsonRpc.isInvalid(frame)) console.log(frame.error.code) // -32700
export {}
