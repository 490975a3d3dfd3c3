import * as NodeStdio from "@effect-mcp/node/NodeStdio"

const ServerLive = NodeStdio.layerClient({
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-everything"],
  closeTimeout: "1 second"
})
export {}
