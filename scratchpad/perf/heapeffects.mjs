// Diffs two heap snapshots' EffectPrimitive objects by their _op and what their first instruction is (a
// closure's location, or an object's constructor): which effects a session keeps. node heapeffects.mjs before after [per]
import * as fs from "node:fs"
const load = (f) => {
  const snap = JSON.parse(fs.readFileSync(f, "utf8"))
  const { node_fields, edge_fields, edge_types, location_fields } = snap.snapshot.meta
  const nf = node_fields.length, ef = edge_fields.length, lf = location_fields.length
  const iType = node_fields.indexOf("type"), iName = node_fields.indexOf("name"), iEdges = node_fields.indexOf("edge_count")
  const eType = edge_fields.indexOf("type"), eName = edge_fields.indexOf("name_or_index"), eTo = edge_fields.indexOf("to_node")
  const types = snap.snapshot.meta.node_types[0], etypes = edge_types[0]
  const { nodes, edges, strings } = snap
  const first = new Int32Array(nodes.length / nf)
  for (let i = 0, k = 0, e = 0; i < nodes.length; i += nf, k++) { first[k] = e; e += nodes[i + iEdges] * ef }
  const loc = new Map()
  for (let j = 0; j < snap.locations.length; j += lf) loc.set(snap.locations[j], `${snap.locations[j + 2] + 1}:${snap.locations[j + 3] + 1}`)
  const prop = (n, name) => {
    const s = first[n / nf], c = nodes[n + iEdges]
    for (let e = s; e < s + c * ef; e += ef) if (etypes[edges[e + eType]] === "property" && strings[edges[e + eName]] === name) return edges[e + eTo]
    return undefined
  }
  const describe = (n) => {
    if (n === undefined) return "-"
    const t = types[nodes[n + iType]]
    if (t === "closure") return `fn ${strings[nodes[n + iName]] || "anon"}@${loc.get(n) ?? "?"}`
    if (t === "string" || t === "concatenated string") return `"${strings[nodes[n + iName]].slice(0, 30)}"`
    return `${t} ${strings[nodes[n + iName]].slice(0, 30)}`
  }
  const out = new Map()
  for (let i = 0; i < nodes.length; i += nf) {
    if (types[nodes[i + iType]] !== "object" || strings[nodes[i + iName]] !== "EffectPrimitive") continue
    const op = prop(i, "_op")
    const k = `${op === undefined ? "?" : strings[nodes[op + iName]]} ${describe(prop(i, "effect_instruction_i0"))} | ${describe(prop(i, "effect_instruction_i1"))}`
    out.set(k, (out.get(k) ?? 0) + 1)
  }
  return out
}
const [a, b, per = "1"] = process.argv.slice(2)
const before = load(a), after = load(b)
const rows = [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)]).filter(([, d]) => d > 0).sort((x, y) => y[1] - x[1])
for (const [k, d] of rows.slice(0, 50)) console.log(`${(d / Number(per)).toFixed(2).padStart(7)}  ${k}`)
