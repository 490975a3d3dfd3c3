// Drives a streamable HTTP MCP server (spawned: prints its port in a line with "port") with node:http keep-alive.
// usage: node drivehttp.mjs N -- node server.js --port 0 [--json-response]
import { spawn } from "node:child_process"
import http from "node:http"
const argv = process.argv.slice(2)
const n = Number(argv[0]); const cmd = argv.slice(argv.indexOf("--") + 1)
const conc = Number(process.env.CONC ?? 1)
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
const port = await new Promise((r) => { let b = ""; child.stdout.on("data", (d) => { b += d; const m = /LISTENING (\d+)/.exec(b); if (m) r(Number(m[1])) }) })
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
let session; let id = 0
const post = (body) => new Promise((resolve, reject) => {
  const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) } }, (res) => {
    if (res.headers["mcp-session-id"]) session = res.headers["mcp-session-id"]
    let data = ""; res.setEncoding("utf8"); res.on("data", (d) => data += d); res.on("end", () => {
      if (res.statusCode === 202) return resolve(undefined)
      const json = res.headers["content-type"]?.includes("event-stream") ? data.split("\n").filter((l) => l.startsWith("data: ") && l.length > 7).map((l) => JSON.parse(l.slice(6))).pop() : JSON.parse(data)
      resolve(json)
    })
  }); req.on("error", reject); req.end(JSON.stringify(body))
})
const call = (method, params) => post({ jsonrpc: "2.0", id: id++, method, params })
const stats = async () => JSON.parse((await call("tools/call", { name: "stats", arguments: { gc: false } })).result.content[0].text)
await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d", version: "1" } })
await post({ jsonrpc: "2.0", method: "notifications/initialized" })
// latencies of the measured calls (ms): p50/p90/p99/max and a histogram printed at the end
let lat = []
const run = async (count) => {
  let left = count
  await Promise.all(Array.from({ length: conc }, async () => {
    while (left-- > 0) {
      const t = performance.now()
      await call("tools/call", { name: "echo", arguments: { text: "hello, model context protocol" } })
      lat.push(performance.now() - t)
    }
  }))
}
await run(Number(process.env.WARM ?? 3000))
lat = []
const s0 = await stats(); const c0 = process.cpuUsage(); const t0 = performance.now()
await run(n)
const t1 = performance.now(); const c1 = process.cpuUsage(c0); const s1 = await stats()
console.log(`${(n / (t1 - t0) * 1000).toFixed(0)} calls/s, server ${((s1.user + s1.system - s0.user - s0.system) / n).toFixed(1)} µs/call, driver ${((c1.user + c1.system) / n).toFixed(1)} µs/call`)
lat.sort((a, b) => a - b)
const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(3)
const edges = [0.1, 0.2, 0.3, 0.5, 1, 1.5, 2, 3, 5, 10, 20, 50, Infinity]
const hist = edges.map((e, i) => `<${e}:${lat.filter((x) => x < e && x >= (edges[i - 1] ?? 0)).length}`).join(" ")
console.log(`latency ms p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${lat[lat.length - 1].toFixed(3)}; ${hist}`)
child.kill(); agent.destroy()
