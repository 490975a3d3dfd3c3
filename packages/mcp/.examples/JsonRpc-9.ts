import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const frame = JsonRpc.decode([{ jsonrpc: "2.0", method: "notifications/initialized" }])
JsonRpc.isBatch(frame) // true
export {}
