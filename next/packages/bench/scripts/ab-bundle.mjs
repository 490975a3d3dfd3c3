/**
 * Builds an A/B variant of the bench programs: the same bundle as
 * `scripts/bundle.mjs`, with text replacements applied to our sources at
 * bundle time (the files on disk are untouched). Used to measure what one
 * engine change would save before anyone makes it.
 *
 *   node scripts/ab-bundle.mjs <name> patches.json   # → bundle/ab-<name>/{client,serverOurs,inproc}.js
 *
 * patches.json: [{ "file": "packages/node/src/NodeStdio.ts", "from": "exact text", "to": "replacement" }]
 * Every patch must match: a stale patch fails the build instead of measuring nothing.
 * Then run e.g. `node bundle/ab-<name>/client.js '<Spec>'` (see src/client.ts) against
 * `bundle/ab-<name>/serverOurs.js`, and the same with `bundle/`, interleaved.
 */
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const [name, patchFile] = process.argv.slice(2)
if (name === undefined) {
  process.stderr.write("usage: node scripts/ab-bundle.mjs <name> [patches.json]\n")
  process.exit(2)
}
const patches = patchFile === undefined ? [] : JSON.parse(fs.readFileSync(patchFile, "utf8"))
const pkg = JSON.parse(fs.readFileSync(new URL("../../mcp/package.json", import.meta.url), "utf8"))
const condition = Object.keys(pkg.exports["."])[0]
const used = new Set()

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["src/client.ts", "src/serverOurs.ts", "src/inproc.ts"],
  outdir: `bundle/ab-${name}`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: [condition],
  metafile: true,
  logLevel: "warning",
  plugins: [{
    name: "ab",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith("@effect-mcp/") ? undefined : { path: args.path, external: true })
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        let text = fs.readFileSync(args.path, "utf8")
        for (const [i, p] of patches.entries()) {
          if (!args.path.endsWith(p.file)) continue
          if (!text.includes(p.from)) throw new Error(`patch ${i} does not match ${p.file}`)
          text = text.split(p.from).join(p.to)
          used.add(i)
        }
        return { contents: text, loader: "ts" }
      })
    }
  }]
})
const compiled = Object.keys(result.metafile.inputs).filter((f) => /(^|\/)(mcp|node)\/dist\//.test(f))
if (compiled.length > 0) throw new Error(`bundled compiled output instead of sources: ${compiled.join(", ")}`)
for (const [i, p] of patches.entries()) if (!used.has(i)) throw new Error(`patch ${i} (${p.file}) was never applied`)
process.stdout.write(`built bundle/ab-${name} with ${patches.length} patch(es)\n`)
