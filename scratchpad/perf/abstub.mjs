// Bundles the bench's serverOurs.ts as scripts/bundle.mjs does, with one of our source modules replaced by a
// stand-in, into packages/bench/<out>: what loading that module costs a running server (compare with
// blobpeak.mjs / blobpeakstdio.mjs against packages/bench/bundle/serverOurs.js, same conditions).
//   node abstub.mjs 'McpSchema2026\.ts$' ab/stub-McpSchema2026.ts bundle-ab2026
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
const [filter, stubFile, out = "bundle-ab"] = process.argv.slice(2)
const bench = fileURLToPath(new URL("../../packages/bench/", import.meta.url))
const esbuild = await import(new URL("../../packages/bench/node_modules/esbuild/lib/main.js", import.meta.url).href)
const stub = fs.readFileSync(new URL(stubFile, import.meta.url), "utf8")
const externalNpm = { name: "x", setup(b) { b.onResolve({ filter: /^[^./]/ }, (a) => a.path.startsWith("@effect-mcp/") ? undefined : { path: a.path, external: true }) } }
const replace = { name: "stub", setup(b) { b.onLoad({ filter: new RegExp(filter) }, (a) => ({ contents: stub, loader: "ts", resolveDir: a.path.replace(/\/[^/]+$/, "") })) } }
await esbuild.build({ absWorkingDir: bench, entryPoints: ["src/serverOurs.ts"], outdir: out, bundle: true, platform: "node", format: "esm", target: "node20", conditions: ["effect-mcp-source"], splitting: true, chunkNames: "chunks/[name]-[hash]", plugins: [externalNpm, replace], logLevel: "error" })
console.log(`${bench}${out}/serverOurs.js`)
