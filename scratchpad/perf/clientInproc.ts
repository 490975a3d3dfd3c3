// Our McpClient over StreamableHttpClient against a canned node:http server in the same process:
// the client's cost without a real MCP server. node --cpu-prof out/clientInproc.js [calls] [inflight]
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"

const init = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "canned", version: "1" } }
const server = http.createServer((req, res) => {
  if (req.method === "GET") return void res.writeHead(405).end()
  if (req.method === "DELETE") return void res.writeHead(200).end()
  let body = ""
  req.on("data", (d) => (body += d))
  req.on("end", () => {
    const m = JSON.parse(body)
    if (m.id === undefined) return void res.writeHead(202).end()
    const result = m.method === "initialize" ? init : { content: [{ type: "text", text: m.params.arguments.text }] }
    const text = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result })}\n\n`
    res.writeHead(200, { "content-type": "text/event-stream", "content-length": Buffer.byteLength(text), "mcp-session-id": "s" })
    res.end(text)
  })
})
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
const port = (server.address() as { port: number }).port
const n = Number(process.argv[2] ?? 10000)
const inflight = Number(process.argv[3] ?? 1)
const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const echo = client.callTool("echo", { text: "hello, model context protocol" })
  const run = (count: number) => Effect.forEach(Array.from({ length: count }), () => echo, { concurrency: inflight, discard: true })
  yield* run(3000)
  const c0 = process.cpuUsage()
  yield* run(n)
  const c = process.cpuUsage(c0)
  console.log(`${((c.user + c.system) / n).toFixed(0)} µs/call, client + canned server`)
}).pipe(
  Effect.provide(
    McpClient.layer({ name: "inproc", version: "1" }).pipe(
      Layer.provide(StreamableHttpClient.layer({ url: `http://127.0.0.1:${port}/mcp` })),
      Layer.provide(NodeHttpClient.layerUndici)
    )
  )
)
await Effect.runPromise(program)
server.close()
process.exit(0)
