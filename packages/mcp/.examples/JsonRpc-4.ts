import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

JsonRpc.notification("notifications/initialized")
// { jsonrpc: "2.0", method: "notifications/initialized" }
export {}
