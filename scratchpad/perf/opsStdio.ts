// Server-only Effect operations and fibers per stdio call (stdioserver, 2026-12-01): our server
// (NodeStdio.makeServer over in-process PassThrough streams, the bench's echo tool) driven by a
// hand-written NDJSON client that runs outside Effect, so that every counted operation is the server's.
//   node out/opsStdio.js            N=2000 calls, CONC=1 (sequential); CONC=64 keeps 64 in flight
//   SYNC=1 the tool's handler is an Effect.sync (not answered as it is made)
//   BY=1 prints the operations by op, TRACE=1 one call's operations in order (sequential only)
import * as McpServer from "@effect-mcp/mcp/McpServer"
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
let fibers = 0
let counting = false
let traced = 0
const trace = process.env.TRACE === "1"
const byOp = new Map<string, number>()
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() { return Effect.void }
  onStart() { if (counting) fibers++ }
  onEffect(fiber: unknown, effect: unknown) {
    if (!counting) return
    ops++
    const op = (effect as { _op?: string })._op ?? "?"
    byOp.set(op, (byOp.get(op) ?? 0) + 1)
    if (trace && traced < 200) {
      traced++
      const id = (fiber as { id(): { id: number } }).id().id
      const e = effect as { effect_instruction_i0?: { toString(): string } }
      console.log(id, op, String(e.effect_instruction_i0 ?? "").slice(0, 100).replace(/\s+/g, " "))
    }
  }
}
// SYNC=1: a handler that is an effect to run (`Effect.sync`), not its answer already (`Effect.succeed`)
const Echo = McpServer.tool({ name: "echo", parameters: Schema.Struct({ text: Schema.String }), handler: process.env.SYNC === "1" ? ({ text }) => Effect.sync(() => text) : ({ text }) => Effect.succeed(text) })

const toServer = new PassThrough()
const toClient = new PassThrough()
let buf = ""
let id = 0
const waiting = new Map<number, () => void>()
toClient.setEncoding("utf8")
toClient.on("data", (d: string) => {
  buf += d
  let i
  while ((i = buf.indexOf("\n")) >= 0) {
    const m = JSON.parse(buf.slice(0, i)) as { id?: number }
    buf = buf.slice(i + 1)
    const r = m.id === undefined ? undefined : waiting.get(m.id)
    if (r !== undefined) { waiting.delete(m.id!); r() }
  }
})
const call = (method: string, params: unknown) =>
  new Promise<void>((r) => {
    const i = id++
    waiting.set(i, r)
    toServer.write(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }) + "\n")
  })
const echo = () => call("tools/call", { name: "echo", arguments: { text: "hello, model context protocol" } })
const conc = Number(process.env.CONC ?? 1)
const run = async (count: number) => {
  let left = count
  await Promise.all(Array.from({ length: conc }, async () => { while (left-- > 0) await echo() }))
}

const server = Effect.gen(function*() {
  const transport = yield* NodeStdio.makeServer({ stdin: toServer, stdout: toClient })
  const mcp = yield* McpServer.McpServer
  yield* mcp.serve(transport)
}).pipe(
  Effect.provide(McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1" })))),
  Effect.scoped
)
// fibers forked from a runtime take the default flags: let them count too (a measurement hack)
;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
Effect.runFork(server.pipe(Effect.supervised(new Counter()), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))))

const n = Number(process.env.N ?? 2000)
await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "ops", version: "1" } })
toServer.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
await run(1000)
if (trace) { counting = true; await echo(); counting = false; process.exit(0) }
counting = true
await run(n)
counting = false
if (process.env.BY === "1") console.log("by op (per call):", [...byOp].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${(v / n).toFixed(1)}`).join(" "))
console.log(`${(ops / n).toFixed(1)} ops and ${(fibers / n).toFixed(2)} fibers per call (server only, stdio framing, ${conc} in flight)`)
process.exit(0)
