// Our McpClient over StreamableHttpClient against a canned node:http server in the same process:
// the client's cost without a real MCP server. node --cpu-prof out/clientInproc.js [calls] [inflight]
// ERA=2026-07-28: the client pinned to that revision (default: 2025); OPS=1 counts Effect operations.
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Supervisor from "effect/Supervisor"

let ops = 0
let traceTarget: number | undefined
let traced = 0
let fibers = 0
let counting = false
const byOp = new Map<string, number>()
const byFiber = new Map<number, number>()
const where = new Map<string, number>()
class Counter extends Supervisor.AbstractSupervisor<void> {
  get value() { return Effect.void }
  onStart() { if (counting) fibers++ }
  onEffect(_fiber: unknown, effect: unknown) {
    if (!counting) return
    ops++
    const fid = (_fiber as { id(): { id: number } }).id().id
    byFiber.set(fid, (byFiber.get(fid) ?? 0) + 1)
    if (process.env.TRACEFIBER !== undefined && traceTarget === undefined && fid > 10 && ops > 1000) traceTarget = fid
    if (fid === traceTarget && traced < 200) { traced++; const x = effect as { _op?: string; effect_instruction_i0?: unknown }; console.log(x._op, typeof x.effect_instruction_i0 === "function" ? String(x.effect_instruction_i0).slice(0, 110).replace(/\s+/g, " ") : "") }
    const e = effect as { _op?: string; effect_instruction_i0?: unknown }
    byOp.set(e._op ?? "?", (byOp.get(e._op ?? "?") ?? 0) + 1)
    if (typeof e.effect_instruction_i0 === "function") {
      const k = String(e.effect_instruction_i0).slice(0, 70).replace(/\s+/g, " ")
      where.set(k, (where.get(k) ?? 0) + 1)
    }
  }
}
const counter = process.env.OPS === "1"
import * as http from "node:http"

const era2026 = process.env.ERA === "2026-07-28"
const init = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "canned", version: "1" } }
const server = http.createServer((req, res) => {
  if (req.method === "GET") return void res.writeHead(405).end()
  if (req.method === "DELETE") return void res.writeHead(200).end()
  let body = ""
  req.on("data", (d) => (body += d))
  req.on("end", () => {
    const m = JSON.parse(body)
    if (m.id === undefined) return void res.writeHead(202).end()
    // ERA=2026-07-28: answered as that revision's server answers (discover; resultType and serverInfo stamped)
    const stamp = (r: object) => (era2026 ? { ...r, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": init.serverInfo } } : r)
    const result = m.method === "initialize"
      ? init
      : m.method === "server/discover"
      ? stamp({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} } })
      : stamp({ content: [{ type: "text", text: m.params.arguments.text }] })
    const text = `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result })}\n\n`
    res.writeHead(200, { "content-type": "text/event-stream", "content-length": Buffer.byteLength(text), "mcp-session-id": "s" })
    res.end(text)
  })
})
await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
const port = (server.address() as { port: number }).port
const n = Number(process.argv[2] ?? 10000)
const inflight = Number(process.argv[3] ?? 1)
const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const echo = client.callTool("echo", { text: "hello, model context protocol" })
  const run = (count: number) => Effect.forEach(Array.from({ length: count }), () => echo, { concurrency: inflight, discard: true })
  yield* run(3000)
  const c0 = process.cpuUsage()
  counting = counter
  yield* run(n)
  counting = false
  const c = process.cpuUsage(c0)
  if (counter) {
    console.log(`${(ops / n).toFixed(1)} ops, ${(fibers / n).toFixed(2)} fibers per call`)
    const big = [...byFiber].filter(([, v]) => v / n >= 0.5).map(([k, v]) => `${k}:${(v / n).toFixed(1)}`)
    const rest = [...byFiber].filter(([, v]) => v / n < 0.5).reduce((a, [, v]) => a + v, 0)
    console.log("long-lived fibers:", big.join(" "), "short-lived (per-call fibers) total:", (rest / n).toFixed(1))
    console.log([...byOp].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${(v / n).toFixed(1)}`).join(" "))
    for (const [k, v] of [...where].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / n).toFixed(2), k)
  }
  console.log(`${((c.user + c.system) / n).toFixed(0)} µs/call, client + canned server`)
}).pipe(
  Effect.provide(
    McpClient.layer({ name: "inproc", version: "1", era: era2026 ? "2026-07-28" : "2025" }).pipe(
      Layer.provide(StreamableHttpClient.layer({ url: `http://127.0.0.1:${port}/mcp` })),
      Layer.provide(NodeStreamableHttpClient.layerHttpClient)
    )
  )
)
if (counter) (Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = RuntimeFlags.enable(Runtime.defaultRuntime.runtimeFlags, RuntimeFlags.OpSupervision)
await Effect.runPromise(counter ? program.pipe(Effect.supervised(new Counter()), Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))) : program)
server.close()
process.exit(0)
