// The floor of a session open: the three requests (initialize, its answer read, one turn, notifications/initialized,
// the standing GET) over bare undici, S at once, cold. node rawSessions.mjs URL [S]: client CPU per session and wall.
// undici as @effect/platform-node resolves it (scratchpad/perf/node_modules links to packages/bench/node_modules)
import { createRequire } from "node:module"
const platformNode = createRequire(import.meta.url).resolve("@effect/platform-node/package.json")
const { Agent } = createRequire(platformNode)("undici")
const [url, sArg] = process.argv.slice(2)
const S = Number(sArg ?? 500)
const u = new URL(url)
const agent = new Agent()
const init = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "p", version: "1" } } })
const req = (opts) => new Promise((res, rej) => agent.request({ origin: u.origin, path: u.pathname, signal: new AbortController().signal, ...opts }, (e, d) => e ? rej(e) : res(d)))
const text = (body) => new Promise((res, rej) => { const cs = []; body.on("data", (c) => cs.push(c)); body.on("end", () => res(Buffer.concat(cs).toString())); body.on("error", rej) })
const open = async () => {
  const r = await req({ method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: init })
  const sid = r.headers["mcp-session-id"]
  const t = await text(r.body)
  JSON.parse(t.includes("data:") ? t.split("data: ")[1] : t)
  await new Promise((r) => setImmediate(r))
  const h = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
  const n = await req({ method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })
  await text(n.body)
  setImmediate(() => req({ method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" } }).then((g) => g.body.on("data", () => {})))
}
const c0 = process.cpuUsage(); const t0 = performance.now()
await Promise.all(Array.from({ length: S }, open))
const t1 = performance.now(); const c1 = process.cpuUsage(c0)
await new Promise((r) => setTimeout(r, 300))
console.log(`${S} sessions in ${(t1 - t0).toFixed(0)} ms, client ${((c1.user + c1.system) / S).toFixed(0)} µs CPU/session`)
process.exit(0)
