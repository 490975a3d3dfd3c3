// Effect operations and fibers per call of OUR stdio CLIENT only: McpClient (era 2025) over
// NodeStdio.layerClient, against a server in another process (the floor server, by default), so
// every counted op is the client's. The calls are the bench's: `client.callTool("echo", ARGS)`
// yielded in a loop (or 64 in flight with CONC=64).
//   node out/opsClient.js [N] -- node packages/bench/bundle/serverFloor.js --stdio
// TRACE=1 prints the ops of one call (after the warm-up); WARM=k warm-up calls (default 500).
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Supervisor from "effect/Supervisor"

const argv = process.argv.slice(2)
const cmd = argv.slice(argv.indexOf("--") + 1)
const n = Number(argv[0] !== "--" && argv[0] !== undefined ? argv[0] : 2000)
const warm = Number(process.env.WARM ?? 500)
const conc = Number(process.env.CONC ?? 1)
const trace = process.env.TRACE === "1"
const ARGS = { text: "hello, model context protocol" }

let ops = 0
let fibers = 0
let counting = false
let tracing = false
const byFiber = new Map<number, number>()
const byOp = new Map<string, number>()
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() { return Effect.void }
  onStart() { fibers++ }
  onEffect(fiber: unknown, effect: unknown) {
    ops++
    if (!counting) return
    const id = (fiber as { id(): { id: number } }).id().id
    const op = (effect as { _op?: string })._op ?? "?"
    byFiber.set(id, (byFiber.get(id) ?? 0) + 1)
    byOp.set(op, (byOp.get(op) ?? 0) + 1)
    if (tracing) {
      const e = effect as { effect_instruction_i0?: { toString(): string } }
      console.log(id, op, String(e.effect_instruction_i0 ?? "").slice(0, 140).replace(/\s+/g, " "))
    }
  }
}

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const echo = client.callTool("echo", ARGS)
  const run = (count: number) =>
    conc === 1
      ? Effect.gen(function*() {
        for (let i = 0; i < count; i++) yield* echo
      })
      : Effect.suspend(() => {
        let left = count
        const worker = Effect.whileLoop({ while: () => left-- > 0, body: () => echo, step: () => {} })
        return Effect.forEach(Array.from({ length: conc }), () => worker, { concurrency: "unbounded", discard: true })
      })
  yield* run(warm)
  if (trace) {
    counting = true
    tracing = true
    yield* echo
    tracing = false
    counting = false
    byFiber.clear()
    byOp.clear()
  }
  const before = ops
  const f0 = fibers
  counting = true
  yield* run(n)
  counting = false
  console.log("by fiber (per call):", [...byFiber].map(([k, v]) => [k, +(v / n).toFixed(2)]).filter(([, v]) => (v as number) >= 0.05))
  console.log("by op (per call):", [...byOp].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${(v / n).toFixed(2)}`).join(" "))
  console.log(`${((ops - before) / n).toFixed(2)} ops and ${((fibers - f0) / n).toFixed(3)} fibers per call (client only, ${conc} in flight)`)
})
const layer = McpClient.layer({ name: "ops-client", version: "1", era: "2025" }).pipe(
  Layer.provide(NodeStdio.layerClient({ command: cmd[0]!, args: cmd.slice(1) }))
)
// fibers forked from a runtime take the default flags: let them count too (a measurement hack)
;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
Effect.runPromise(program.pipe(
  Effect.provide(layer),
  Effect.supervised(new Counter()),
  Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))
)).then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
