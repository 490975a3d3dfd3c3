/**
 * The baseline's tree (`BENCH_BASELINE`): this checkout's npm packages, the
 * commit's own workspace packages, and a check that its bundle was compiled
 * from its own sources.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as path from "node:path"

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
