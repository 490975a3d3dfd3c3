// What each import costs a fresh process: RSS and heap after GC, and max RSS, with the modules given
// loaded (resolved from packages/bench, as the bench's servers are), median of 3 processes.
//   node importcost.mjs            (the default sets below)
//   node importcost.mjs effect/Effect @effect/platform-node/NodeHttpServer ...
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
const bench = fileURLToPath(new URL("../../packages/bench/", import.meta.url))
const sets = process.argv.length > 2 ? process.argv.slice(2).map((s) => s.split("+").filter((m) => m !== "")) : [
  [],
  ["effect/Effect", "effect/Layer", "effect/Stream"],
  ["effect/Effect", "effect/Layer", "effect/Stream", "effect/Schema"],
  ["effect/FastCheck"],
  ["undici"],
  ["@effect/platform/HttpServerResponse", "@effect/platform/Headers"],
  ["@effect/platform-node/NodeHttpServer"],
  ["@effect-mcp/mcp/McpServer"],
  ["@effect-mcp/mcp/McpServer", "@effect-mcp/node/NodeStdio"],
  ["@effect-mcp/mcp/McpServer", "@effect-mcp/mcp/StreamableHttpServer"],
  ["@effect-mcp/mcp/McpServer", "@effect-mcp/node/NodeStreamableHttp"],
  ["@modelcontextprotocol/sdk/server/mcp.js", "@modelcontextprotocol/sdk/server/stdio.js"],
  ["@modelcontextprotocol/sdk/server/mcp.js", "@modelcontextprotocol/sdk/server/streamableHttp.js"]
]
// each set is bundled as the bench's programs are (our packages from their sources, npm packages external)
const esbuild = await import(new URL("../../packages/bench/node_modules/esbuild/lib/main.js", import.meta.url).href)
fs.mkdirSync(`${bench}bundle-imports`, { recursive: true })
const external = { name: "x", setup(b) { b.onResolve({ filter: /^[^./]/ }, (a) => a.path.startsWith("@effect-mcp/") ? undefined : { path: a.path, external: true }) } }
let k = 0
const measure = (file) => {
  const out = execFileSync(process.execPath, ["--expose-gc", file], { cwd: bench, encoding: "utf8" })
  return JSON.parse(out.trim().split("\n").pop())
}
const build = async (mods) => {
  const entry = `${bench}bundle-imports/entry${k}.mjs`
  const file = `${bench}bundle-imports/set${k++}.mjs`
  fs.writeFileSync(entry, `${mods.map((m) => `await import(${JSON.stringify(m)});`).join("")}
await new Promise((r) => setTimeout(r, 50)); gc(); gc();
const m = process.memoryUsage(); console.log(JSON.stringify({ rss: m.rss, heap: m.heapUsed, max: process.resourceUsage().maxRSS * 1024 }))`)
  await esbuild.build({ entryPoints: [entry], outfile: file, bundle: true, platform: "node", format: "esm", target: "node20", conditions: ["effect-mcp-source"], plugins: [external], logLevel: "error" })
  return file
}
const MiB = 1024 * 1024
const med = (xs) => xs.sort((a, b) => a - b)[1]
let base
for (const mods of sets) {
  const file = await build(mods)
  let runs
  try { runs = [measure(file), measure(file), measure(file)] } catch { console.log(`(failed) ${mods.join(" + ")}`); continue }
  const r = { rss: med(runs.map((x) => x.rss)), heap: med(runs.map((x) => x.heap)), max: med(runs.map((x) => x.max)) }
  base ??= r
  console.log(`${(r.rss / MiB).toFixed(1).padStart(6)} MiB RSS (+${((r.rss - base.rss) / MiB).toFixed(1)}), heap ${(r.heap / MiB).toFixed(1)} MiB (+${((r.heap - base.heap) / MiB).toFixed(1)}), max RSS ${(r.max / MiB).toFixed(1)}  ${mods.join(" + ") || "(bare node)"}`)
}
