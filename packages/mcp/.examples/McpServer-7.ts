import * as McpServer from "@effect-mcp/mcp/McpServer"

// MCP_REQUEST_STATE_KEYS="<new key>,<old key>" on every instance
const ServerLive = McpServer.layerConfig({ name: "deploy", version: "1.0.0" })
export {}
