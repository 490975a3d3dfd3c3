// Instructions per call of an MCP server process, counted by callgrind (independent of machine load).
// The server runs under `valgrind --tool=callgrind`; a driver in this process connects, warms up, zeroes the
// counters (`callgrind_control -z`), makes N calls, dumps (`callgrind_control -d`) and prints Ir per call.
//
//   node cgserver.mjs [--driver official|raw] [--conc K] [--warm W] [--n N] [--sessions S] -- node server.js --http [--json] [--event-store]
//
// --driver official: @modelcontextprotocol/sdk's Client over StreamableHTTPClientTransport (its standing GET and all);
// --driver raw: node:http keep-alive POSTs, no GET stream; --driver raw2026: the same on the 2026-07-28 path.
// --sessions S: instead of calls, opens S sessions at once (initialize + initialized) and counts them (Ir per session).
// CG_OUT=dir keeps the callgrind files (callgrind_annotate them); CG_ARGS adds valgrind options.
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { createRequire } from "node:module"

const require = createRequire(new URL("../../packages/bench/package.json", import.meta.url))
const { Client } = require("@modelcontextprotocol/sdk/client/index.js")
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js")

const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const opts = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const opt = (name, dflt) => {
  const i = opts.indexOf(name)
  return i < 0 ? dflt : opts[i + 1]
}
const driverKind = opt("--driver", "official")
const conc = Number(opt("--conc", 1))
const warm = Number(opt("--warm", 3000))
const n = Number(opt("--n", 1000))
const sessions = Number(opt("--sessions", 0))

const outDir = process.env.CG_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), "cg-"))
fs.mkdirSync(outDir, { recursive: true })
const extra = (process.env.CG_ARGS ?? "").split(" ").filter((s) => s.length > 0)
// --tool strace: the server's system calls instead (strace -f), counted between two `stats` calls (their
// read of /proc/self/task/<pid>/schedstat marks the window): syscalls per call, by name
const tool = opt("--tool", "callgrind")
const child = tool === "none"
  ? spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "pipe"] })
  : tool === "strace"
  ? spawn("strace", ["-f", "-qq", "-o", `${outDir}/strace.out`, ...cmd], { stdio: ["pipe", "pipe", "pipe"], detached: true })
  : spawn("valgrind", [
    "--tool=callgrind",
    `--callgrind-out-file=${outDir}/callgrind.out.%p`,
    "--dump-instr=no",
    ...extra,
    ...cmd
  ], { stdio: ["pipe", "pipe", "pipe"] })
let stderr = ""
child.stderr.on("data", (d) => { stderr += d })
const port = await new Promise((resolve, reject) => {
  let b = ""
  child.stdout.on("data", (d) => {
    b += d
    const m = /LISTENING (\d+)/.exec(b)
    if (m) resolve(Number(m[1]))
  })
  child.on("exit", (code) => reject(new Error(`server exited ${code}: ${stderr.slice(-2000)}`)))
})
const url = `http://127.0.0.1:${port}/mcp`
const ECHO = { text: "hello, model context protocol" }

const officialSession = async () => {
  const client = new Client({ name: "cg-official", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(url))
  await client.connect(transport)
  return { call: () => client.callTool({ name: "echo", arguments: ECHO }, undefined, { timeout: 600_000 }), stats: () => client.callTool({ name: "stats", arguments: {} }), close: () => transport.terminateSession().catch(() => {}).then(() => client.close()) }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
const rawSession = async () => {
  let session
  let id = 0
  const post = (body) => new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) } }, (res) => {
      if (res.headers["mcp-session-id"]) session = res.headers["mcp-session-id"]
      let data = ""
      res.setEncoding("utf8")
      res.on("data", (d) => { data += d })
      res.on("end", () => resolve(data))
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })
  await post({ jsonrpc: "2.0", id: id++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })
  await post({ jsonrpc: "2.0", method: "notifications/initialized" })
  return { call: () => post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: ECHO } }), stats: () => post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "stats", arguments: {} } }), close: async () => {} }
}
// --driver raw2026: node:http keep-alive POSTs on the 2026-07-28 path: no session, the envelope in every
// request's _meta and the revision's headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name)
const raw2026Session = async () => {
  let id = 0
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw2026", version: "1" }
  }
  const post = (name, args) => new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name }
    const req = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers }, (res) => {
      let data = ""
      res.setEncoding("utf8")
      res.on("data", (d) => { data += d })
      res.on("end", () => resolve(data))
    })
    req.on("error", reject)
    req.end(JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args, _meta: meta } }))
  })
  return { call: () => post("echo", ECHO), stats: () => post("stats", {}), close: async () => {} }
}
const connect = driverKind === "official" ? officialSession : driverKind === "raw2026" ? raw2026Session : rawSession

const calls = async (s, count) => {
  let left = count
  await Promise.all(Array.from({ length: conc }, async () => { while (left-- > 0) await s.call() }))
}
const control = (flag) => execFileSync("callgrind_control", [flag, String(child.pid)], { stdio: ["ignore", "pipe", "pipe"] })
const totalOf = () => {
  // the last dump written by this pid (callgrind.out.<pid>.<k>)
  const files = fs.readdirSync(outDir).filter((f) => f.startsWith(`callgrind.out.${child.pid}.`))
  files.sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()))
  const text = fs.readFileSync(path.join(outDir, files.at(-1)), "utf8")
  const m = /^(?:summary|totals): (\d+)/m.exec(text)
  return Number(m[1])
}

let result
if (sessions > 0) {
  // warm the session path with a few rounds first
  for (let r = 0; r < 3; r++) {
    const ss = await Promise.all(Array.from({ length: Math.min(sessions, 100) }, () => connect()))
    await Promise.all(ss.map((s) => s.close()))
  }
  control("-z")
  const t0 = performance.now()
  const opened = await Promise.all(Array.from({ length: sessions }, () => connect()))
  const ms = performance.now() - t0
  control("-d")
  result = `${(totalOf() / sessions / 1e6).toFixed(3)} MIr per session opened (${sessions} at once, ${ms.toFixed(0)} ms under valgrind)`
  await Promise.all(opened.map((s) => s.close()))
} else if (tool === "none") {
  // plain CPU time of the server (its stats tool), for comparing with the same driver; --warm-conc K warms
  // up with K in flight first (as the bench's warm-up does: half sequential, half 64 in flight)
  const s = await connect()
  const warmConc = Number(opt("--warm-conc", 1))
  let left = warm
  await Promise.all(Array.from({ length: warmConc }, async () => { while (left-- > 0) await s.call() }))
  const cpu = async () => { const r = await s.stats(); const t = JSON.parse(r.content?.[0]?.text ?? JSON.parse(r.startsWith("{") ? r : r.split("\n").find((l) => l.startsWith("data: {")).slice(6)).result.content[0].text); return t.user + t.system }
  const c0 = await cpu()
  const t0 = performance.now()
  await calls(s, n)
  const t1 = performance.now()
  const c1 = await cpu()
  result = `${((c1 - c0) / n).toFixed(1)} µs server CPU per call, ${(n / (t1 - t0) * 1000).toFixed(0)} calls/s (${driverKind}, ${conc} in flight)`
  await s.close()
} else if (tool === "strace") {
  const s = await connect()
  await calls(s, warm)
  await s.stats()
  await calls(s, n)
  await s.stats()
  await new Promise((r) => setTimeout(r, 200))
  const lines = fs.readFileSync(`${outDir}/strace.out`, "utf8").split("\n")
  const marks = lines.flatMap((l, i) => (l.includes("schedstat") ? [i] : []))
  const counts = new Map()
  let total = 0
  for (const l of lines.slice(marks[0] + 1, marks[1])) {
    const m = /^\d+\s+(?:<\.\.\. )?(\w+)/.exec(l)
    if (m === null || l.includes("resumed>") && !l.includes("<... ")) continue
    if (l.includes("<unfinished ...>")) continue
    counts.set(m[1], (counts.get(m[1]) ?? 0) + 1)
    total++
  }
  result = `${(total / n).toFixed(2)} syscalls per call (${driverKind}, ${conc} in flight): ` +
    [...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / n).toFixed(2)}`).join(", ")
  await s.close()
} else {
  const s = await connect()
  await calls(s, warm)
  control("-z")
  await calls(s, n)
  control("-d")
  result = `${(totalOf() / n / 1e3).toFixed(1)} kIr per call (${driverKind}, ${conc} in flight, ${warm} warm-up, ${n} counted)`
  await s.close()
}
console.log(result)
agent.destroy()
if (tool === "strace") process.kill(-child.pid, "SIGKILL")
else if (tool === "none") { child.kill("SIGTERM"); await new Promise((r) => child.once("exit", r)) }
else {
  child.kill("SIGTERM")
  await new Promise((r) => child.once("exit", r))
}
if (process.env.CG_OUT === undefined) fs.rmSync(outDir, { recursive: true, force: true })
process.exit(0)
