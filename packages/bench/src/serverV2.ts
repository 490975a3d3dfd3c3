/**
 * The official v2 server (`@modelcontextprotocol/server` 2.x): `McpServer`
 * with the same `echo`, `blob` and `stats` tools, served over streamable HTTP
 * by `createMcpHandler` (its default: 2026-07-28 requests statelessly, one
 * server instance from the factory per request, JSON answers unless a handler
 * talks first) wrapped for `node:http` by `toNodeHandler`
 * (`@modelcontextprotocol/node`), as the SDK's documentation wires it.
 *
 *   node bundle/serverV2.js --http
 *
 * @since 0.1.0
 */
import { toNodeHandler } from "@modelcontextprotocol/node"
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server"
import * as http from "node:http"
import { z } from "zod"
import { blobText, ECHO_SUCCEED_TOOL, ECHO_TOOL, listeningLine, parseServeMode, selfStats } from "./common.js"

const factory = (): McpServer => {
  const server = new McpServer({ name: "bench-v2", version: "1.0.0" })
  server.registerTool(
    ECHO_TOOL,
    { description: "Echoes the text back", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] })
  )
  // the best-case row's tool: the same handler here (ours answers it with an `Effect.succeed`)
  server.registerTool(
    ECHO_SUCCEED_TOOL,
    { description: "Echoes the text back", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] })
  )
  server.registerTool(
    "blob",
    { description: "Returns one text content of exactly `bytes` ASCII bytes", inputSchema: z.object({ bytes: z.number().int() }) },
    async ({ bytes }) => ({ content: [{ type: "text", text: blobText(bytes) }] })
  )
  server.registerTool(
    "stats",
    { description: "This process's CPU and memory", inputSchema: z.object({ gc: z.boolean().optional() }) },
    async ({ gc }) => ({ content: [{ type: "text", text: JSON.stringify(selfStats(gc === true)) }] })
  )
  return server
}

const mode = parseServeMode(process.argv.slice(2))
if (mode._tag !== "http") {
  process.stderr.write("the v2 bench server serves streamable HTTP only (--http)\n")
  process.exit(2)
}

const handler = toNodeHandler(createMcpHandler(factory))
const httpServer = http.createServer((req, res) => {
  // the adapter's request type is structural; with exactOptionalPropertyTypes node's optional
  // `method` does not match it (the adapter reads it as `req.method ?? "GET"`)
  void handler(req as Parameters<typeof handler>[0], res)
})
httpServer.keepAliveTimeout = 60_000
httpServer.listen(0, "127.0.0.1", () => {
  const address = httpServer.address()
  process.stdout.write(listeningLine(typeof address === "object" && address !== null ? address.port : 0))
})
process.once("SIGTERM", () => process.exit(0))
