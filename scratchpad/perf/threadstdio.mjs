// A stdio client's CPU per call by thread, its system calls per call, and its GC events per call, natively
// (no valgrind), in the window out/cgclient.js marks (READY .. DONE, after its warm-up).
//
//   node threadstdio.mjs ours|official|floor [--warm W] [--n N] [--conc K] [--tool threads|strace|gc] -- node serverFloor.js --stdio
//
// threads (default): µs per call by thread name (/proc/PID/task/*/schedstat: run time; stat: user/system ticks),
//   threads of one name summed (V8's "node" main, "V8 DefaultWorke" platform workers: concurrent marking, parallel
//   scavenge, the compiler; "libuv-worker"; "node" inspector ...); also voluntary/involuntary context switches
// strace: `strace -f -c -p PID` (STRACE_LOG=file: every call logged there instead) attached for the window (the client's threads only; the server is not traced):
//   system calls per call by name (strace's own overhead makes CPU meaningless in this mode)
// gc: the client run with --trace-gc; scavenges and mark-compacts in the window, per 1,000 calls
// jit: the client run with --trace-opt --trace-deopt; optimizations and deoptimizations in the window, by function
// NODE_ARGS adds node options; CG_CLIENT picks another build of cgclient.js (as cgstdio.mjs).
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as readline from "node:readline"

const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const opts = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const impl = opts[0]
const opt = (name, dflt) => {
  const i = opts.indexOf(name)
  return i < 0 ? dflt : opts[i + 1]
}
const warm = Number(opt("--warm", 10000))
const n = Number(opt("--n", 20000))
const conc = Number(opt("--conc", 1))
const tool = opt("--tool", "threads")
const here = path.dirname(new URL(import.meta.url).pathname)
const nodeArgs = [...(tool === "gc" ? ["--trace-gc"] : tool === "jit" ? ["--trace-opt", "--trace-deopt"] : []), ...(process.env.NODE_ARGS ?? "").split(" ").filter((s) => s.length > 0)]
const child = spawn("node", [...nodeArgs, path.join(here, process.env.CG_CLIENT ?? "out/cgclient.js"), impl, String(warm), String(n), String(conc), "--", ...cmd], { stdio: ["pipe", "pipe", "inherit"] })

const snapshot = () => {
  const out = new Map()
  for (const tid of fs.readdirSync(`/proc/${child.pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${child.pid}/task/${tid}/stat`, "utf8")
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      const run = Number(fs.readFileSync(`/proc/${child.pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1000
      const status = fs.readFileSync(`/proc/${child.pid}/task/${tid}/status`, "utf8")
      const sw = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)[1])
      out.set(tid, { comm, run, utime: Number(f[11]) * 10000, stime: Number(f[12]) * 10000, vol: sw("voluntary_ctxt_switches"), invol: sw("nonvoluntary_ctxt_switches") })
    } catch { /* a thread gone */ }
  }
  return out
}

const lines = readline.createInterface({ input: child.stdout })
const waiting = []
let gc = null
let jit = null
lines.on("line", (l) => {
  if (l === "READY" || l === "DONE") return waiting.shift()?.(l)
  if (jit !== null) {
    const opt = /^\[completed compiling 0x[0-9a-f]+ <JSFunction ([^ >]*)/.exec(l)
    const de = /^\[bailout \(kind: ([^,]+), reason: ([^)]*)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ([^ >]*)/.exec(l)
    if (opt) {
      jit.opt++
      const name = opt[1] === "" || opt[1].startsWith("(") ? "(anonymous)" : opt[1]
      jit.optBy.set(name, (jit.optBy.get(name) ?? 0) + 1)
    } else if (de) {
      jit.deopt++
      const key = `${de[3] === "" || de[3].startsWith("(") ? "(anonymous)" : de[3]}: ${de[2]} (${de[1]})`
      jit.deBy.set(key, (jit.deBy.get(key) ?? 0) + 1)
    }
  }
  if (gc !== null) {
    if (/Scavenge/.test(l)) gc.scavenge++
    else if (/Mark-Compact|Mark-sweep/i.test(l)) gc.markCompact++
    else if (/Minor/.test(l)) gc.minor++
  }
})
const next = () => new Promise((r) => waiting.push(r))
if ((await next()) !== "READY") throw new Error("expected READY")

let strace
let before
if (tool === "strace") {
  strace = spawn("strace", [...(process.env.STRACE_LOG ? ["-o", process.env.STRACE_LOG] : ["-c"]), "-f", "-p", String(child.pid)], { stdio: ["ignore", "inherit", "pipe"] })
  let err = ""
  strace.stderr.on("data", (d) => { err += d })
  strace.done = new Promise((r) => strace.once("exit", () => r(err)))
  await new Promise((r) => setTimeout(r, 1500)) // strace attaches to every thread
} else if (tool === "gc") gc = { scavenge: 0, markCompact: 0, minor: 0 }
else if (tool === "jit") jit = { opt: 0, deopt: 0, optBy: new Map(), deBy: new Map() }
else before = snapshot()
child.stdin.write("go\n")
if ((await next()) !== "DONE") throw new Error("expected DONE")

if (tool === "strace") {
  strace.kill("SIGINT")
  const text = await strace.done
  console.log(`client ${impl}: system calls per call (${n} calls, ${conc} in flight)`)
  for (const line of text.split("\n")) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(\d+\s+)?(\w+)\s*$/.exec(line)
    if (m && m[3] !== "total") console.log(`  ${m[3].padEnd(18)} ${(Number(m[1]) / n).toFixed(3)}${m[2] ? `  (errors ${(Number(m[2]) / n).toFixed(3)})` : ""}`)
    else if (/total/.test(line)) console.log(`  total ${(Number(line.trim().split(/\s+/)[3]) / n).toFixed(3)}`)
  }
} else if (tool === "jit") {
  console.log(`client ${impl}: in the window (${n} calls): ${jit.opt} optimizations, ${jit.deopt} deoptimizations`)
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 15))
  for (const [k, c] of top(jit.optBy)) console.log(`  opt   ${String(c).padStart(4)}  ${k}`)
  for (const [k, c] of top(jit.deBy)) console.log(`  deopt ${String(c).padStart(4)}  ${k}`)
} else if (tool === "gc") {
  console.log(`client ${impl}: per 1,000 calls: scavenges ${(gc.scavenge * 1000 / n).toFixed(2)}, mark-compacts ${(gc.markCompact * 1000 / n).toFixed(3)}, minor-ms ${(gc.minor * 1000 / n).toFixed(2)}`)
} else {
  const after = snapshot()
  const by = new Map()
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { run: 0, utime: 0, stime: 0, vol: 0, invol: 0 }
    const k = tid === String(child.pid) ? "main" : a.comm
    const s = by.get(k) ?? { threads: 0, run: 0, utime: 0, stime: 0, vol: 0, invol: 0 }
    s.threads++
    for (const f of ["run", "utime", "stime", "vol", "invol"]) s[f] += a[f] - b[f]
    by.set(k, s)
  }
  let total = 0
  console.log(`client ${impl}: per call (${n} calls, ${conc} in flight): µs run (schedstat), user/system (ticks), context switches voluntary/involuntary`)
  for (const [k, s] of [...by].sort((x, y) => y[1].run - x[1].run)) {
    total += s.run
    console.log(`  ${k.padEnd(16)} x${s.threads}  run ${(s.run / n).toFixed(1).padStart(6)}  user ${(s.utime / n).toFixed(1).padStart(6)}  sys ${(s.stime / n).toFixed(1).padStart(6)}  cs ${(s.vol / n).toFixed(2)}/${(s.invol / n).toFixed(2)}`)
  }
  console.log(`  total            run ${(total / n).toFixed(1).padStart(6)}`)
}
child.stdin.write("exit\n")
await new Promise((r) => child.once("exit", r))
process.exit(0)
