import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

JsonRpc.decodeMessage({ jsonrpc: "2.0", id: 7, method: "ping" }) // the request, as it came
JsonRpc.decodeMessage({ jsonrpc: "1.0", id: 7, method: "ping" }) // Invalid: -32600, id 7
export {}
