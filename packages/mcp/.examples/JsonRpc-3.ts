import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

JsonRpc.request(1, "tools/call", { name: "echo", arguments: { text: "hi" } })
// { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ... } }
export {}
