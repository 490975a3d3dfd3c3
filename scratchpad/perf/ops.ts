// Counts Effect operations per round trip (client + server, in memory), by a supervisor
// that sees every op: a deterministic measure of the engine's per-call work.
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as NdJson from "@effect-mcp/node/NdJson"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import { PassThrough } from "node:stream"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Schema from "effect/Schema"
import * as Supervisor from "effect/Supervisor"

let ops = 0
let counting = false
let traced = 0
const trace = process.env.TRACE === "1"
const byFiber = new Map<number, number>()
const byOp = new Map<string, number>()
let fibers = 0
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() { return Effect.void }
  onStart() { fibers++ }
  onEffect(fiber: unknown, effect: unknown) {
    ops++
    if (!counting) return
    const id = (fiber as { id(): { id: number } }).id().id
    const op = (effect as { _op?: string })._op ?? "?"
    byFiber.set(id, (byFiber.get(id) ?? 0) + 1)
    const k = `${op}`
    byOp.set(k, (byOp.get(k) ?? 0) + 1)
    if (trace && traced < 400) { traced++; const e = effect as { effect_instruction_i0?: { toString(): string } }; console.log(id, op, String(e.effect_instruction_i0 ?? "").slice(0, 100).replace(/\s+/g, " ")) }
  }
}
const Echo = McpServer.tool({ name: "echo", parameters: Schema.Struct({ text: Schema.String }), handler: ({ text }) => Effect.succeed(text) })
const program = Effect.gen(function*() {
  // MODE=stdio: NdJson framing over in-process streams, both sides as the stdio transports build them
  const pair = process.env.MODE === "stdio"
    ? yield* Effect.gen(function*() {
      const toServer = new PassThrough()
      const toClient = new PassThrough()
      const server = yield* NodeStdio.makeServer({ stdin: toServer, stdout: toClient })
      const writer = yield* NdJson.makeWriter(toServer)
      const reader = yield* NdJson.makeReader(toClient)
      const client: Transport.TransportShape = { ...Transport.fromPull(reader.pull, process.env.FEED === "0" ? undefined : { feed: reader.feed }), send: (m) => writer.send(m) }
      return { client, server }
    })
    : yield* Transport.makeMemoryPair({ record: false })
  const server = yield* Effect.map(Layer.build(McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1" })))), (c) => c)
  const mcp = (yield* Effect.provide(McpServer.McpServer, server))
  yield* Effect.forkScoped(mcp.serve(pair.server))
  const client = yield* McpClient.make({ name: "c", version: "1", era: "2025" }).pipe(Effect.provideService(Transport.Transport, pair.client))
  const echo = client.callTool("echo", { text: "hi" })
  for (let i = 0; i < 200; i++) yield* echo
  const before = ops, f0 = fibers
  const n = Number(process.env.N ?? 1000)
  counting = true
  for (let i = 0; i < n; i++) yield* echo
  counting = false
  console.log("by fiber (per call):", [...byFiber].map(([k, v]) => [k, v / n]).filter(([, v]) => (v as number) >= 0.5))
  console.log("by op (per call):", [...byOp].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${(v / n).toFixed(1)}`).join(" "))
  console.log(`${((ops - before) / n).toFixed(1)} ops and ${((fibers - f0) / n).toFixed(2)} fibers per sequential round trip (client + server, in memory)`)
}).pipe(Effect.scoped)
// fibers forked from a runtime take the default flags: let them count too (a measurement hack)
;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
Effect.runPromise(program.pipe(Effect.supervised(new Counter()), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision)))).then(() => process.exit(0))
