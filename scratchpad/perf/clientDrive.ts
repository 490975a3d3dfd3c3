// Our McpClient over stdio against any server: N calls (CONC in flight), client CPU per call.
// bundle: node scratchpad/perf/bundle.mjs; run: node scratchpad/perf/out/clientDrive.js N -- node server.js --stdio
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const argv = process.argv.slice(2)
const n = Number(argv[0])
const cmd = argv.slice(argv.indexOf("--") + 1)
const conc = Number(process.env.CONC ?? 1)
const warm = Number(process.env.WARM ?? 5000)

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const echo = client.callTool("echo", { text: "hello, model context protocol" })
  const run = (count: number) =>
    conc === 1
      ? Effect.repeatN(echo, count - 1)
      : Effect.forEach(Array.from({ length: count }), () => echo, { concurrency: conc, discard: true })
  yield* run(warm)
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  yield* run(n)
  const t1 = performance.now()
  const c1 = process.cpuUsage(c0)
  console.log(`${(n / (t1 - t0) * 1000).toFixed(0)} calls/s, client ${((c1.user + c1.system) / n).toFixed(1)} µs/call`)
}).pipe(
  Effect.provide(
    McpClient.layer({ name: "drive", version: "1" }).pipe(
      Layer.provide(NodeStdio.layerClient({ command: cmd[0]!, args: cmd.slice(1) }))
    )
  )
)
Effect.runPromise(program).then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
