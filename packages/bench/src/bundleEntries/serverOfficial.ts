/**
 * The official v1 fetch-handler server measured beside ours (`src/bundleSize.ts`): `McpServer` with
 * one tool over `WebStandardStreamableHTTPServerTransport`, stateless, per request.
 * @internal
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { z } from "zod"

export default {
  fetch: async (request: Request): Promise<Response> => {
    const server = new McpServer({ name: "worker", version: "1.0.0" })
    server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }))
    const transport = new WebStandardStreamableHTTPServerTransport({}) // no sessionIdGenerator: stateless
    await server.connect(transport)
    return transport.handleRequest(request)
  }
}
