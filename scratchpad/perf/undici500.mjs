// 500 sessions opened with bare undici: initialize, initialized, standing GET held; DEFER=1 dispatches each
// follow-up request after a setImmediate (undici frees a kept-alive socket only a loop turn after its response)
// undici is loaded by an absolute pnpm path: adjust it
import { Agent } from "../../node_modules/.pnpm/undici@7.30.2/node_modules/undici/index.js"
import dc from "node:diagnostics_channel"
import { readFileSync } from "node:fs"
let conns = 0
dc.subscribe("undici:client:connected", () => conns++)
const [port, S, spid] = process.argv.slice(2)
const defer = process.env.DEFER === "1"
const agent = new Agent()
const origin = "http://127.0.0.1:" + port
const req = (method, body, sid) => new Promise((resolve, reject) => {
  const headers = { "content-type": "application/json", accept: method === "GET" ? "text/event-stream" : "application/json, text/event-stream" }
  if (sid) headers["mcp-session-id"] = sid
  if (sid) headers["mcp-protocol-version"] = "2025-11-25"
  const go = () => agent.request({ method, origin, path: "/mcp", headers, body }, (err, data) => err ? reject(err) : resolve(data))
  if (defer && sid) setImmediate(go); else go()
})
const read = (body) => new Promise((resolve) => { let t = ""; body.setEncoding("utf8"); body.on("data", (c) => t += c); body.on("end", () => resolve(t)) })
const open = async () => {
  const a = await req("POST", JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }))
  await read(a.body)
  const sid = a.headers["mcp-session-id"]
  const b = await req("POST", JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), sid)
  await read(b.body)
  const g = await req("GET", null, sid)
  return g
}
const scpu = () => { const f = readFileSync("/proc/" + spid + "/stat", "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10000 }
const s0 = scpu(), c0 = process.cpuUsage()
await Promise.all(Array.from({ length: Number(S) }, open))
await new Promise((r) => setTimeout(r, 200))
const c1 = process.cpuUsage(c0)
console.log(`defer=${defer} conns=${conns} client ${((c1.user + c1.system) / S).toFixed(0)} µs/session server ${((scpu() - s0) / S).toFixed(0)} µs/session`)
process.exit(0)
