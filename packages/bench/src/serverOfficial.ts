/**
 * The official server (`@modelcontextprotocol/sdk`): `McpServer` with the same
 * `echo`, `blob` and `stats` tools, over `StdioServerTransport` or the
 * stateful `StreamableHTTPServerTransport` on `node:http`, wired as the SDK's
 * own examples do (one `McpServer` and transport per session).
 *
 * @since 0.1.0
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { randomUUID } from "node:crypto"
import type * as http from "node:http"
import { z } from "zod"
import { blobText, ECHO_SUCCEED_TOOL, ECHO_TOOL, listeningLine, parseServeMode, selfStats } from "./common.js"

const makeServer = (): McpServer => {
  const server = new McpServer({ name: "bench-official", version: "1.0.0" })
  server.registerTool(
    ECHO_TOOL,
    { description: "Echoes the text back", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] })
  )
  // the best-case row's tool: the same handler here (ours answers it with an `Effect.succeed`)
  server.registerTool(
    ECHO_SUCCEED_TOOL,
    { description: "Echoes the text back", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] })
  )
  server.registerTool(
    "blob",
    { description: "Returns one text content of exactly `bytes` ASCII bytes", inputSchema: { bytes: z.number().int() } },
    async ({ bytes }) => ({ content: [{ type: "text", text: blobText(bytes) }] })
  )
  server.registerTool(
    "stats",
    { description: "This process's CPU and memory", inputSchema: { gc: z.boolean().optional() } },
    async ({ gc }) => ({ content: [{ type: "text", text: JSON.stringify(selfStats(gc === true)) }] })
  )
  return server
}

const mode = parseServeMode(process.argv.slice(2))

const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const reply = (res: http.ServerResponse, status: number, message: string) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }))
}

if (mode._tag === "stdio") {
  // the HTTP modules are loaded only for HTTP, as a stdio-only server would
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js")
  const server = makeServer()
  const transport = new StdioServerTransport()
  transport.onclose = () => process.exit(0)
  process.stdin.on("end", () => process.exit(0))
  await server.connect(transport)
} else {
  const http = await import("node:http")
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js")
  const { isInitializeRequest } = await import("@modelcontextprotocol/sdk/types.js")
  const transports = new Map<string, StreamableHTTPServerTransport>()
  const httpServer = http.createServer(async (req, res) => {
    try {
      if (req.url !== "/mcp") return reply(res, 404, "Not found")
      const sessionId = req.headers["mcp-session-id"]
      if (typeof sessionId === "string") {
        const transport = transports.get(sessionId)
        if (transport === undefined) return reply(res, 404, "Session not found")
        return await transport.handleRequest(req, res)
      }
      if (req.method !== "POST") return reply(res, 400, "Bad Request: no session id")
      const body: unknown = JSON.parse(await readBody(req))
      if (!isInitializeRequest(body)) return reply(res, 400, "Bad Request: no session id")
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: mode.json,
        onsessioninitialized: (id) => {
          transports.set(id, transport)
        }
      })
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId)
      }
      await makeServer().connect(transport)
      await transport.handleRequest(req, res, body)
    } catch (error) {
      if (!res.headersSent) reply(res, 500, String(error))
    }
  })
  httpServer.listen(0, "127.0.0.1", () => {
    const address = httpServer.address()
    process.stdout.write(listeningLine(typeof address === "object" && address !== null ? address.port : 0))
  })
  process.once("SIGTERM", () => process.exit(0))
}
