// Self samples by function of a .cpuprofile, counted (not weighted by time deltas, which a loaded machine
// inflates for whatever ran when the thread was descheduled), per call: node profcount.mjs file calls [top]
import * as fs from "node:fs"
const [file, calls, top = "40"] = process.argv.slice(2)
const p = JSON.parse(fs.readFileSync(file, "utf8"))
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const counts = new Map()
let busy = 0
for (const s of p.samples) {
  const n = byId.get(s)
  const f = n.callFrame
  const k = `${f.functionName || "(anon)"} ${f.url.replace(/.*node_modules\//, "").replace(/.*\/bench\//, "")}:${f.lineNumber + 1}`
  if (f.functionName === "(idle)") continue
  busy++
  counts.set(k, (counts.get(k) ?? 0) + 1)
}
const interval = (p.endTime - p.startTime) / p.samples.length
console.log(`${busy} busy samples (${p.samples.length} total, ~${interval.toFixed(0)} µs apart); per call: ${(busy / Number(calls)).toFixed(3)}`)
for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${(v / busy * 100).toFixed(1).padStart(5)}%  ${k}`)
