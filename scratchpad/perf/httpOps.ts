// Effect operations (and fibers) per call of our streamable HTTP server, in one process: the server
// (NodeStreamableHttp.layer, an echo tool) under a supervisor that counts every op, driven by raw
// node:http POSTs with the headers the official v1 client sends (and its standing GET unless GET=0).
// Deterministic, so it does not depend on machine load.
//   node out/httpOps.js [sse|json|store] [N]     (WARM warm-up calls, default 2000; BY=1 ops by kind)
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Schema from "effect/Schema"
import * as Supervisor from "effect/Supervisor"
import http from "node:http"

let ops = 0
let fibers = 0
const byOp = new Map<string, number>()
const by = process.env.BY === "1"
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() {
    return Effect.void
  }
  onStart() {
    fibers++
  }
  onEffect(_fiber: unknown, effect: unknown) {
    ops++
    if (by) {
      const e = effect as { _op?: string; effect_instruction_i0?: { name?: string; toString(): string }; commit?: () => unknown; constructor?: { name?: string } }
      const what = e._op === "Commit"
        ? `${e.constructor?.name ?? ""} ${String(e.commit).slice(0, 80)}`
        : String(e.effect_instruction_i0 ?? "").slice(0, 90)
      const k = `${e._op ?? "?"} ${what.replace(/\s+/g, " ")}`
      byOp.set(k, (byOp.get(k) ?? 0) + 1)
    }
  }
}

const mode = process.argv[2] ?? "sse"
const n = Number(process.argv[3] ?? 2000)
const warm = Number(process.env.WARM ?? 2000)
const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const ServerLive = McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1" })))

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
let session: string | undefined
let id = 0
const post = (port: number, body: unknown) =>
  new Promise<string>((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: "/mcp",
      method: "POST",
      agent,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session !== undefined ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {})
      }
    }, (res) => {
      const sid = res.headers["mcp-session-id"]
      if (typeof sid === "string") session = sid
      let data = ""
      res.setEncoding("utf8")
      res.on("data", (d) => (data += d))
      res.on("end", () => resolve(data))
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })

const program = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  yield* Effect.promise(async () => {
    await post(port, { jsonrpc: "2.0", id: id++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })
    await post(port, { jsonrpc: "2.0", method: "notifications/initialized" })
    if (process.env.GET !== "0") {
      http.get({ host: "127.0.0.1", port, path: "/mcp", headers: { accept: "text/event-stream", "mcp-session-id": session!, "mcp-protocol-version": "2025-11-25" } }, (res) => res.resume())
    }
    const call = () => post(port, { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: "hello, model context protocol" } } })
    for (let i = 0; i < warm; i++) await call()
    const o0 = ops, f0 = fibers
    byOp.clear()
    for (let i = 0; i < n; i++) await call()
    console.log(`${mode}: ${((ops - o0) / n).toFixed(1)} ops and ${((fibers - f0) / n).toFixed(2)} fibers per call (server, ${n} sequential calls)`)
    if (by) console.log([...byOp].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${(v / n).toFixed(2).padStart(6)} ${k}`).join("\n"))
  })
}).pipe(
  Effect.provide(
    NodeStreamableHttp.layer({ port: 0, jsonResponse: mode === "json", eventStore: mode === "store" }).pipe(Layer.provideMerge(ServerLive))
  )
)
;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(
  Runtime.defaultRuntime.runtimeFlags,
  RuntimeFlags.OpSupervision
)
Effect.runPromise(
  program.pipe(Effect.supervised(new Counter()), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)))
).then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
