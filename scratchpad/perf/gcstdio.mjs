// The collector's work per call of a stdio server: scavenges, mark-compacts, bytes promoted and
// bytes that survived in the young generation, per 10,000 calls, from `--trace-gc-nvp` (which V8
// prints on the server's stdout, between our NDJSON lines: lines that are not JSON are GC records).
// Load-independent enough (allocation drives the collector, not time), unlike CPU.
//
//   node gcstdio.mjs [--warm W] [--n N] [--conc K] [--repeat R] -- node server.js --stdio
//
// Windows of N calls after one warm-up of W; each window prints its counts. `--trace-gc-nvp` is added
// to the server's node flags. Echo calls as the bench's `calls` rows make them.
// SNAP=1: instead, two heap snapshots (`--heapsnapshot-signal=SIGUSR2`, written in the server's cwd):
// one idle after the warm-up, one taken with K calls in flight (diff them with heapdiff.mjs). SNAPMID=1:
// taken inside the server's work (snapmid.mjs), not between macrotasks.
import { spawn } from "node:child_process"

const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const opts = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const opt = (name, dflt) => {
  const i = opts.indexOf(name)
  return i < 0 ? dflt : Number(opts[i + 1])
}
const warm = opt("--warm", 10000)
const n = opt("--n", 10000)
const conc = opt("--conc", 64)
const repeat = opt("--repeat", 3)

const snap = process.env.SNAP === "1"
const mid = new URL("./snapmid.mjs", import.meta.url).pathname
const flags = snap ? (process.env.SNAPMID === "1" ? ["--import", mid] : ["--heapsnapshot-signal=SIGUSR2"]) : ["--trace-gc-nvp"]
const child = spawn(cmd[0], [...flags, ...cmd.slice(1)], { stdio: ["pipe", "pipe", "inherit"] })
let counting = false
const zero = () => ({ scavenge: 0, markCompact: 0, other: 0, promoted: 0, survived: 0, pause: 0, allocated: 0 })
let gc = zero()
const onGc = (line) => {
  if (process.env.ECHO === "1" && !line.includes("gc=")) console.error(line)
  if (!counting) return
  const kind = /\bgc=(\w+)/.exec(line)?.[1]
  const num = (key) => Number(new RegExp(`\\b${key}=([\\d.]+)`).exec(line)?.[1] ?? 0)
  if (kind === "s") gc.scavenge++
  else if (kind === "ms" || kind === "mc") gc.markCompact++
  else gc.other++
  gc.promoted += num("promoted")
  gc.survived += num("new_space_survived")
  gc.allocated += num("allocated")
}
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
    if (!line.startsWith("{")) {
      onGc(line)
      continue
    }
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
await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d", version: "1" } })
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
const echo = () => call("tools/call", { name: "echo", arguments: { text: "hello, model context protocol" } })
const run = async (count) => {
  let left = count
  await Promise.all(Array.from({ length: conc }, async () => {
    while (left-- > 0) await echo()
  }))
}
await run(warm)
if (snap) {
  const { setTimeout: sleep } = await import("node:timers/promises")
  child.kill(process.env.SNAPMID === "1" ? "SIGWINCH" : "SIGUSR2")
  // the snapshot is written before the next answer
  await echo()
  await sleep(500)
  let loaded = false
  const load = run(n)
  await sleep(300)
  child.kill("SIGUSR2")
  loaded = true
  await load
  await echo()
  console.log(`snapshots written (idle, then ${conc} in flight): ${loaded}`)
  child.stdin.end()
  child.kill()
  process.exit(0)
}
const per = (x) => (x * 10000) / n
for (let r = 0; r < repeat; r++) {
  gc = zero()
  counting = true
  await run(n)
  // the records of the window's last collections are printed before the next answer
  await echo()
  counting = false
  console.log(
    `window ${r + 1}: per 10k calls: ${per(gc.scavenge).toFixed(1)} scavenges, ${per(gc.markCompact).toFixed(2)} mark-compacts` +
      `, promoted ${(per(gc.promoted) / 1024).toFixed(0)} KiB, survived (young) ${(per(gc.survived) / 1024).toFixed(0)} KiB` +
      ` (${conc} in flight, ${n} counted)`
  )
}
// a server that ends with its stdin writes its exit-time profiles (heapsurvivors.mjs)
child.stdin.end()
const timer = setTimeout(() => child.kill(), 10000)
child.once("exit", () => clearTimeout(timer))
