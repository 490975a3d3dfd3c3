// Lints the publishable packages as npm will see them: builds, packs each with
// pnpm (which applies `publishConfig` and rewrites `workspace:` ranges), then
// runs publint (strict: warnings fail) and @arethetypeswrong/cli on the tarball.
//
// attw runs with `--profile esm-only`: both packages are `"type": "module"`
// with only `types`/`default` conditions, so there is nothing for the
// `node10` and `node16` CommonJS resolution modes to find; the profile skips
// those two and checks `node16` ESM and `bundler` resolution, which is what a
// consumer with `moduleResolution: NodeNext` (or a bundler) uses.
//
// Before packing, the public declarations (`dist/*.d.ts`, not `dist/internal/`) are checked
// for the SDK's speed hooks, which live on internal interfaces only (`internal/protocol/make`,
// `internal/server/connect`, `internal/client/sessionRecovery`).
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const packages = ["mcp", "node", "redis"]
const run = (cmd, args, cwd = root) => {
  const { status } = spawnSync(cmd, args, { cwd, stdio: "inherit" })
  if (status !== 0) {
    console.error(`lint:pkg: \`${[cmd, ...args].join(" ")}\` failed (exit ${status})`)
    process.exit(1)
  }
}
const bin = (name) => join(root, "node_modules", ".bin", name)

run("pnpm", ["--filter", "@effect-mcp/mcp", "--filter", "@effect-mcp/node", "--filter", "@effect-mcp/redis", "run", "build"])
const HOOKS = /\b(runningNow|checkResult|ListenedLoss|EngineProtocol|EngineIncomingRequest|EngineRequestOptions)\b/
for (const name of packages) {
  const dist = join(root, "packages", name, "dist")
  for (const file of readdirSync(dist).filter((f) => f.endsWith(".d.ts"))) {
    const found = readFileSync(join(dist, file), "utf8").match(HOOKS)
    if (found !== null) {
      console.error(`lint:pkg: packages/${name}/dist/${file} names ${found[1]}, a speed hook kept out of the public types`)
      process.exit(1)
    }
  }
}
const out = mkdtempSync(join(tmpdir(), "effect-mcp-lint-"))
try {
  for (const name of packages) {
    const dir = join(out, name)
    execFileSync("pnpm", ["pack", "--pack-destination", dir], { cwd: join(root, "packages", name), stdio: "ignore" })
    const tarball = join(dir, readdirSync(dir).find((file) => file.endsWith(".tgz")))
    console.log(`\n== publint ${name}`)
    run(bin("publint"), ["run", tarball, "--strict"])
    console.log(`\n== attw ${name}`)
    run(bin("attw"), [tarball, "--profile", "esm-only", "--format", "table-flipped"])
  }
} finally {
  rmSync(out, { recursive: true, force: true })
}
