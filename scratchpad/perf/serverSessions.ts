// Our streamable HTTP server (as the bench's) in this process, sessions opened on it by a raw node:http driver
// (initialize, notifications/initialized, standing GET left open): Effect operations and fibers per session
// opened on the server side (a supervisor with OpSupervision; the driver is plain promises).
//   node out/serverSessions.js S [ROUNDS] [--json]   (ROUNDS-1 warm-up rounds of S sessions opened and DELETEd)
// FIBERS=1: ops by the effect each fiber started with; OPS_TOP=k: the k most frequent ops; TRACE=1 the
// operations of the first fiber counted (a session open's POST), in order.
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

const argv = process.argv.slice(2)
const S = Number(argv[0] ?? 200)
const rounds = Number(argv[1] ?? 3)
const json = argv.includes("--json")
let counting = false
let traced: number | undefined
let ops = 0
let fibers = 0
const byKey = new Map<string, number>()
const origin = new Map<number, string>()
const byOrigin = new Map<string, number>()
const describe = (effect: unknown, n: number): string => {
  const e = effect as { _op?: string; effect_instruction_i0?: unknown; effect_instruction_i1?: unknown; effect_instruction_i2?: unknown }
  const parts = [e.effect_instruction_i0, e.effect_instruction_i1, e.effect_instruction_i2].map((f) =>
    typeof f === "function" ? String(f) : typeof f === "object" && f !== null && "_op" in f ? `[${(f as { _op: string })._op} ${describe(f, 60)}]` : ""
  )
  return `${e._op} ${parts.join(" | ")}`.replace(/\s+/g, " ").slice(0, n)
}
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() { return Effect.void }
  onStart(_c: unknown, start: unknown, _p: unknown, fiber: { id(): { id: number } }) {
    if (!counting) return
    fibers++
    if (process.env.FIBERS === "1") origin.set(fiber.id().id, describe(start, 140))
  }
  onEffect(fiber: { id(): { id: number } }, effect: unknown) {
    if (!counting) return
    ops++
    // TRACE=1: the operations of the first fiber counted, in order
    if (process.env.TRACE === "1") {
      traced ??= fiber.id().id
      if (traced === fiber.id().id) console.log(`  op ${describe(effect, 160)}`)
    }
    const o = origin.get(fiber.id().id) ?? "(started before counting)"
    byOrigin.set(o, (byOrigin.get(o) ?? 0) + 1)
    if (process.env.OPS_TOP !== undefined) {
      const k = describe(effect, 100)
      byKey.set(k, (byKey.get(k) ?? 0) + 1)
    }
  }
}
;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
const Echo = McpServer.tool({ name: "echo", parameters: Schema.Struct({ text: Schema.String }), handler: ({ text }) => Effect.succeed(text) })
const ServerLive = McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "bench-ours", version: "1.0.0" })))

const drive = async (port: number) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 })
  const post = (session: string | undefined, body: unknown) => new Promise<string | undefined>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) } }, (res) => {
      res.resume(); res.on("end", () => resolve(res.headers["mcp-session-id"] as string | undefined))
    })
    req.on("error", reject); req.end(JSON.stringify(body))
  })
  const open = async () => {
    const session = await post(undefined, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "s", version: "1" } } })
    await post(session, { jsonrpc: "2.0", method: "notifications/initialized" })
    await new Promise<void>((resolve) => {
      const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": session!, "mcp-protocol-version": "2025-11-25" } }, (res) => { res.on("data", () => {}); resolve() })
      req.end()
    })
    return session!
  }
  const del = (session: string) => new Promise<void>((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "DELETE", agent, headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } }, (res) => { res.resume(); res.on("end", () => resolve()) })
    req.end()
  })
  for (let r = 0; r < rounds; r++) {
    const last = r === rounds - 1
    if (last) { counting = true }
    const c0 = process.cpuUsage()
    const sessions = await Promise.all(Array.from({ length: S }, open))
    const c1 = process.cpuUsage(c0)
    if (last) {
      counting = false
      console.log(`${(ops / S).toFixed(0)} server ops and ${(fibers / S).toFixed(1)} fibers per session opened (${json ? "JSON" : "SSE"}); process CPU ${((c1.user + c1.system) / S).toFixed(0)} µs/session (driver included)`)
      for (const [k, v] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`ops ${(v / S).toFixed(0).padStart(5)}  in fibers from ${k}`)
      for (const [k, v] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.OPS_TOP ?? 0))) console.log(`${(v / S).toFixed(1).padStart(6)}  ${k}`)
    }
    await Promise.all(sessions.map(del))
  }
  process.exit(0)
}

const program = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  yield* Effect.promise(() => drive(port))
}).pipe(Effect.provide(NodeStreamableHttp.layer({ port: 0, jsonResponse: json }).pipe(Layer.provideMerge(ServerLive))))
Effect.runPromise(program.pipe(Effect.supervised(new Counter()), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))))
