// `pnpm install-into <project-dir> [--redis]`: installs this clone's packages into your project,
// until they are on the npm registry. Packs @effect-mcp/mcp and @effect-mcp/node (and, with
// `--redis`, @effect-mcp/redis) with pnpm (each package's `prepack` builds it and refuses to pack
// without its dist/), puts the tarballs in <project-dir>/vendor/effect-mcp/, and runs
// `npm install` there with them and the peers at the versions the packages declare
// (`effect`, `@effect/platform-node`). The project's package.json then depends on the tarballs
// (`file:vendor/effect-mcp/…`): commit them, or run this again after a `git pull` here.
//
// `pnpm test:pack` (scripts/pack-smoke.mjs) runs this on a new project outside the workspace.
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { isAbsolute, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const usage = "usage: pnpm install-into <project-dir> [--redis]"
const fail = (message) => {
  console.error(`install-into: ${message}`)
  process.exit(1)
}

const args = process.argv.slice(2)
const dirs = args.filter((arg) => !arg.startsWith("--"))
const unknown = args.filter((arg) => arg.startsWith("--") && arg !== "--redis")
if (dirs.length !== 1 || unknown.length > 0) {
  console.error(usage)
  process.exit(2)
}
// `pnpm install-into ../app` runs at the workspace root: a relative path is the caller's
const project = resolve(process.env.INIT_CWD ?? process.cwd(), dirs[0])
if (!existsSync(join(project, "package.json"))) {
  fail(`${project} has no package.json (run \`npm init -y\` there first)`)
}
const inside = relative(root, project)
if (!inside.startsWith("..") && !isAbsolute(inside)) fail(`${project} is inside this workspace: give a project outside it`)

const names = ["mcp", "node", ...(args.includes("--redis") ? ["redis"] : [])]
const packageJson = (name) => JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"))
const peers = Object.assign({}, ...names.map((name) => packageJson(name).peerDependencies ?? {}))

const vendor = join(project, "vendor", "effect-mcp")
mkdirSync(vendor, { recursive: true })
const tarballs = names.map((name) => {
  // the tarball of an earlier run (maybe another version) goes
  for (const file of readdirSync(vendor)) if (file.startsWith(`effect-mcp-${name}-`)) rmSync(join(vendor, file))
  console.log(`install-into: pnpm pack @effect-mcp/${name}`)
  execFileSync("pnpm", ["pack", "--pack-destination", vendor], {
    cwd: join(root, "packages", name),
    stdio: ["ignore", "ignore", "inherit"]
  })
  const file = readdirSync(vendor).find((f) => f.startsWith(`effect-mcp-${name}-`) && f.endsWith(".tgz"))
  if (file === undefined) fail(`pnpm pack @effect-mcp/${name} made no tarball`)
  return `./${relative(project, join(vendor, file))}`
})
const installs = [...tarballs, ...Object.entries(peers).map(([name, range]) => `${name}@${range}`)]
console.log(`install-into: npm install ${installs.join(" ")} (in ${project})`)
try {
  execFileSync("npm", ["install", ...installs, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: project,
    stdio: ["ignore", "inherit", "inherit"]
  })
} catch {
  fail("npm install failed (above)")
}
console.log(`install-into: installed ${names.map((name) => `@effect-mcp/${name}`).join(", ")} into ${project}`)
