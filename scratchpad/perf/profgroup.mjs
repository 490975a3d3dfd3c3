// Self samples of a .cpuprofile grouped by where the code lives (effect, @effect/platform, node:* by module, our bundle,
// native: the collector, writev, …), and the inclusive share of each of our bundle's functions on the stack; counted, not
// weighted by time deltas (see profcount.mjs). node profgroup.mjs file.cpuprofile calls
import * as fs from "node:fs"
const [file, calls] = process.argv.slice(2)
const p = JSON.parse(fs.readFileSync(file, "utf8"))
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const g = new Map(); const incl = new Map()
let busy = 0
for (const s of p.samples) {
  const n = byId.get(s); const f = n.callFrame
  if (f.functionName === "(idle)") continue
  busy++
  const u = f.url
  const k = u === "" ? `native ${f.functionName}` : u.includes("effect/dist") && !u.includes("@effect/platform") ? "effect" : u.includes("@effect/platform") ? "platform" : u.startsWith("node:") ? "node " + u.replace(/^node:(internal\/)?/, "").split("/")[0] : u.includes("bundle") ? "ours" : u
  g.set(k, (g.get(k) ?? 0) + 1)
  // inclusive by our bundle function names on the stack
  const seen = new Set()
  let id = s
  while (id !== undefined) { const m = byId.get(id); const cf = m.callFrame; if (cf.url.includes("bundle")) { const key = cf.functionName || "(anon):" + cf.lineNumber; if (!seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + 1) } } id = parent.get(id) }
}
console.log("busy", busy, "per call", (busy / calls).toFixed(3))
for (const [k, v] of [...g].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / busy * 100).toFixed(1).padStart(5) + "%", k)
console.log("--- inclusive, our functions")
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / busy * 100).toFixed(1).padStart(5) + "%", k)
