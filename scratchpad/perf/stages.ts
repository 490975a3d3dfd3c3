// Memory of the bench's server (packages/bench/src/serverOurs.ts, same tools) at each stage of its start:
// after its imports, after the server Layer is built, after the transport is up (and, for HTTP, after one
// 1 MiB blob call over raw node:http). Prints one line per stage to stderr: RSS, peak RSS, heap used,
// new space (committed) and old space used.  node out/stages.js --stdio|--http [--json]
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as v8 from "node:v8"

const MiB = 1048576
const report = (stage: string) => {
  const m = process.memoryUsage()
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s]))
  process.stderr.write(
    `${stage.padEnd(14)} rss ${(m.rss / MiB).toFixed(1)} peak ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} heap ${(m.heapUsed / MiB).toFixed(1)} new ${(spaces.new_space!.space_size / MiB).toFixed(0)} old ${(spaces.old_space!.space_used_size / MiB).toFixed(1)}\n`
  )
}
report("imported")

const Echo = McpServer.tool({
  name: "echo",
  description: "Echoes the text back",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const Blob = McpServer.tool({
  name: "blob",
  description: "Returns one text content of exactly `bytes` ASCII bytes",
  parameters: Schema.Struct({ bytes: Schema.Int }),
  handler: ({ bytes }) => Effect.sync(() => "x".repeat(bytes))
})
const ServerLive = McpServer.register(Echo, Blob).pipe(
  Layer.provideMerge(McpServer.layer({ name: "bench-ours", version: "1.0.0" }))
)
const http = process.argv.includes("--http")
const json = process.argv.includes("--json")

const program = Effect.gen(function*() {
  yield* Layer.build(ServerLive)
  report("server layer")
  if (!http) {
    const NodeStdio = yield* Effect.promise(() => import("@effect-mcp/node/NodeStdio"))
    report("stdio imported")
    yield* Layer.build(NodeStdio.layerServer().pipe(Layer.provideMerge(ServerLive)))
    report("stdio layer")
    return
  }
  const [NodeStreamableHttp, HttpServer] = yield* Effect.promise(() => Promise.all([import("@effect-mcp/node/NodeStreamableHttp"), import("@effect/platform/HttpServer")]))
  report("http imported")
  const ctx = yield* Layer.build(NodeStreamableHttp.layer({ port: 0, jsonResponse: json }).pipe(Layer.provideMerge(ServerLive)))
  const server = yield* Effect.provide(HttpServer.HttpServer, ctx)
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  report("listening")
  const nodeHttp = yield* Effect.promise(() => import("node:http"))
  const agent = new nodeHttp.Agent({ keepAlive: true })
  let session: string | undefined
  const post = (body: unknown) => Effect.promise(() => new Promise<string>((resolve, reject) => {
    const req = nodeHttp.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) } }, (res) => {
      const sid = res.headers["mcp-session-id"]
      if (typeof sid === "string") session = sid
      let data = ""
      res.setEncoding("utf8")
      res.on("data", (d) => { data += d })
      res.on("end", () => resolve(data))
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  }))
  yield* post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "p", version: "1" } } })
  yield* post({ jsonrpc: "2.0", method: "notifications/initialized" })
  yield* post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } })
  report("echo")
  yield* post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "blob", arguments: { bytes: 1 << 20 } } })
  report("1 MiB blob")
}).pipe(Effect.scoped)

Effect.runPromise(program).then(() => process.exit(0), (e) => { process.stderr.write(`${String(e)}\n`); process.exit(1) })
