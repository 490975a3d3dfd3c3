// Instructions per call on stdio, counted by callgrind (independent of machine load), one side at a time.
//
//   node cgstdio.mjs server [--warm W] [--n N] [--conc K] -- node --single-threaded server.js --stdio
//     the server under callgrind, driven by a hand-written NDJSON client in this process (the floor's client)
//   node cgstdio.mjs client ours|official|floor [--warm W] [--n N] [--conc K] -- node server.js --stdio
//     a client (out/cgclient.js, run with --single-threaded) under callgrind, against the server given
//     (the floor server, normally; it runs natively: valgrind does not trace children)
//
// Counters are zeroed after the warm-up (`callgrind_control -z`) and dumped after N calls (`-d`).
// CG_OUT=dir keeps the callgrind files (callgrind_annotate them); CG_ARGS adds valgrind options.
// REPEAT=k runs the measurement k times in the same process (after one warm-up) and prints each.
// NODE_ARGS adds node options to the client's command (e.g. --perf-basic-prof, for cgjit.py).
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as readline from "node:readline"

const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const opts = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const side = opts[0]
const opt = (name, dflt) => {
  const i = opts.indexOf(name)
  return i < 0 ? dflt : opts[i + 1]
}
const warm = Number(opt("--warm", 5000))
const n = Number(opt("--n", 2000))
const conc = Number(opt("--conc", 1))
const repeat = Number(process.env.REPEAT ?? 1)
const outDir = process.env.CG_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), "cgstdio-"))
fs.mkdirSync(outDir, { recursive: true })
const extra = (process.env.CG_ARGS ?? "").split(" ").filter((s) => s.length > 0)
const valgrind = (program) =>
  spawn("valgrind", ["--tool=callgrind", `--callgrind-out-file=${outDir}/callgrind.out.%p`, "--dump-instr=no", ...extra, ...program], {
    stdio: ["pipe", "pipe", "pipe"]
  })

let child
let stderr = ""
const control = (flag) => execFileSync("callgrind_control", [flag, String(child.pid)], { stdio: ["ignore", "pipe", "pipe"] })
const lastTotal = () => {
  const files = fs.readdirSync(outDir).filter((f) => f.startsWith(`callgrind.out.${child.pid}.`))
  files.sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()))
  const text = fs.readFileSync(path.join(outDir, files.at(-1)), "utf8")
  return Number(/^(?:summary|totals): (\d+)/m.exec(text)[1])
}
const report = (label) => console.log(`${label}: ${(lastTotal() / n / 1e3).toFixed(1)} kIr per call (${conc} in flight, ${warm} warm-up, ${n} counted)`)

if (side === "server") {
  child = valgrind(cmd)
  child.stderr.on("data", (d) => { stderr += d })
  child.on("exit", (code) => { if (code !== 0 && code !== null) console.error(`server exited ${code}: ${stderr.slice(-2000)}`) })
  let buf = ""
  const waiting = new Map()
  let id = 0
  child.stdout.setEncoding("utf8")
  child.stdout.on("data", (d) => {
    buf += d
    let i
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i)
      buf = buf.slice(i + 1)
      const m = JSON.parse(line)
      if (m.id !== undefined && waiting.has(m.id)) {
        const r = waiting.get(m.id)
        waiting.delete(m.id)
        r(m)
      }
    }
  })
  const call = (method, params) =>
    new Promise((r) => {
      const i = id++
      waiting.set(i, r)
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }) + "\n")
    })
  const echo = () => call("tools/call", { name: "echo", arguments: { text: "hello, model context protocol" } })
  const run = async (count) => {
    let left = count
    await Promise.all(Array.from({ length: conc }, async () => { while (left-- > 0) await echo() }))
  }
  await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cg", version: "1" } })
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
  await run(warm)
  for (let r = 0; r < repeat; r++) {
    control("-z")
    await run(n)
    control("-d")
    report("server")
  }
  child.stdin.end()
} else if (side === "client") {
  const impl = opts[1]
  const here = path.dirname(new URL(import.meta.url).pathname)
  child = valgrind(["node", "--single-threaded", ...(process.env.NODE_ARGS ?? "").split(" ").filter((s) => s.length > 0), path.join(here, process.env.CG_CLIENT ?? "out/cgclient.js"), impl, String(warm), String(n), String(conc), "--", ...cmd])
  child.stderr.on("data", (d) => { stderr += d })
  child.on("exit", (code) => { if (code !== 0 && code !== null) console.error(`client exited ${code}: ${stderr.slice(-2000)}`) })
  const lines = readline.createInterface({ input: child.stdout })
  const waiting = []
  lines.on("line", (l) => waiting.shift()?.(l))
  const next = () => new Promise((r) => waiting.push(r))
  if ((await next()) !== "READY") throw new Error("expected READY")
  control("-z")
  child.stdin.write("go\n")
  if ((await next()) !== "DONE") throw new Error("expected DONE")
  control("-d")
  report(`client ${impl}`)
  child.stdin.write("exit\n")
} else {
  console.error("usage: node cgstdio.mjs server|client ...")
  process.exit(2)
}
await new Promise((r) => child.once("exit", r))
if (process.env.CG_OUT === undefined) fs.rmSync(outDir, { recursive: true, force: true })
process.exit(0)
