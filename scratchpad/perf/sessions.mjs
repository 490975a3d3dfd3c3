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
const s0 = await stats(process.env.SNAP ? `${process.env.SNAP}-before.heapsnapshot` : undefined)
const batch = Number(process.env.BATCH ?? 50) // BATCH=500: all at once, as the bench opens them (each keeps its POST connection idle)
for (let i = 0; i < n; i += batch) await Promise.all(Array.from({ length: Math.min(batch, n - i) }, open))
await new Promise((r) => setTimeout(r, 500))
const s1 = await stats(process.env.SNAP ? `${process.env.SNAP}-after.heapsnapshot` : undefined)
console.log(`${n} sessions: heap ${((s1.heapUsed - s0.heapUsed) / n / 1024).toFixed(1)} KiB/session, rss ${((s1.rss - s0.rss) / n / 1024).toFixed(1)} KiB/session`)
child.kill(); process.exit(0)
