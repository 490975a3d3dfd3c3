/**
 * Summarizes a `.cpuprofile`: self time by function and by file, and
 * inclusive time by function.
 *
 *   node scripts/topprof.mjs profiles/ours-stdio-server.cpuprofile [top=25] [filter]
 */
import * as fs from "node:fs"

const [file, topArg, filter] = process.argv.slice(2)
const top = Number(topArg ?? 25)
const profile = JSON.parse(fs.readFileSync(file, "utf8"))
const nodes = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const self = new Map()
let total = 0
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt)
  total += dt
}
const short = (url) => url.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "").replace(/^file:\/\/\/work\/main\//, "")
const keyOf = (n) => `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
const byFn = new Map()
const byFile = new Map()
const inclusive = new Map()
for (const [id, t] of self) {
  const n = nodes.get(id)
  byFn.set(keyOf(n), (byFn.get(keyOf(n)) ?? 0) + t)
  const f = short(n.callFrame.url) || `(${n.callFrame.functionName})`
  byFile.set(f, (byFile.get(f) ?? 0) + t)
  // inclusive: every distinct function on the stack
  const seen = new Set()
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(nodes.get(cur))
    if (seen.has(k)) continue
    seen.add(k)
    inclusive.set(k, (inclusive.get(k) ?? 0) + t)
  }
}
const show = (title, map) => {
  console.log(`\n${title}`)
  const rows = [...map].filter(([k]) => filter === undefined || k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, top)
  for (const [k, t] of rows) console.log(`${((t / total) * 100).toFixed(1).padStart(5)}%  ${(t / 1000).toFixed(0).padStart(6)} ms  ${k}`)
}
console.log(`total ${(total / 1000).toFixed(0)} ms`)
show("self by file", byFile)
show("self by function", byFn)
show("inclusive by function", inclusive)
