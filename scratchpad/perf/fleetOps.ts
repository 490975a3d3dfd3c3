// Effect operations (and fibers) per sequential call of our streamable HTTP server with the Redis backend, in one
// process: K endpoints (NodeStreamableHttp.layer, an echo tool), each with its own RedisClient and
// RedisSessionStore under one prefix (K instances of a fleet), round-robin driven by raw node:http POSTs of one
// 2025 session (and its standing GET unless GET=0), under a supervisor counting every op. Deterministic; the
// Redis commands per call too. `memory` for the in-memory server (K=1).
//   node out/fleetOps.js [json|sse] [K|memory] [N]     (WARM warm-up calls, default 2000; BY=1 ops by kind)
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import { RedisClient, RedisEventStore, RedisSessionStore } from "@effect-mcp/redis"
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

const mode = process.argv[2] ?? "json"
const memory = process.argv[3] === "memory"
const k = memory ? 1 : Number(process.argv[3] ?? 1)
const n = Number(process.argv[4] ?? 2000)
const warm = Number(process.env.WARM ?? 2000)
const json = mode === "json"
const prefix = `mcp-ops-${Math.random().toString(16).slice(2, 10)}`
const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const endpoint = (i: number) =>
  Effect.gen(function*() {
    let commands = () => 0
    const options = memory
      ? { eventStore: json ? undefined : true as const }
      : yield* Effect.gen(function*() {
        const client = yield* RedisClient.make({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379", prefix })
        commands = client.commands
        const sessionStore = yield* RedisSessionStore.make(client, { instanceId: `o${i}`, heartbeatInterval: "1 hour", heartbeatTtl: "2 hours" })
        return { sessionStore, eventStore: json ? undefined : yield* RedisEventStore.make(client) }
      })
    const context = yield* Layer.build(
      NodeStreamableHttp.layer({ port: 0, jsonResponse: json, ...options }).pipe(
        Layer.provideMerge(McpServer.register(Echo)),
        Layer.provideMerge(McpServer.layer({ name: "s", version: "1" }))
      )
    )
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    return { port: server.address._tag === "TcpAddress" ? server.address.port : 0, commands: () => commands() }
  })

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
let session: string | undefined
let id = 0
let next = 0
const post = (ports: ReadonlyArray<number>, body: unknown) =>
  new Promise<string>((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port: ports[next++ % ports.length],
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
      res.on("end", () => (res.statusCode! >= 400 ? reject(new Error(`${res.statusCode} ${data}`)) : resolve(data)))
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })

const program = Effect.gen(function*() {
  const instances = yield* Effect.forEach(Array.from({ length: k }, (_, i) => i), endpoint)
  const ports = instances.map((i) => i.port)
  const commands = () => instances.reduce((s, i) => s + i.commands(), 0)
  yield* Effect.promise(async () => {
    await post(ports, { jsonrpc: "2.0", id: id++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })
    await post(ports, { jsonrpc: "2.0", method: "notifications/initialized" })
    if (process.env.GET !== "0") {
      http.get({ host: "127.0.0.1", port: ports[next++ % k], path: "/mcp", headers: { accept: "text/event-stream", "mcp-session-id": session!, "mcp-protocol-version": "2025-11-25" } }, (res) => res.resume())
    }
    const call = () => post(ports, { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: "hello, model context protocol" } } })
    for (let i = 0; i < warm; i++) await call()
    await new Promise((r) => setTimeout(r, 100))
    const o0 = ops, f0 = fibers, c0 = commands()
    byOp.clear()
    for (let i = 0; i < n; i++) await call()
    await new Promise((r) => setTimeout(r, 100))
    console.log(`${mode}, ${memory ? "memory" : `${k} instance(s)`}: ${((ops - o0) / n).toFixed(1)} ops and ${((fibers - f0) / n).toFixed(2)} fibers per call (servers, ${n} sequential calls), ${((commands() - c0) / n).toFixed(2)} Redis commands`)
    if (by) console.log([...byOp].sort((a, b) => b[1] - a[1]).slice(0, 50).map(([k, v]) => `${(v / n).toFixed(2).padStart(6)} ${k}`).join("\n"))
  })
}).pipe(Effect.scoped)
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
