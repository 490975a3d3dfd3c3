import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const frame = JsonRpc.parse('{"jsonrpc":"2.0","id":0,"method":"ping"}')
if (JsonRpc.isRequest(frame)) console.log(frame.id) // 0, a number, as sent
export {}
