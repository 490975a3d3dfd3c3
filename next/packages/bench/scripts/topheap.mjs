/**
 * Summarizes a sampled `.heapprofile`: allocated bytes by function (self and
 * inclusive).
 *
 *   node scripts/topheap.mjs file.heapprofile [top=30]
 */
import * as fs from "node:fs"

const [file, topArg] = process.argv.slice(2)
const top = Number(topArg ?? 30)
const { head } = JSON.parse(fs.readFileSync(file, "utf8"))
const short = (url) => url.replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "").replace(/^file:\/\/\/work\/main\//, "")
const key = (f) => `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber + 1}`
const self = new Map()
const incl = new Map()
let total = 0
const walk = (node, stack) => {
  const k = key(node.callFrame)
  const bytes = node.selfSize
  total += bytes
  self.set(k, (self.get(k) ?? 0) + bytes)
  const next = stack.includes(k) ? stack : [...stack, k]
  for (const s of next) incl.set(s, (incl.get(s) ?? 0) + bytes)
  for (const c of node.children) walk(c, next)
}
walk(head, [])
const show = (title, map) => {
  console.log(`\n${title}`)
  for (const [k, b] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((b / total) * 100).toFixed(1).padStart(5)}%  ${(b / 1024 / 1024).toFixed(1).padStart(7)} MiB  ${k}`)
  }
}
console.log(`total sampled ${(total / 1024 / 1024).toFixed(1)} MiB`)
show("self", self)
show("inclusive", incl)
