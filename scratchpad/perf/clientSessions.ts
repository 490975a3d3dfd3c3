// Our HTTP client opening sessions, as the bench's ours-connector does (one shared undici client, a
// McpClient.layer + StreamableHttpClient.layer built per session): client cost per session opened.
//   node out/clientSessions.js URL S [ROUNDS]   (warm-up: ROUNDS-1 rounds of S opened and closed; then S counted)
// OFFICIAL=1: the official SDK's client instead (Client + StreamableHTTPClientTransport).
// Prints CPU µs per session (process.cpuUsage). Under `valgrind --tool=callgrind` (CG=1) it zeroes and dumps
// its own counters around the counted round (callgrind_control on its pid): Ir per session.
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Transport from "@effect-mcp/mcp/Transport"
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import * as inspector from "node:inspector"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Scope from "effect/Scope"
import * as Supervisor from "effect/Supervisor"

const [url, sArg, roundsArg] = process.argv.slice(2)
const S = Number(sArg ?? 200)
const rounds = Number(roundsArg ?? 3)
const cg = process.env.CG === "1"
// OPS=1: Effect operations and fibers per session opened (a supervisor with OpSupervision), by op and
// by the op's first instruction (what code it runs), top OPS_TOP
const opsMode = process.env.OPS === "1"
let counting = false
let ops = 0
let fibers = 0
// TRACE=1: every operation of the counted round in order, with its fiber's id (use S=1)
const trace: Array<string> = []
const byKey = new Map<string, number>()
const byFiber = new Map<string, number>()
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
    if (process.env.FIBERS === "1") {
      // where the fiber was forked: the first frames of this bundle (our code) on the stack
      const frames = (new Error().stack ?? "").split("\n").slice(3, 3 + Number(process.env.FRAMES ?? 6))
      const k = frames.map((l) => l.trim().replace(/^at /, "").replace(/\(?file:.*clientSessions.js:/, "@").replace(/\(?file:.*node_modules\/effect\/dist\/esm\//, "").replace(/\)$/, "")).join(" < ")
      byFiber.set(k, (byFiber.get(k) ?? 0) + 1)
      origin.set(fiber.id().id, describe(start, 140))
    }
  }
  onEffect(fiber: { id(): { id: number } }, effect: unknown) {
    if (!counting) return
    ops++
    if (process.env.TRACE === "1") trace.push(`${fiber.id().id} ${describe(effect, 160)}`)
    const o = origin.get(fiber.id().id) ?? "(started before counting / main)"
    byOrigin.set(o, (byOrigin.get(o) ?? 0) + 1)
    const e = effect as { _op?: string; effect_instruction_i0?: unknown; effect_instruction_i1?: unknown }
    const f = typeof e.effect_instruction_i0 === "function" ? e.effect_instruction_i0 : e.effect_instruction_i1
    const k = `${e._op} ${typeof f === "function" ? String(f).slice(0, 90).replace(/\s+/g, " ") : ""}`
    byKey.set(k, (byKey.get(k) ?? 0) + 1)
  }
}
const counter = new Counter()
if (opsMode) {
  ;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
}
const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(opsMode ? effect.pipe(Effect.supervised(counter), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))) : effect)
// a fresh connection pool per round: a kept-alive connection the server closes between rounds would
// race with its reuse on a loaded machine (ECONNRESET / "other side closed")
let sharedScope = Effect.runSync(Scope.make())
let shared = await Effect.runPromise(Layer.buildWithScope(NodeStreamableHttpClient.layerHttpClient, sharedScope))
const freshPool = async () => {
  await Effect.runPromise(Scope.close(sharedScope, Exit.void))
  sharedScope = Effect.runSync(Scope.make())
  shared = await Effect.runPromise(Layer.buildWithScope(NodeStreamableHttpClient.layerHttpClient, sharedScope))
}
const options = { name: "probe", version: "1.0.0", era: "2025" as const }
const official = process.env.OFFICIAL === "1"
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js")
const connectOfficial = async () => {
  const client = new Client({ name: "probe", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(url!))
  await client.connect(transport)
  return { close: () => transport.terminateSession().catch(() => {}).then(() => client.close()) }
}
const connectOurs = async () => {
  const transport = StreamableHttpClient.layer({ url: url! }).pipe(Layer.provide(Layer.succeedContext(shared)))
  const layer = McpClient.layer(options).pipe(Layer.provide(transport))
  const scope = Effect.runSync(Scope.make())
  if (process.env.DIRECT === "1") {
    // no Layers: the transport and the client made in the session's scope (what the Layers cost)
    const client = await run(McpClient.make(options).pipe(
      Effect.provideServiceEffect(Transport.Transport, StreamableHttpClient.make({ url: url! })),
      Effect.provide(shared),
      Scope.extend(scope)
    ))
    return { client, close: () => run(Scope.close(scope, Exit.void)) }
  }
  const context = await run(Layer.buildWithScope(layer, scope))
  return { client: Context.get(context, McpClient.McpClient), close: () => run(Scope.close(scope, Exit.void)) }
}
const connect = official ? connectOfficial : connectOurs
for (let r = 0; r < rounds - 1; r++) {
  const ss = await Promise.all(Array.from({ length: S }, connect))
  await Promise.all(ss.map((s) => s.close()))
  await freshPool()
}
if (cg) execFileSync("callgrind_control", ["-z", String(process.pid)], { stdio: "ignore" })
counting = true
// SERVER_PID=pid: that process's CPU over the counted round too (/proc/pid/stat utime+stime)
const serverPid = process.env.SERVER_PID
const serverCpu = () => {
  if (serverPid === undefined) return 0
  const f = readFileSync(`/proc/${serverPid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(f[11]) + Number(f[12])) * 10_000 // clock ticks (100/s) in µs
}
// PROF=file.cpuprofile: a CPU profile of the counted round only (node:inspector, 100 µs sampling)
const prof = process.env.PROF
const session = prof === undefined ? undefined : new inspector.Session()
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => session!.post(method, params ?? {}, (e, r) => e ? reject(e) : resolve(r)))
if (session !== undefined) {
  session.connect()
  await post("Profiler.enable")
  await post("Profiler.setSamplingInterval", { interval: 100 })
  await post("Profiler.start")
}
const s0 = serverCpu()
const c0 = process.cpuUsage()
const t0 = performance.now()
const ss = await Promise.all(Array.from({ length: S }, connect))
const t1 = performance.now()
const c1 = process.cpuUsage(c0)
if (session !== undefined) {
  const { profile } = await post("Profiler.stop") as { profile: unknown }
  writeFileSync(prof!, JSON.stringify(profile))
}
if (serverPid !== undefined) {
  // the server's last writes (the standing GETs' answers) may still be running: let it settle
  await new Promise((r) => setTimeout(r, 300))
  console.log(`server ${((serverCpu() - s0) / S).toFixed(0)} µs CPU/session (incl. 300 ms settle)`)
}
counting = false
if (opsMode) {
  console.log(`${(ops / S).toFixed(0)} ops and ${(fibers / S).toFixed(1)} fibers per session opened`)
  if (process.env.TRACE === "1") for (const line of trace) console.log(`trace ${line}`)
  for (const [k, v] of [...byOrigin].sort((a, b) => b[1] - a[1])) console.log(`ops ${(v / S).toFixed(0).padStart(5)}  in fibers from ${k}`)
  for (const [k, v] of [...byFiber].sort((a, b) => b[1] - a[1])) console.log(`fibers ${(v / S).toFixed(2)}  ${k}`)
  for (const [k, v] of [...byKey].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.OPS_TOP ?? 40))) console.log(`${(v / S).toFixed(1).padStart(6)}  ${k}`)
}
if (cg) execFileSync("callgrind_control", ["-d", String(process.pid)], { stdio: "ignore" })
console.log(`${S} sessions in ${(t1 - t0).toFixed(0)} ms, client ${((c1.user + c1.system) / S).toFixed(0)} µs CPU/session`)
// HOLD=ms: wait that long with the sessions open before closing them (e.g. to read conncount.mjs's open count)
if (process.env.HOLD !== undefined) await new Promise((r) => setTimeout(r, Number(process.env.HOLD)))
ops = 0
trace.length = 0
counting = true
await Promise.all(ss.map((s) => s.close()))
counting = false
if (opsMode) console.log(`${(ops / S).toFixed(0)} ops per session closed`)
// TRACE=1: the close's operations too (`tracec` lines)
if (process.env.TRACE === "1") for (const line of trace) console.log(`tracec ${line}`)
await Effect.runPromise(Scope.close(sharedScope, Exit.void))
process.exit(0)
