/**
 * The baseline's tree (`BENCH_BASELINE`): its npm packages (this checkout's by links when its
 * lockfile is ours, else its own, installed from its lockfile), the commit's own workspace
 * packages, and a check that its bundle was compiled from its own sources.
 *
 * @since 0.1.0
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Baseline } from "./config.js"

const isInside = (dir: string, file: string): boolean => {
  const relative = path.relative(dir, file)
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)
}

/** The entry's real path, or undefined when it is a dangling link. */
const realpathOf = (file: string): string | undefined => {
  try {
    return fs.realpathSync(file)
  } catch {
    return undefined
  }
}

/** Makes `link` a symbolic link to `target`, replacing whatever was there. */
const linkTo = (target: string, link: string) => {
  const existing = fs.lstatSync(link, { throwIfNoEntry: false })
  if (existing !== undefined) {
    if (existing.isSymbolicLink() && fs.readlinkSync(link) === target) return
    fs.rmSync(link, { recursive: true, force: true })
  }
  fs.symlinkSync(target, link)
}

/**
 * The entries of the node_modules directory `ours` as links in `theirs`, one level into
 * scopes (`@effect`, `@effect-mcp`): an npm package is this checkout's, a link into a
 * workspace package (`@effect-mcp/mcp` → `packages/mcp`) goes to the tree's own package
 * (skipped when the commit has none).
 */
const linkEntries = (root: string, tree: string, ours: string, theirs: string) => {
  const packages = path.join(root, "packages")
  for (const entry of fs.readdirSync(ours, { withFileTypes: true })) {
    const from = path.join(ours, entry.name)
    const to = path.join(theirs, entry.name)
    if (entry.name.startsWith("@") && entry.isDirectory()) {
      fs.mkdirSync(to, { recursive: true })
      linkEntries(root, tree, from, to)
      continue
    }
    const real = realpathOf(from)
    if (real !== undefined && isInside(packages, real)) {
      const own = path.join(tree, path.relative(root, real))
      if (fs.existsSync(own)) linkTo(own, to)
      continue
    }
    linkTo(from, to)
  }
}

/**
 * Gives the baseline's tree this checkout's npm packages, and its own workspace packages:
 * each of the tree's node_modules directories (the root's and each package's) is a
 * directory of links to this checkout's entries, except the links to workspace packages,
 * which point into the tree. A link to this checkout's whole node_modules directory (what
 * the bench did until 2026-12-01) resolves `@effect-mcp/mcp`'s relative link
 * `../../../mcp` in this checkout: the baseline's bench programs were bundled with
 * today's SDK.
 *
 * @since 0.1.0
 * @category baseline
 */
export const linkNodeModules = (root: string, tree: string): void => {
  for (const dir of ["", ...fs.readdirSync(path.join(root, "packages")).map((p) => `packages/${p}`)]) {
    const ours = path.join(root, dir, "node_modules")
    const theirs = path.join(tree, dir, "node_modules")
    if (!fs.existsSync(ours) || !fs.existsSync(path.dirname(theirs))) continue
    // the old layout: one link to this checkout's directory
    if (fs.lstatSync(theirs, { throwIfNoEntry: false })?.isSymbolicLink() === true) fs.unlinkSync(theirs)
    fs.mkdirSync(theirs, { recursive: true })
    linkEntries(root, tree, ours, theirs)
  }
}

/**
 * Where a tree's bench workspace is: `next/` while the Effect 4 port lived there (a `next/`
 * holding `packages/bench`), else the tree's root (the Effect 3 tree at `packages/`, and the
 * layout after the port replaces it).
 *
 * @since 0.1.0
 * @category baseline
 */
export const workspaceOf = (tree: string): string =>
  fs.existsSync(path.join(tree, "next", "packages", "bench")) ? path.join(tree, "next") : tree

/** The first number of a version or a range (`^3.22.4` → 3), or undefined. */
const majorOf = (version: string | undefined): number | undefined => {
  const match = version === undefined ? null : /\d+/.exec(version)
  return match === null ? undefined : Number(match[0])
}

/**
 * Fails when the baseline's bench asks for an `effect` of another major version than the one
 * its linked node_modules give it (a commit of the Effect 3 tree linked to an Effect 4 install,
 * say): its bundle would not be that commit's program.
 *
 * @since 0.1.0
 * @category baseline
 */
export const assertSameEffectMajor = (workspace: string): void => {
  const bench = path.join(workspace, "packages", "bench")
  const wanted = (JSON.parse(fs.readFileSync(path.join(bench, "package.json"), "utf8")) as {
    readonly dependencies?: Record<string, string>
  }).dependencies?.effect
  const installed = path.join(bench, "node_modules", "effect", "package.json")
  if (wanted === undefined || !fs.existsSync(installed)) return
  const got = (JSON.parse(fs.readFileSync(installed, "utf8")) as { readonly version: string }).version
  if (majorOf(wanted) !== majorOf(got)) {
    throw new Error(`the baseline's bench wants effect ${wanted} and its node_modules give ${got}`)
  }
}

const sourceMaps = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceMaps(path.join(dir, entry.name))
      : entry.name.endsWith(".js.map")
      ? [path.join(dir, entry.name)]
      : []
  )

/**
 * Fails when the baseline's bundle in `bundleDir` (its source maps) holds a file of this
 * checkout's packages instead of the tree's: the baseline would be today's code.
 *
 * @since 0.1.0
 * @category baseline
 */
export const assertOwnSources = (root: string, tree: string, bundleDir: string): void => {
  const packages = path.join(root, "packages")
  const foreign = new Set<string>()
  let own = 0
  for (const map of sourceMaps(bundleDir)) {
    const { sources } = JSON.parse(fs.readFileSync(map, "utf8")) as { readonly sources: ReadonlyArray<string> }
    for (const source of sources) {
      const file = path.resolve(path.dirname(map), source)
      if (isInside(tree, file)) own++
      else if (isInside(packages, file)) foreign.add(path.relative(root, file))
    }
  }
  if (foreign.size > 0 || own === 0) {
    throw new Error(
      `the baseline's bundle is not its commit's code: ${
        foreign.size > 0 ? `${foreign.size} files of this checkout (${[...foreign].slice(0, 3).join(", ")}, …)` : "no source from its tree"
      }`
    )
  }
}

/** The `effect` range a workspace's bench asks for, or undefined. */
const wantedEffect = (workspace: string): string | undefined => {
  const file = path.join(workspace, "packages", "bench", "package.json")
  if (!fs.existsSync(file)) return undefined
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { readonly dependencies?: Record<string, string> }).dependencies?.effect
}

/**
 * How the baseline's workspace `theirs` gets its npm packages from the workspace `ours` that
 * runs the bench: `link` (this checkout's, by `linkNodeModules`) when its `pnpm-lock.yaml` is
 * ours byte for byte, or, without a lockfile on either side, when its bench asks for the same
 * `effect` major; else `install` (its own, from its lockfile: `installNodeModules`), e.g. the
 * last Effect 3 commit run from the Effect 4 tree. `ours` not installed: `install` too.
 *
 * @since 0.1.0
 * @category baseline
 */
export const dependenciesOf = (
  ours: string,
  theirs: string
): { readonly mode: "link" | "install"; readonly reason: string } => {
  if (!fs.existsSync(path.join(ours, "node_modules"))) return { mode: "install", reason: `${ours} is not installed` }
  const lock = (workspace: string) => {
    const file = path.join(workspace, "pnpm-lock.yaml")
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined
  }
  const [mine, its] = [lock(ours), lock(theirs)]
  if (mine !== undefined && its !== undefined) {
    return mine === its
      ? { mode: "link", reason: "its pnpm-lock.yaml is ours" }
      : { mode: "install", reason: "its pnpm-lock.yaml differs from ours" }
  }
  const [a, b] = [wantedEffect(ours), wantedEffect(theirs)]
  return majorOf(a) === majorOf(b)
    ? { mode: "link", reason: `no lockfile to compare; its bench wants effect ${b}, ours ${a}` }
    : { mode: "install", reason: `its bench wants effect ${b}, ours ${a}` }
}

/** The node_modules directories of a workspace (the root's and each package's) that exist. */
const nodeModulesDirs = (workspace: string): Array<string> => {
  const packages = path.join(workspace, "packages")
  const dirs = ["", ...(fs.existsSync(packages) ? fs.readdirSync(packages).map((p) => `packages/${p}`) : [])]
  return dirs.map((dir) => path.join(workspace, dir, "node_modules")).filter((dir) => fs.lstatSync(dir, { throwIfNoEntry: false }) !== undefined)
}

/** Whether pnpm installed the workspace (its root node_modules has pnpm's `.modules.yaml`). */
const installedByPnpm = (workspace: string): boolean => fs.existsSync(path.join(workspace, "node_modules", ".modules.yaml"))

/**
 * Removes the workspace's node_modules directories when they are not of the kind `mode` makes:
 * links made by `linkNodeModules` before an install, an install before links.
 *
 * @since 0.1.0
 * @category baseline
 */
export const clearOtherNodeModules = (workspace: string, mode: "link" | "install"): void => {
  if ((mode === "install") === installedByPnpm(workspace)) return
  for (const dir of nodeModulesDirs(workspace)) fs.rmSync(dir, { recursive: true, force: true })
}

/**
 * Installs the baseline workspace's own npm packages from its lockfile
 * (`pnpm install --frozen-lockfile --prefer-offline`: from the pnpm store when it has them).
 *
 * @since 0.1.0
 * @category baseline
 */
export const installNodeModules = (workspace: string): void => {
  clearOtherNodeModules(workspace, "install")
  execFileSync("pnpm", ["install", "--frozen-lockfile", "--prefer-offline", "--config.confirmModulesPurge=false"], {
    cwd: workspace,
    stdio: ["ignore", "inherit", "inherit"]
  })
}

/**
 * Bundles the bench programs of commit `sha` (`scripts/bundle.mjs` of that commit) in a
 * detached worktree under `bundleDir` (`bundle/` of the running bench in `root`, its workspace).
 * The commit's bench is where it was then (`workspaceOf`). Its npm packages: this workspace's by
 * links, or its own installed from its lockfile when its dependencies are not ours
 * (`dependenciesOf`); its bundle must hold its own sources only (`assertOwnSources`).
 *
 * @since 0.1.0
 * @category baseline
 */
export const bundleBaseline = (root: string, bundleDir: string, sha: string): Baseline => {
  const git = (...args: Array<string>) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim()
  const repo = git("rev-parse", "--show-toplevel")
  const commit = git("rev-parse", "--verify", `${sha}^{commit}`)
  const tree = path.join(bundleDir, `base-${commit.slice(0, 12)}`)
  if (!fs.existsSync(path.join(tree, ".git"))) {
    git("worktree", "prune")
    git("worktree", "add", "--detach", "--force", tree, commit)
  }
  const theirs = workspaceOf(tree)
  const { mode, reason } = dependenciesOf(root, theirs)
  process.stdout.write(`the baseline ${commit.slice(0, 12)}'s npm packages: ${mode === "link" ? "this checkout's" : "its own"} (${reason})\n`)
  if (mode === "link") {
    clearOtherNodeModules(theirs, "link")
    linkNodeModules(root, theirs)
  } else {
    installNodeModules(theirs)
  }
  assertSameEffectMajor(theirs)
  const bench = path.join(theirs, "packages/bench")
  process.stdout.write(`bundling the baseline ${commit.slice(0, 12)} in ${bench}\n`)
  const dir = path.join(bench, "bundle")
  // no chunk of an earlier bundling left for the check below to read
  fs.rmSync(dir, { recursive: true, force: true })
  execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: bench, stdio: "inherit" })
  // none of this checkout's sources, of either workspace (the running one, the repository's root)
  for (const workspace of new Set([root, repo, path.join(repo, "next")])) {
    if (fs.existsSync(path.join(workspace, "packages"))) assertOwnSources(workspace, theirs, dir)
  }
  // servers before the event-store configuration ignore the flag: no store pairing for them
  const store = fs.readFileSync(path.join(dir, "serverOurs.js"), "utf8").includes("event-store")
  return { dir, store, commit }
}
