// @effect/platform HttpClient (undici) POSTs against a node:http server that answers at once: the cost of the HTTP client alone.
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as http from "node:http"
import { createRequire } from "node:module"
const { request: undiciRequest } = createRequire(import.meta.url)("/work/main/node_modules/.pnpm/undici@7.30.2/node_modules/undici/index.js")

const server = http.createServer((req, res) => {
  let body = ""
  req.on("data", (d) => (body += d))
  req.on("end", () => {
    const text = `event: message\ndata: ${body}\n\n`
    res.writeHead(200, { "content-type": "text/event-stream", "content-length": Buffer.byteLength(text) })
    res.end(text)
  })
})
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
const port = (server.address() as { port: number }).port
const url = `http://127.0.0.1:${port}/mcp`
const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hello" } } })
const n = 5000
const measure = async (label: string, run: () => Promise<void>) => {
  for (let i = 0; i < 3000; i++) await run()
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await run()
  const c = process.cpuUsage(c0)
  console.log(`${label}: ${((c.user + c.system) / n).toFixed(0)} µs/call (client and server in one process)`)
}
const scope = Effect.runSync(Scope.make())
const client = Context.get(await Effect.runPromise(Layer.buildWithScope(NodeHttpClient.layerUndici, scope)), HttpClient.HttpClient)
const viaEffect = Effect.flatMap(
  client.execute(HttpClientRequest.post(url).pipe(HttpClientRequest.setHeader("accept", "text/event-stream"), HttpClientRequest.bodyText(body, "application/json"))),
  (r) => r.text
).pipe(Effect.withTracerEnabled(false))
await measure("effect HttpClient (undici)", () => Effect.runPromise(viaEffect).then(() => {}))
await measure("undici.request", async () => {
  const r = await undiciRequest(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body })
  await r.body.text()
})
const agent = new http.Agent({ keepAlive: true })
await measure("node:http", () => new Promise<void>((resolve) => {
  const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", accept: "text/event-stream" } }, (res) => {
    res.on("data", () => {})
    res.on("end", () => resolve())
  })
  req.end(body)
}))
server.close()
process.exit(0)
