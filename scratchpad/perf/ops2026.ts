// Effect operations and fibers per call of our streamable HTTP server, in one process: the server
// (NodeStreamableHttp on 127.0.0.1:0, an echo tool) under a supervisor that counts every op, driven by
// raw node:http keep-alive POSTs (FAST_PATH_MS=60000: the SSE fast-path window, so that its sleeper's restarts, which
// depend on the pace of the calls, do not count). MODE=2026 (default): the 2026-07-28 path (envelope + headers, no
// session); MODE=2025: an initialized 2025 session; MODE=stateless: 2025 with `stateless: true`.
//   node scratchpad/perf/out/ops2026.js   (N calls counted, after 500 warm-up)
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Schema from "effect/Schema"
import * as Supervisor from "effect/Supervisor"
import * as http from "node:http"

const MODE = process.env.MODE ?? "2026"
const TRACE = process.env.TRACE === "1"
let traced = 0
let ops = 0
let counting = false
let fibers = 0
const byOp = new Map<string, number>()
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() { return Effect.void }
  onStart() { if (counting) fibers++ }
  onEffect(fiber: unknown, effect: unknown) {
    if (!counting) return
    ops++
    if (TRACE && traced < 320) {
      traced++
      const e = effect as { effect_instruction_i0?: unknown; effect_instruction_i1?: unknown }
      const show = (u: unknown) => String(typeof u === "function" ? u.toString() : u ?? "").slice(0, 110).replace(/\s+/g, " ")
      console.log((fiber as { id(): { id: number } }).id().id, (effect as { _op?: string })._op, show(e.effect_instruction_i0), "|", show(e.effect_instruction_i1))
    }
    const op = (effect as { _op?: string })._op ?? "?"
    byOp.set(op, (byOp.get(op) ?? 0) + 1)
  }
}
const Echo = McpServer.tool({ name: "echo", parameters: Schema.Struct({ text: Schema.String }), handler: ({ text }) => Effect.succeed(text) })
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw2026", version: "1" }
}
const program = Effect.gen(function*() {
  const layer = NodeStreamableHttp.layer({ port: 0, ...(MODE === "stateless" ? { stateless: true } : {}), ...(process.env.FAST_PATH_MS !== undefined ? { sseFastPath: Number(process.env.FAST_PATH_MS) } : {}) }).pipe(
    Layer.provideMerge(McpServer.register(Echo)),
    Layer.provideMerge(McpServer.layer({ name: "s", version: "1" }))
  )
  const context = yield* Layer.build(layer)
  const server = Context.get(context, HttpServer.HttpServer)
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const agent = new http.Agent({ keepAlive: true })
  let session: string | undefined
  let id = 0
  const post = (body: unknown, extra: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", ...extra }
      if (session !== undefined) { headers["mcp-session-id"] = session; headers["mcp-protocol-version"] = "2025-11-25" }
      const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers }, (res) => {
        const sid = res.headers["mcp-session-id"]
        if (typeof sid === "string") session = sid
        let data = ""
        res.setEncoding("utf8")
        res.on("data", (d) => { data += d })
        res.on("end", () => resolve(data))
      })
      req.on("error", reject)
      req.end(JSON.stringify(body))
    })
  if (MODE !== "2026") {
    yield* Effect.promise(() => post({ jsonrpc: "2.0", id: id++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }, {}))
    yield* Effect.promise(() => post({ jsonrpc: "2.0", method: "notifications/initialized" }, {}))
  }
  const call = () =>
    MODE === "2026"
      ? post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, _meta: meta } }, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" })
      : post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }, {})
  const first = yield* Effect.promise(call)
  if (!first.includes("\"hi\"")) throw new Error(`unexpected answer: ${first}`)
  const n = Number(process.env.N ?? 1000)
  yield* Effect.promise(async () => { for (let i = 0; i < 500; i++) await call() })
  counting = true
  yield* Effect.promise(async () => { for (let i = 0; i < n; i++) await call() })
  counting = false
  agent.destroy()
  console.log(`by op (per call): ${[...byOp].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${(v / n).toFixed(1)}`).join(" ")}`)
  console.log(`${MODE}: ${(ops / n).toFixed(1)} ops and ${(fibers / n).toFixed(2)} fibers per sequential call (server side)`)
}).pipe(Effect.scoped)
;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
Effect.runPromise(program.pipe(Effect.supervised(new Counter()), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)))).then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
