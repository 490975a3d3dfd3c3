// Opens N idle sessions (initialize, initialized, standing GET left open) on a spawned HTTP server;
// prints the server's heap and RSS per session (after GC). SNAP=/tmp/s writes heap snapshots around it.
import { spawn } from "node:child_process"
import http from "node:http"
const argv = process.argv.slice(2)
const n = Number(argv[0]); const cmd = argv.slice(argv.indexOf("--") + 1)
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
const port = await new Promise((r) => { let b = ""; child.stdout.on("data", (d) => { b += d; const m = /LISTENING (\d+)/.exec(b); if (m) r(Number(m[1])) }) })
const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 })
const post = (session, body) => new Promise((resolve, reject) => {
  const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) } }, (res) => {
    let data = ""; res.setEncoding("utf8"); res.on("data", (d) => data += d); res.on("end", () => resolve({ session: res.headers["mcp-session-id"], data }))
  }); req.on("error", reject); req.end(JSON.stringify(body))
})
const open = async () => {
  const { session } = await post(undefined, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "s", version: "1" } } })
  await post(session, { jsonrpc: "2.0", method: "notifications/initialized" })
  if (process.env.NOGET === "1") return session // NOGET=1: no standing GET (what the GET costs is the difference)
  await new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } }, (res) => { res.on("data", () => {}); resolve() })
    req.end()
  })
  return session
}
const admin = await open()
let id = 10
const stats = async (snapshot) => { const r = await post(admin, { jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "stats", arguments: { gc: true, ...(snapshot ? { snapshot } : {}) } } }); return JSON.parse(JSON.parse(r.data.trimStart().startsWith("{") ? r.data : r.data.split("\n").find((l) => l.startsWith("data: {"))?.slice(6) ?? "{}").result.content[0].text) } // SSE or JSON (--json) answers
import fs from "node:fs"
// SMAPS=1: the RSS delta split by mapping (malloc heap, V8-sized anonymous chunks, others)
const smaps = () => { const out = {}; let cur; for (const l of fs.readFileSync(`/proc/${child.pid}/smaps`, "utf8").split("\n")) { const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(l); if (m) { const size = (parseInt(m[2], 16) - parseInt(m[1], 16)) / 1024; cur = m[3] || (size === 256 ? "anon 256K (V8 page)" : size >= 60000 ? "anon 64M (malloc arena)" : "anon other"); continue } const r = /^Rss:\s+(\d+) kB/.exec(l); if (r && cur) out[cur] = (out[cur] ?? 0) + Number(r[1]) }; return out }
const s0 = await stats(process.env.SNAP ? `${process.env.SNAP}-before.heapsnapshot` : undefined)
const m0 = process.env.SMAPS ? smaps() : undefined
const spaces = async (k) => { process.kill(child.pid, "SIGUSR2"); const f = `/tmp/spaces-${child.pid}-${k}.json`; for (let i = 0; i < 50 && !fs.existsSync(f); i++) await new Promise((r) => setTimeout(r, 20)); return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, "utf8")) : undefined } // the server run with --import spaces.mjs
const sp0 = process.env.SMAPS ? await spaces(0) : undefined
const batch = Number(process.env.BATCH ?? 50) // BATCH=500: all at once, as the bench opens them (each keeps its POST connection idle)
for (let i = 0; i < n; i += batch) await Promise.all(Array.from({ length: Math.min(batch, n - i) }, open))
await new Promise((r) => setTimeout(r, 500))
const s1 = await stats(process.env.SNAP ? `${process.env.SNAP}-after.heapsnapshot` : undefined)
const m1 = process.env.SMAPS ? smaps() : undefined
console.log(`${n} sessions: heap ${((s1.heapUsed - s0.heapUsed) / n / 1024).toFixed(1)} KiB/session, rss ${((s1.rss - s0.rss) / n / 1024).toFixed(1)} KiB/session`)
const sp1 = process.env.SMAPS ? await spaces(1) : undefined
if (sp0 && sp1) for (const a of sp0) { const b = sp1.find((x) => x.space_name === a.space_name); const f = (k) => ((b[k] - a[k]) / n / 1024).toFixed(1); console.log(`  ${a.space_name}: used ${f("space_used_size")} committed ${f("space_size")} physical ${f("physical_space_size")} KiB/session (physical ${(a.physical_space_size / 1048576).toFixed(1)} -> ${(b.physical_space_size / 1048576).toFixed(1)} MiB)`) }
if (m0) { for (const k of new Set([...Object.keys(m0), ...Object.keys(m1)])) { const d = (m1[k] ?? 0) - (m0[k] ?? 0); if (Math.abs(d) >= 64) console.log(`  ${k}: ${(d / n).toFixed(1)} KiB/session (${m0[k] ?? 0} -> ${m1[k] ?? 0} kB)`) } }
child.kill(); process.exit(0)
