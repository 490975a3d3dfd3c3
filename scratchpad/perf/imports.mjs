// Preload (node --import ./imports.mjs server.js ...): records every module the process loads (ESM and
// CommonJS), and on SIGTERM/exit writes them, with the process's RSS and heap at the first tick after
// loading, to $IMPORTS_OUT (default /tmp/imports.json). Which modules a server loads, and what they cost.
import * as fs from "node:fs"
import { register } from "node:module"
import { Module } from "node:module"
const out = process.env.IMPORTS_OUT ?? "/tmp/imports.json"
const seen = new Set()
const { port1, port2 } = new MessageChannel()
port1.on("message", (url) => seen.add(url))
port1.unref()
register("data:text/javascript," + encodeURIComponent(`
let port
export async function initialize(data) { port = data.port }
export async function resolve(specifier, context, next) { const r = await next(specifier, context); port.postMessage(r.url); return r }
`), { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] })
const origLoad = Module._load
Module._load = function (request, parent, isMain) {
  try { seen.add("cjs:" + Module._resolveFilename(request, parent, isMain)) } catch {}
  return origLoad.apply(this, arguments)
}
const write = () => {
  const modules = [...seen].filter((u) => !u.startsWith("node:"))
  const byPackage = {}
  for (const u of modules) {
    const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(u)
    const k = m ? m[1] : u.includes("/bundle") ? "(bundle)" : u
    byPackage[k] = (byPackage[k] ?? 0) + 1
  }
  fs.writeFileSync(out, JSON.stringify({ count: modules.length, byPackage, modules }, null, 1))
}
process.on("exit", write)
// servers run until killed: write once they have loaded (IMPORTS_AFTER ms)
setTimeout(write, Number(process.env.IMPORTS_AFTER ?? 3000)).unref()
