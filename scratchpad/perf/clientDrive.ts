// Our McpClient over stdio against any server: N calls (CONC in flight), client CPU per call.
// bundle: node scratchpad/perf/bundle.mjs; run: node scratchpad/perf/out/clientDrive.js N -- node server.js --stdio
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { spawn } from "node:child_process"
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
      : Effect.suspend(() => {
        let left = count
        const worker = Effect.whileLoop({ while: () => left-- > 0, body: () => echo, step: () => {} })
        return Effect.forEach(Array.from({ length: conc }), () => worker, { concurrency: "unbounded", discard: true })
      })
  yield* run(warm)
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  yield* run(n)
  const t1 = performance.now()
  const c1 = process.cpuUsage(c0)
  console.log(`${(n / (t1 - t0) * 1000).toFixed(0)} calls/s, client ${((c1.user + c1.system) / n).toFixed(1)} µs/call`)
})
const http = cmd.includes("--http")
const port = http
  ? await new Promise<number>((resolve) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
    process.on("exit", () => child.kill())
    let buffer = ""
    child.stdout.on("data", (d) => {
      buffer += d
      const m = /LISTENING (\d+)/.exec(buffer)
      if (m) resolve(Number(m[1]))
    })
  })
  : 0
const transport = http
  ? StreamableHttpClient.layer({ url: `http://127.0.0.1:${port}/mcp` }).pipe(Layer.provide(process.env.RAW ? Layer.scoped(HttpClient.HttpClient, Effect.map(NodeHttpClient.makeDispatcher, NodeHttpClient.makeUndici)) : process.env.UNDICI ? NodeHttpClient.layerUndici : NodeHttpClient.layer))
  : NodeStdio.layerClient({ command: cmd[0]!, args: cmd.slice(1) })
const sessions = Number(process.env.SESSIONS ?? 0)
if (sessions > 0) {
  const layer = McpClient.layer({ name: "drive", version: "1", ...(process.env.ERA ? { era: process.env.ERA as "2025" | "2026-07-28" | "auto" } : {}) }).pipe(Layer.provide(transport))
  const open = Effect.gen(function*() {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    yield* Effect.forEach(Array.from({ length: sessions }), () => Layer.build(layer), { concurrency: "unbounded", discard: true })
    const t1 = performance.now()
    const c1 = process.cpuUsage(c0)
    console.log(`${sessions} sessions in ${(t1 - t0).toFixed(0)} ms, client ${((c1.user + c1.system) / sessions).toFixed(0)} µs/session`)
  })
  await Effect.runPromise(Effect.scoped(open))
  process.exit(0)
}
Effect.runPromise(program.pipe(Effect.provide(McpClient.layer({ name: "drive", version: "1", ...(process.env.ERA ? { era: process.env.ERA as "2025" | "2026-07-28" | "auto" } : {}) }).pipe(Layer.provide(transport))))).then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
