// The `prepack` of each published package (@effect-mcp/mcp, node, redis): `pnpm pack` and
// `pnpm publish` run it in the package's directory before they collect the files. It builds the
// package and its workspace dependencies (`tsc -b`, a no-op when dist is up to date), then checks that every file the package
// points at (`exports` as published, `bin`) is there, so a pack can never produce a package
// without its `dist/`. `node scripts/prepack.mjs --check-only [dir]` runs the check alone.
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

const checkOnly = process.argv.includes("--check-only")
const dir = resolve(process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.cwd())
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))

if (!checkOnly) {
  // the package and the workspace packages it depends on, in order (redis and node build on mcp's dist)
  execFileSync("pnpm", ["--filter", `${pkg.name}...`, "run", "build"], { cwd: root, stdio: "inherit" })
}

/** Every file path in an exports map (conditions nested or not), the source-only condition left out. */
const targets = (value) =>
  typeof value === "string"
    ? [value]
    : Object.entries(value ?? {}).flatMap(([key, inner]) => (key === "effect-mcp-source" ? [] : targets(inner)))
const exportsMap = pkg.publishConfig?.exports ?? pkg.exports
const bins = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {})
const missing = [...targets(exportsMap), ...bins].filter((file) => !existsSync(join(dir, file)))
if (missing.length > 0) {
  console.error(
    `prepack: ${pkg.name}: ${missing.length} file(s) the package points at are missing (${missing.slice(0, 3).join(", ")}${
      missing.length > 3 ? ", …" : ""
    }); run \`pnpm build\``
  )
  process.exit(1)
}
