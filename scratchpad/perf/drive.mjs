// Drives a stdio MCP server with a hand-written client: N sequential echo calls
// (or 64 in flight with CONC=64), reports the server's CPU per call from its stats tool.
// usage: node drive.mjs N -- node server.js --stdio
import { spawn } from "node:child_process"
const argv = process.argv.slice(2)
const n = Number(argv[0]); const cmd = argv.slice(argv.indexOf("--") + 1)
const conc = Number(process.env.CONC ?? 1)
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
let buf = ""; const waiting = new Map(); let id = 0
child.stdout.setEncoding("utf8")
child.stdout.on("data", (d) => {
  buf += d; let i
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1)
    const m = JSON.parse(line)
    if (m.id !== undefined && waiting.has(m.id)) { const r = waiting.get(m.id); waiting.delete(m.id); r(m) }
  }
})
const call = (method, params) => new Promise((r) => { const i = id++; waiting.set(i, r); child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }) + "\n") })
const notify = (method) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n")
const stats = async () => JSON.parse((await call("tools/call", { name: "stats", arguments: { gc: false } })).result.content[0].text)
await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d", version: "1" } })
notify("notifications/initialized")
const run = async (count) => {
  if (conc === 1) { for (let i = 0; i < count; i++) await call("tools/call", { name: "echo", arguments: { text: "hello, model context protocol" } }) }
  else { let left = count; await Promise.all(Array.from({ length: conc }, async () => { while (left-- > 0) await call("tools/call", { name: "echo", arguments: { text: "hello, model context protocol" } }) })) }
}
await run(Number(process.env.WARM ?? 5000))
const s0 = await stats(); const c0 = process.cpuUsage(); const t0 = performance.now()
await run(n)
const t1 = performance.now(); const c1 = process.cpuUsage(c0); const s1 = await stats()
const server = (s1.user + s1.system - s0.user - s0.system) / n
console.log(`${(n / (t1 - t0) * 1000).toFixed(0)} calls/s, server ${server.toFixed(1)} µs/call, driver ${((c1.user + c1.system) / n).toFixed(1)} µs/call, server main ${((s1.mainThread - s0.mainThread) / n).toFixed(1)}`)
// END=1: end the server's stdin instead (a server that exits with it writes its exit-time profiles)
if (process.env.END === "1") child.stdin.end()
else child.kill()
