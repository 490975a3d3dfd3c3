import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

JsonRpc.success(1, { tools: [] }) // { jsonrpc: "2.0", id: 1, result: { tools: [] } }
export {}
