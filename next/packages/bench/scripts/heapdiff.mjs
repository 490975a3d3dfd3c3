/**
 * Diffs two heap snapshots: object count and self size by (type, name), after − before.
 *
 *   node scripts/heapdiff.mjs before.heapsnapshot after.heapsnapshot [rows=30]
 *
 * With `BENCH_SNAPSHOT=/tmp/s` in a client's environment, the sessions phase asks
 * our server (its `stats` tool) for `/tmp/s-before.heapsnapshot` and
 * `/tmp/s-after.heapsnapshot` around opening the sessions.
 */
import * as fs from "node:fs"
const load = (f) => {
  const snap = JSON.parse(fs.readFileSync(f, "utf8"))
  const { node_fields, node_types } = snap.snapshot.meta
  const types = node_types[0]
  const nf = node_fields.length
  const iType = node_fields.indexOf("type"), iName = node_fields.indexOf("name"), iSize = node_fields.indexOf("self_size")
  const out = new Map()
  const nodes = snap.nodes
  for (let i = 0; i < nodes.length; i += nf) {
    const type = types[nodes[i + iType]]
    let name = snap.strings[nodes[i + iName]]
    if (type === "string" || type === "concatenated string" || type === "sliced string") name = "(string)"
    if (type === "code") name = "(code)"
    if (type === "number") name = "(number)"
    const k = `${type} ${name.slice(0, 60)}`
    const e = out.get(k) ?? { n: 0, size: 0 }
    e.n++; e.size += nodes[i + iSize]
    out.set(k, e)
  }
  return out
}
const [a, b, n = "30"] = process.argv.slice(2)
const before = load(a), after = load(b)
const rows = []
let total = 0
for (const [k, e] of after) {
  const p = before.get(k) ?? { n: 0, size: 0 }
  rows.push([k, e.n - p.n, e.size - p.size]); total += e.size - p.size
}
for (const [k, p] of before) if (!after.has(k)) { rows.push([k, -p.n, -p.size]); total -= p.size }
console.log(`total self size growth ${(total / 1024).toFixed(0)} KiB`)
for (const [k, dn, ds] of rows.sort((x, y) => y[2] - x[2]).slice(0, Number(n))) console.log(`${(ds / 1024).toFixed(0).padStart(7)} KiB ${String(dn).padStart(7)}  ${k}`)
