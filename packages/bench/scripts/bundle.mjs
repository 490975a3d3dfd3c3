/**
 * Bundles the bench programs with esbuild into `bundle/`: our workspace
 * packages are compiled from their TypeScript sources (their source export
 * condition), every npm package stays external and is loaded from
 * node_modules as an application would. No tsx loader at run time, so that
 * memory and CPU numbers are those of the programs only.
 */
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

/**
 * The export condition that selects the TypeScript sources of our packages
 * (the first key of `@effect-mcp/mcp`'s `"."` export, e.g. `effect-mcp-source`).
 */
export const sourceCondition = () => {
  const pkg = JSON.parse(fs.readFileSync(new URL("../../mcp/package.json", import.meta.url), "utf8"))
  const condition = Object.keys(pkg.exports["."])[0]
  if (condition === undefined || condition === "types" || condition === "default") {
    throw new Error("@effect-mcp/mcp has no source export condition")
  }
  return condition
}

const externalNpm = {
  name: "external-npm",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@effect-mcp/") ? undefined : { path: args.path, external: true })
  }
}

await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["src/run.ts", "src/client.ts", "src/serverOurs.ts", "src/serverOfficial.ts", "src/serverV2.ts", "src/serverEffectAi.ts", "src/startup.ts", "src/instructions.ts", "src/serverFloor.ts", "src/inproc.ts", "src/serverRedis.ts", "src/wireCheck.ts"],
  outdir: "bundle",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  conditions: ["effect-mcp-source"],
  sourcemap: "linked",
  logLevel: "warning",
  metafile: true,
  // dynamic imports stay separate chunks, with their npm imports: the stdio server must not
  // load the HTTP stack it never uses (esbuild would otherwise hoist those imports to the top)
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  plugins: [externalNpm]
}).then((result) => {
  // a bench of stale compiled output would measure the wrong code: our packages must come from src
  const compiled = Object.keys(result.metafile.inputs).filter((f) => /(^|\/)(mcp|node)\/dist\//.test(f))
  if (compiled.length > 0) throw new Error(`bundled compiled output instead of sources: ${compiled.join(", ")}`)
})
