import * as McpServer from "@effect-mcp/mcp/McpServer"

const ServerLive = McpServer.layer({
  name: "deploy",
  version: "1.0.0",
  // the same keys on every instance; the new key first while the old one may still come back
  requestState: { keys: [process.env.STATE_KEY_NEW!, process.env.STATE_KEY_OLD!], ttl: "10 minutes" }
})
export {}
