// The Redis configuration of the bench, probed per instance: K instances of `packages/bench/bundle/serverRedis.js`
// (as `BENCH_ONLY=redis` starts them), driven by raw node:http POSTs of one 2025 session round-robin over the
// instances (no proxy: its cost is not the server's), after the session's standing GET (as our client opens it).
//
//   node redisprobe.mjs [--backend redis|memory] [--instances K] [--json] [--warm W] [--n N] [--idle S]
//                       [--cg] [--prof DIR] [--no-get]
//
// Prints, for the measured window (N calls after W warm-up calls per instance): each instance's CPU and Redis
// commands per call (of all N calls, as the bench divides), their sum; `--idle S`: each instance's CPU per second
// while no call comes (the background work: heartbeats, sweeps); `--cg`: instance 0 under valgrind's callgrind
// (`--single-threaded`), its instructions per call of the window (zeroed after the warm-up, dumped after it);
// `--prof DIR`: instance 0 with `--cpu-prof` into DIR (count samples with profcount.mjs, N calls). Under valgrind
// the SSE fast-path window is raised (BENCH_SSE_FAST_PATH_MS=60000), as cgserver.mjs does.
import { execFileSync, fork } from "node:child_process"
import * as fs from "node:fs"
import http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const argv = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = argv.indexOf(name)
  return i < 0 ? dflt : argv[i + 1]
}
const flag = (name) => argv.includes(name)
const backend = opt("--backend", "redis")
const k = Number(opt("--instances", 1))
const json = flag("--json")
const warm = Number(opt("--warm", 5000))
const n = Number(opt("--n", 3000))
const idle = Number(opt("--idle", 0))
const cg = flag("--cg")
const prof = opt("--prof", undefined)
// --heap OUT: instance 0 under packages/bench/scripts/heapsample.mjs (OUT-<pid>.heapprofile; two runs with
// different --n give bytes allocated per call with heapsamplediff.mjs)
const heap = opt("--heap", undefined)
const get = !flag("--no-get")
// --pinned: a session per instance, each call in the session of the instance it goes to (the control: what
// spreading sequential calls over K processes costs with no session shared, e.g. with --backend memory)
const pinned = flag("--pinned")
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"
const bundle = opt("--bundle", fileURLToPath(new URL("../../packages/bench/bundle/serverRedis.js", import.meta.url)))
const prefix = `mcp-probe-${Math.random().toString(16).slice(2, 10)}`
const outDir = process.env.CG_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), "cgr-"))
fs.mkdirSync(outDir, { recursive: true })

const start = (i) =>
  new Promise((resolve, reject) => {
    const args = [...(backend === "redis" ? ["redis", REDIS_URL, prefix, `p${i}`] : ["memory"]), ...(json ? ["--json"] : [])]
    const options = { stdio: ["ignore", "pipe", "inherit", "ipc"], env: { ...process.env } }
    if (i === 0 && cg) {
      options.execPath = "valgrind"
      options.execArgv = ["--tool=callgrind", `--callgrind-out-file=${outDir}/callgrind.out.%p`, "--dump-instr=no", process.execPath, "--single-threaded"]
      options.env.BENCH_SSE_FAST_PATH_MS = "60000"
      options.env.BENCH_REDIS_TIMEOUT_MS = "60000"
    } else if (i === 0 && heap !== undefined) {
      options.execArgv = ["--import", fileURLToPath(new URL("../../packages/bench/scripts/heapsample.mjs", import.meta.url))]
      options.env.HEAPSAMPLE_OUT = heap
    } else if (i === 0 && prof !== undefined) {
      options.execArgv = ["--cpu-prof", `--cpu-prof-dir=${prof}`]
    }
    const child = fork(bundle, args, options)
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const m = /LISTENING (\d+)/.exec(out)
      if (m !== null) resolve({ child, port: Number(m[1]) })
    })
    child.once("exit", (code) => reject(new Error(`instance ${i} exited (${code})`)))
  })
const stats = (inst) =>
  new Promise((resolve) => {
    inst.child.once("message", resolve)
    inst.child.send("stats")
  })

const instances = []
// a failed run (a 503, an instance that exited) leaves no instance behind
process.on("exit", () => { for (const inst of instances) if (inst.child.exitCode === null) inst.child.kill("SIGKILL") })
for (let i = 0; i < k; i++) instances.push(await start(i))
const agents = instances.map(() => new http.Agent({ keepAlive: true, maxSockets: 4 }))
let next = 0
const sessions = []
let id = 0
const headers = (session) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {})
})
const post = (body) =>
  new Promise((resolve, reject) => {
    const i = next++ % k
    const slot = pinned ? i : 0
    const req = http.request({ host: "127.0.0.1", port: instances[i].port, path: "/mcp", method: "POST", agent: agents[i], headers: headers(sessions[slot]) }, (res) => {
      if (res.headers["mcp-session-id"]) sessions[slot] = res.headers["mcp-session-id"]
      let data = ""
      res.setEncoding("utf8")
      res.on("data", (d) => { data += d })
      res.on("end", () => (res.statusCode >= 400 ? reject(new Error(`${res.statusCode} ${data}`)) : resolve(data)))
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })
const standings = []
for (let s = 0; s < (pinned ? k : 1); s++) {
  if (pinned) next = s
  await post({ jsonrpc: "2.0", id: id++, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "probe", version: "1" } } })
  if (pinned) next = s
  await post({ jsonrpc: "2.0", method: "notifications/initialized" })
  if (get) {
    const i = pinned ? s : next++ % k
    const standing = http.request({ host: "127.0.0.1", port: instances[i].port, path: "/mcp", method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": sessions[pinned ? s : 0], "mcp-protocol-version": "2025-11-25" } })
    standing.on("response", (res) => res.resume())
    standing.on("error", () => {})
    standing.end()
    standings.push(standing)
  }
}
next = 0
const ECHO = { text: "hello, model context protocol" }
const calls = async (count) => {
  for (let c = 0; c < count; c++) await post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: ECHO } })
}
const control = (f) => execFileSync("callgrind_control", [f, String(instances[0].child.pid)], { stdio: ["ignore", "pipe", "pipe"] })
const lastTotal = () => {
  const pid = instances[0].child.pid
  const files = fs.readdirSync(outDir).filter((f) => f.startsWith(`callgrind.out.${pid}.`))
  files.sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()))
  return { file: path.join(outDir, files.at(-1)), ir: Number(/^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(path.join(outDir, files.at(-1)), "utf8"))[1]) }
}

await calls(warm * k)
const s0 = await Promise.all(instances.map(stats))
if (cg) control("-z")
const t0 = performance.now()
await calls(n)
const ms = performance.now() - t0
if (cg) control("-d")
const s1 = await Promise.all(instances.map(stats))
const per = (f) => instances.map((_, i) => (f(s1[i]) - f(s0[i])) / n)
const cpu = per((s) => s.cpuUs)
const cmds = per((s) => s.commands)
const user = per((s) => s.userUs)
const sum = (a) => a.reduce((x, y) => x + y, 0)
console.log(`${backend}, ${k} instance(s)${pinned ? " pinned" : ""}, ${json ? "JSON" : "SSE"}: ${n} calls after ${warm}/instance, ${(n / ms * 1000).toFixed(0)} calls/s`)
console.log(`  CPU µs/call: ${cpu.map((c) => c.toFixed(1)).join(" + ")} = ${sum(cpu).toFixed(1)} (user ${sum(user).toFixed(1)}); Redis commands/call ${sum(cmds).toFixed(2)}`)
if (cg) {
  const { file, ir } = lastTotal()
  console.log(`  instance 0 (callgrind): ${(ir / n / 1e3).toFixed(1)} kIr per call of the window, ${(ir / (n / k) / 1e3).toFixed(1)} per call it served  [${file}]`)
}
if (idle > 0) {
  const i0 = await Promise.all(instances.map(stats))
  await new Promise((r) => setTimeout(r, idle * 1000))
  const i1 = await Promise.all(instances.map(stats))
  console.log(`  idle CPU µs/s: ${instances.map((_, i) => ((i1[i].cpuUs - i0[i].cpuUs) / idle).toFixed(0)).join(", ")}`)
}
for (const s of standings) s.destroy()
for (const a of agents) a.destroy()
for (const inst of instances) inst.child.kill("SIGTERM")
await Promise.all(instances.map((inst) => new Promise((r) => (inst.child.exitCode !== null ? r() : inst.child.once("exit", r)))))
if (process.env.CG_OUT === undefined && !cg) fs.rmSync(outDir, { recursive: true, force: true })
process.exit(0)
