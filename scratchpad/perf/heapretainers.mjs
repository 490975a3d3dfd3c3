// Who holds the objects a snapshot pair adds: for the nodes of `after` not in `before` (by snapshot id) whose
// "type name" matches the regex, their retainers (type, name, edge) up to DEPTH levels, counted per `per`.
//   node heapretainers.mjs before after 'object Runtime' [per] [rows]   (DEPTH=2 default)
import * as fs from "node:fs"
const [a, b, pattern, per = "1", rows = "30"] = process.argv.slice(2)
const depth = Number(process.env.DEPTH ?? 2)
const ids = (f) => {
  const snap = JSON.parse(fs.readFileSync(f, "utf8"))
  const nf = snap.snapshot.meta.node_fields.length, iId = snap.snapshot.meta.node_fields.indexOf("id")
  const s = new Set()
  for (let i = 0; i < snap.nodes.length; i += nf) s.add(snap.nodes[i + iId])
  return s
}
const old = ids(a)
const snap = JSON.parse(fs.readFileSync(b, "utf8"))
const { node_fields, edge_fields, edge_types, node_types } = snap.snapshot.meta
const nf = node_fields.length, ef = edge_fields.length
const iType = node_fields.indexOf("type"), iName = node_fields.indexOf("name"), iEdges = node_fields.indexOf("edge_count"), iId = node_fields.indexOf("id")
const eType = edge_fields.indexOf("type"), eName = edge_fields.indexOf("name_or_index"), eTo = edge_fields.indexOf("to_node")
const types = node_types[0], etypes = edge_types[0]
const { nodes, edges, strings } = snap
const retainers = new Map()
for (let i = 0, e = 0; i < nodes.length; i += nf) {
  for (let k = 0; k < nodes[i + iEdges]; k++, e += ef) {
    const t = etypes[edges[e + eType]]
    if (t === "weak") continue
    const to = edges[e + eTo]
    let l = retainers.get(to); if (!l) retainers.set(to, l = [])
    l.push([i, t === "element" || t === "hidden" ? `[${edges[e + eName]}]` : strings[edges[e + eName]]])
  }
}
const label = (i) => `${types[nodes[i + iType]]} ${strings[nodes[i + iName]].slice(0, 50)}`
const re = new RegExp(pattern)
const out = new Map()
for (let i = 0; i < nodes.length; i += nf) {
  if (old.has(nodes[i + iId]) || !re.test(label(i))) continue
  const chains = [[label(i), i]]
  for (let d = 0; d < depth; d++) {
    const next = []
    for (const [s, n] of chains) for (const [r, edge] of (retainers.get(n) ?? []).slice(0, 3)) next.push([`${s} <-${edge}- ${label(r)}`, r])
    chains.length = 0; chains.push(...next)
  }
  for (const [s] of chains) out.set(s, (out.get(s) ?? 0) + 1)
}
for (const [k, n] of [...out].sort((x, y) => y[1] - x[1]).slice(0, Number(rows))) console.log(`${(n / Number(per)).toFixed(2).padStart(7)}  ${k}`)
