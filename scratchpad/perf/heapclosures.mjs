// Diffs two heap snapshots by where each closure was made (function name, script, line:column), after − before:
// which functions' closures a session keeps. node heapclosures.mjs before after [rows] [per]
import * as fs from "node:fs"
const load = (f) => {
  const snap = JSON.parse(fs.readFileSync(f, "utf8"))
  const { node_fields, node_types, location_fields, edge_fields, edge_types } = snap.snapshot.meta
  const nf = node_fields.length, ef = edge_fields.length
  const iType = node_fields.indexOf("type"), iName = node_fields.indexOf("name"), iSize = node_fields.indexOf("self_size"), iEdges = node_fields.indexOf("edge_count")
  const types = node_types[0]
  const nodes = snap.nodes, strings = snap.strings, edges = snap.edges
  const eType = edge_fields.indexOf("type"), eName = edge_fields.indexOf("name_or_index"), eTo = edge_fields.indexOf("to_node")
  // script id -> name: Script nodes ("system / Script") have a "name" edge to a string and an "id"? fall back to the id
  let edgeAt = 0
  const firstEdge = new Int32Array(nodes.length / nf)
  for (let i = 0, k = 0; i < nodes.length; i += nf, k++) { firstEdge[k] = edgeAt; edgeAt += nodes[i + iEdges] * ef }
  const edgeTo = (nodeIndex, name) => {
    const k = nodeIndex / nf
    const start = firstEdge[k], count = nodes[nodeIndex + iEdges]
    for (let e = start; e < start + count * ef; e += ef) {
      const t = edge_types[0][edges[e + eType]]
      if (t !== "element" && t !== "hidden" && strings[edges[e + eName]] === name) return edges[e + eTo]
      if (t === "internal" && strings[edges[e + eName]] === name) return edges[e + eTo]
    }
    return undefined
  }
  const scriptName = new Map()
  const nameOf = (closure, script) => {
    if (scriptName.has(script)) return scriptName.get(script)
    let name = `s${script}`
    const sfi = edgeTo(closure, "shared")
    const sc = sfi === undefined ? undefined : (edgeTo(sfi, "script") ?? edgeTo(sfi, "script_or_debug_info"))
    const str = sc === undefined ? undefined : edgeTo(sc, "name")
    if (str !== undefined) name = strings[nodes[str + iName]].replace(/.*node_modules\//, "").replace(/.*\/bench\//, "")
    scriptName.set(script, name)
    return name
  }
  const locs = snap.locations, lf = location_fields.length
  const out = new Map()
  for (let j = 0; j < locs.length; j += lf) {
    const node = locs[j], script = locs[j + 1], line = locs[j + 2], col = locs[j + 3]
    const type = types[nodes[node + iType]]
    if (type !== "closure") continue
    const name = strings[nodes[node + iName]]
    const k = `${name || "(anon)"} ${nameOf(node, script)}:${line + 1}:${col + 1}`
    const e = out.get(k) ?? { n: 0, size: 0 }
    e.n++; e.size += nodes[node + iSize]
    out.set(k, e)
  }
  return out
}
const [a, b, rows = "40", per = "1"] = process.argv.slice(2)
const before = load(a), after = load(b)
const list = []
for (const [k, e] of after) { const p = before.get(k) ?? { n: 0, size: 0 }; if (e.n !== p.n) list.push([k, e.n - p.n]) }
list.sort((x, y) => y[1] - x[1])
for (const [k, dn] of list.slice(0, Number(rows))) console.log(`${(dn / Number(per)).toFixed(2).padStart(8)}  ${k}`)
