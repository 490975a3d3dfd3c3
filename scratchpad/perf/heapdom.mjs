// What a snapshot pair adds, by the structures that hold it: the dominator tree of `after` (weak edges
// ignored), and for every object new in `after` whose immediate dominator is old (a root of new memory),
// its retained size, grouped by "type name" of that root and the edge from its dominator... per `per`.
//   node heapdom.mjs before after [per] [rows]      EXPAND='regex' lists the children (in the dominator
//   tree) of the roots whose "type name" matches, grouped by type name, per `per`.
import * as fs from "node:fs"
const [a, b, per = "1", rows = "40"] = process.argv.slice(2)
const load = (f) => JSON.parse(fs.readFileSync(f, "utf8"))
const oldIds = (() => { const s = load(a); const nf = s.snapshot.meta.node_fields.length, iId = s.snapshot.meta.node_fields.indexOf("id"); const set = new Set(); for (let i = 0; i < s.nodes.length; i += nf) set.add(s.nodes[i + iId]); return set })()
const snap = load(b)
const { node_fields, edge_fields, edge_types, node_types } = snap.snapshot.meta
const nf = node_fields.length, ef = edge_fields.length
const iType = node_fields.indexOf("type"), iName = node_fields.indexOf("name"), iEdges = node_fields.indexOf("edge_count"), iId = node_fields.indexOf("id"), iSize = node_fields.indexOf("self_size")
const eType = edge_fields.indexOf("type"), eName = edge_fields.indexOf("name_or_index"), eTo = edge_fields.indexOf("to_node")
const types = node_types[0], etypes = edge_types[0]
const N = snap.nodes.length / nf
const firstEdge = new Uint32Array(N + 1)
for (let i = 0, e = 0; i < N; i++) { firstEdge[i] = e; e += snap.nodes[i * nf + iEdges] * ef }
firstEdge[N] = snap.edges.length
const weak = etypes.indexOf("weak"), shortcut = etypes.indexOf("shortcut")
const succ = (i, f) => { for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) { const t = snap.edges[e + eType]; if (t === weak || t === shortcut) continue; f(snap.edges[e + eTo] / nf, e) } }
// post-order DFS from node 0
const order = new Int32Array(N).fill(-1), post = new Uint32Array(N)
let count = 0
{ const stack = [0], it = [firstEdge[0]]; order[0] = -2
  while (stack.length) { const v = stack[stack.length - 1]; let e = it[it.length - 1]; let pushed = false
    for (; e < firstEdge[v + 1]; e += ef) { const t = snap.edges[e + eType]; if (t === weak || t === shortcut) continue; const w = snap.edges[e + eTo] / nf; if (order[w] === -1) { order[w] = -2; it[it.length - 1] = e + ef; stack.push(w); it.push(firstEdge[w]); pushed = true; break } }
    if (!pushed) { stack.pop(); it.pop(); order[v] = count; post[count++] = v } } }
// predecessors
const predCount = new Uint32Array(N + 1)
for (let v = 0; v < N; v++) if (order[v] >= 0) succ(v, (w) => { predCount[w]++ })
const predStart = new Uint32Array(N + 1); for (let v = 0; v < N; v++) predStart[v + 1] = predStart[v] + predCount[v]
const preds = new Uint32Array(predStart[N]); const fill = predStart.slice()
for (let v = 0; v < N; v++) if (order[v] >= 0) succ(v, (w) => { preds[fill[w]++] = v })
const idom = new Int32Array(N).fill(-1); idom[0] = 0
const intersect = (x, y) => { while (x !== y) { while (order[x] < order[y]) x = idom[x]; while (order[y] < order[x]) y = idom[y] } return x }
for (let changed = true; changed;) { changed = false
  for (let k = count - 2; k >= 0; k--) { const v = post[k]; let nd = -1
    for (let p = predStart[v]; p < predStart[v + 1]; p++) { const u = preds[p]; if (order[u] < 0 || idom[u] === -1) continue; nd = nd === -1 ? u : intersect(u, nd) }
    if (nd !== -1 && idom[v] !== nd) { idom[v] = nd; changed = true } } }
const retained = new Float64Array(N)
for (let k = 0; k < count; k++) { const v = post[k]; retained[v] += snap.nodes[v * nf + iSize]; if (v !== 0) retained[idom[v]] += retained[v] }
const label = (i) => { const t = types[snap.nodes[i * nf + iType]]; let n = snap.strings[snap.nodes[i * nf + iName]]; if (t === "string" || t === "concatenated string" || t === "sliced string") n = ""; return `${t} ${n.slice(0, 50)}` }
const isNew = (i) => !oldIds.has(snap.nodes[i * nf + iId])
const edgeTo = (from, to) => { let name = "?"; for (let e = firstEdge[from]; e < firstEdge[from + 1]; e += ef) if (snap.edges[e + eTo] / nf === to) { const t = etypes[snap.edges[e + eType]]; const x = snap.edges[e + eName]; name = t === "element" || t === "hidden" ? `[${x}]` : String(snap.strings[x]); break } return name }
const groups = new Map(); let total = 0
const expand = process.env.EXPAND ? new RegExp(process.env.EXPAND) : undefined
const children = new Map()
for (let v = 0; v < N; v++) {
  if (order[v] < 0 || !isNew(v)) continue
  const d = idom[v]
  if (isNew(d)) { if (expand && expand.test(rootKey(rootOf(d)))) { const k = label(v) + " <-" + edgeTo(d, v) + "- " + label(d); const g = children.get(k) ?? { n: 0, size: 0 }; g.n++; g.size += retained[v]; children.set(k, g) } continue }
  const k = d === 0 ? `${label(v)}  <= ${retainers(v)}` : `${label(v)}  <-${edgeTo(d, v)}- ${label(d)}`
  const g = groups.get(k) ?? { n: 0, size: 0 }; g.n++; g.size += retained[v]; groups.set(k, g); total += retained[v]
}
function retainers(v) { const out = []; for (let p = predStart[v]; p < predStart[v + 1] && out.length < 3; p++) { const u = preds[p]; out.push(`${edgeTo(u, v)}@${label(u).slice(0, 30)}`) } return out.sort().join(" | ") }
function rootKey(r) { return idom[r] === 0 ? label(r) + " <= " + retainers(r) : label(r) }
function rootOf(v) { while (isNew(idom[v]) && v !== 0) v = idom[v]; return v }
const p = Number(per)
console.log(`new and reachable: ${(total / p / 1024).toFixed(2)} KiB per ${p}`)
for (const [k, g] of [...groups].sort((x, y) => y[1].size - x[1].size).slice(0, Number(rows))) console.log(`${(g.size / p).toFixed(0).padStart(8)} B ${(g.n / p).toFixed(2).padStart(6)}  ${k}`)
if (expand) { console.log(`-- inside roots matching ${expand} (direct dominator children of new nodes, any depth)`); for (const [k, g] of [...children].sort((x, y) => y[1].size - x[1].size).slice(0, Number(rows))) console.log(`${(g.size / p).toFixed(0).padStart(8)} B ${(g.n / p).toFixed(2).padStart(6)}  ${k}`) }
