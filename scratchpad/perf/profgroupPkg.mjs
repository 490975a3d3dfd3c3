// Self samples of a .cpuprofile grouped by where the code lives (GC, program/compiler, node internals,
// undici, effect, our bundle, ...), counted not time-weighted: node profgroup.mjs file.cpuprofile [per] [top]
import * as fs from "node:fs"
const [file, per = "1", top = "25"] = process.argv.slice(2)
const p = JSON.parse(fs.readFileSync(file, "utf8"))
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const groups = new Map(), fns = new Map()
let busy = 0
const group = (f) => {
  const u = f.url
  if (f.functionName === "(garbage collector)") return "gc"
  if (f.functionName === "(program)") return "program (compiler, runtime, native)"
  if (u === "") return `native ${f.functionName}`
  if (u.startsWith("node:")) return "node:" + u.slice(5).split("/")[0]
  const m = u.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/)
  if (m) return m[1]
  return u.replace(/.*\//, "")
}
for (const s of p.samples) {
  const f = byId.get(s).callFrame
  if (f.functionName === "(idle)") continue
  busy++
  const g = group(f)
  groups.set(g, (groups.get(g) ?? 0) + 1)
  const k = `${f.functionName || "(anon)"} ${f.url.replace(/.*node_modules\//, "").replace(/.*\//, "")}:${f.lineNumber + 1}`
  fns.set(k, (fns.get(k) ?? 0) + 1)
}
console.log(`${busy} busy samples; per unit ${(busy / Number(per)).toFixed(2)}`)
for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${(v / busy * 100).toFixed(1).padStart(5)}%  ${k}`)
console.log("--")
for (const [k, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) console.log(`${(v / busy * 100).toFixed(1).padStart(5)}%  ${k}`)
