// Peak RSS of an HTTP server process after W echo calls and N `blob` calls of B bytes (raw node:http
// POSTs, one session), from its `stats` tool: what the bench's 1 MiB row measures, without the bench.
//   node blobpeak.mjs [W] [N] [B] -- node [flags] server.js --http [--json]
import { spawn } from "node:child_process"
import http from "node:http"
const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const [W = "50", N = "5", B = String(1 << 20)] = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
const port = await new Promise((r) => { let b = ""; child.stdout.on("data", (d) => { b += d; const m = /LISTENING (\d+)/.exec(b); if (m) r(Number(m[1])) }) })
const agent = new http.Agent({ keepAlive: true })
let session
let id = 0
const post = (body) => new Promise((resolve, reject) => {
  const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) } }, (res) => {
    if (res.headers["mcp-session-id"]) session = res.headers["mcp-session-id"]
    let data = ""; res.setEncoding("utf8"); res.on("data", (d) => { data += d }); res.on("end", () => resolve(data))
  })
  req.on("error", reject); req.end(JSON.stringify(body))
})
const result = (text) => { const line = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: {")).slice(6); return JSON.parse(line).result }
await post({ jsonrpc: "2.0", id: id++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "p", version: "1" } } })
await post({ jsonrpc: "2.0", method: "notifications/initialized" })
const call = (name, args) => post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } })
const stats = async () => JSON.parse(result(await call("stats", { gc: true })).content[0].text)
const s0 = await stats()
for (let i = 0; i < Number(W); i++) await call("echo", { text: "hello" })
const s1 = await stats()
for (let i = 0; i < Number(N); i++) await call("blob", { bytes: Number(B) })
const s2 = await stats()
const mib = (x) => (x / 1048576).toFixed(1)
console.log(`peak RSS: at start ${mib(s0.maxRss)}, after ${W} echo ${mib(s1.maxRss)}, after ${N} blobs ${mib(s2.maxRss)} MiB (rss after GC ${mib(s2.rss)}, heap ${mib(s2.heapUsed)})`)
child.kill(); process.exit(0)
