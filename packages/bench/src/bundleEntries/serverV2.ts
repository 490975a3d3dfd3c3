/**
 * The official v2 fetch-handler server measured beside ours (`src/bundleSize.ts`):
 * `@modelcontextprotocol/server`'s `createMcpHandler` with one tool.
 * @internal
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server"
import { z } from "zod"

export default createMcpHandler(() => {
  const server = new McpServer({ name: "worker", version: "1.0.0" })
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }))
  return server
})
