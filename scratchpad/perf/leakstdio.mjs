// The bench's `leak` unit alone against a stdio server: warm-up 1000 (500 sequential, 500 at 64 in flight), then
// two halves of N/2 echo calls at 64 in flight, each reading the server's stats (gc) after 1 s idle, before and after.
// Prints RSS and heap growth over all N and over the second half (MiB), as the bench's metrics do.
// usage: node leakstdio.mjs [N] -- node --expose-gc [flags] server.js --stdio   (REPEAT=r: r runs in a row, one line each; WARM=w: warm-up calls, default 1000)
import { spawn } from "node:child_process"
import fs from "node:fs"
// SMAPS=1: the server's RSS by mapping kind at each reading, read from outside (/proc/PID/smaps), as spaces.mjs splits it
const smaps = (pid) => {
  const out = {}
  let cur
  for (const l of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(l)
    if (m) {
      const size = (parseInt(m[2], 16) - parseInt(m[1], 16)) / 1024
      cur = m[3] || (size === 256 ? "v8page" : size >= 60000 ? "arena" : `anon`)
      if (cur.startsWith("/")) cur = cur.split("/").pop()
      continue
    }
    const r = /^Rss:\s+(\d+) kB/.exec(l)
    if (r && cur) out[cur] = (out[cur] ?? 0) + Number(r[1]) / 1024
  }
  return out
}
const argv = process.argv.slice(2)
const n = Number(argv[0] === "--" ? 12000 : argv[0]); const cmd = argv.slice(argv.indexOf("--") + 1)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const ECHO = { name: "echo", arguments: { text: "hello, model context protocol" } }
const once = async () => {
  const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
  let buf = ""; const waiting = new Map(); let id = 0
  child.stdout.setEncoding("utf8")
  child.stdout.on("data", (d) => {
    buf += d; let i
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i); buf = buf.slice(i + 1)
      if (line[0] !== "{") continue
      const m = JSON.parse(line)
      if (m.id !== undefined && waiting.has(m.id)) { const r = waiting.get(m.id); waiting.delete(m.id); r(m) }
    }
  })
  const call = (method, params) => new Promise((r) => { const i = id++; waiting.set(i, r); child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }) + "\n") })
  const stats1 = async (gc) => JSON.parse((await call("tools/call", { name: "stats", arguments: { gc } })).result.content[0].text)
  // READ2=ms: a reading after a GC is taken again ms later, without one (V8 unmaps freed pages on a background thread
  // after the GC: memoryUsage() at once can still count them); prints how much the RSS fell meanwhile
  const lag = []
  const stats = async (gc) => {
    const s = await stats1(gc)
    if (!gc || !process.env.READ2) return s
    await sleep(Number(process.env.READ2)); const t = await stats1(false)
    lag.push(((s.rss - t.rss) / 1048576).toFixed(2))
    return t
  }
  const seq = async (k) => { for (let i = 0; i < k; i++) await call("tools/call", ECHO) }
  const conc = async (k, c) => { let left = k; await Promise.all(Array.from({ length: c }, async () => { while (left-- > 0) await call("tools/call", ECHO) })) }
  await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d", version: "1" } })
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
  await call("tools/call", ECHO)
  await stats(true); const warm = Number(process.env.WARM ?? 1000); await seq(warm / 2); await conc(warm / 2, 64); await stats(false)
  const halves = []
  for (let h = 0; h < 2; h++) {
    await sleep(1000); const before = await stats(true); const mb = smaps(child.pid)
    await conc(n / 2, 64)
    await sleep(1000); const after = await stats(true); const ma = smaps(child.pid)
    halves.push([before, after])
    if (process.env.SMAPS) {
      const d = Object.keys({ ...mb, ...ma }).map((k) => [k, (ma[k] ?? 0) - (mb[k] ?? 0)]).filter(([, v]) => Math.abs(v) >= 0.1)
      console.log(`  half ${h + 1}: ${d.map(([k, v]) => `${k} ${v >= 0 ? "+" : ""}${v.toFixed(2)}`).join(", ")}`)
    }
  }
  child.kill()
  const M = (x) => (x / 1048576).toFixed(2)
  const [[b0], [b1, a1]] = halves
  if (lag.length > 0) console.log(`  RSS fallen after each GC's reading (MiB): ${lag.join(" ")}`)
  console.log(`rss +${M(a1.rss - b0.rss)} (second +${M(a1.rss - b1.rss)}) heap +${M(a1.heapUsed - b0.heapUsed)} (second +${M(a1.heapUsed - b1.heapUsed)}) MiB; rss before ${M(b0.rss)} after ${M(a1.rss)}`)
}
for (let r = 0; r < Number(process.env.REPEAT ?? 1); r++) await once()
