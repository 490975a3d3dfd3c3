// Bytes allocated per call by function, from sampled heap profiles (scripts/heapsample.mjs) of two runs that
// differ only in the number of calls: (long − short) / (nLong − nShort). node heapsamplediff.mjs short long calls [top]
// KEEPHASH=1 keeps the bundle chunks' hashes in the names (their line numbers are then those of one chunk)
import * as fs from "node:fs"
const [a, b, calls, top = "30"] = process.argv.slice(2)
const norm = (url) => url.replace(/.*node_modules\//, "").replace(/.*\/bench\/bundle-[^/]+\//, "").replace(/-([A-Z0-9]{8})\.js/, process.env.KEEPHASH === "1" ? "-$1.js" : ".js")
const load = (f) => {
  const self = new Map()
  const walk = (n) => {
    const k = `${n.callFrame.functionName || "(anon)"} ${norm(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
    self.set(k, (self.get(k) ?? 0) + n.selfSize)
    for (const c of n.children) walk(c)
  }
  walk(JSON.parse(fs.readFileSync(f, "utf8")).head)
  return self
}
const s = load(a), l = load(b)
let total = 0
const rows = []
for (const [k, v] of l) { const d = v - (s.get(k) ?? 0); total += d; rows.push([k, d]) }
for (const [k, v] of s) if (!l.has(k)) { total -= v; rows.push([k, -v]) }
console.log(`${(total / Number(calls)).toFixed(0)} bytes allocated per call`)
for (const [k, d] of rows.sort((x, y) => y[1] - x[1]).slice(0, Number(top))) console.log(`${(d / Number(calls)).toFixed(0).padStart(7)}  ${k}`)
