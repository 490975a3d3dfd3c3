/**
 * `pnpm docs:check`: the public API's JSDoc is complete and its examples compile.
 *
 * 1. Every export of a public module (each entry of the `exports` map of
 *    `@effect-mcp/mcp`, `@effect-mcp/node` and `@effect-mcp/redis`) has `@since` and `@category`, every module has a
 *    module comment with `@since`, and every export in category `constructors` or
 *    `combinators` has an `@example`. Exports are top-level declarations and
 *    re-exports (a specifier's own JSDoc counts); members of classes and
 *    interfaces are not held to the tags, but their examples are checked.
 * 2. Every ```ts block in an `@example` is written to `packages/<pkg>/.examples/`
 *    (ignored by git) and type-checked in one TypeScript program with the options of
 *    tsconfig.base.json and the `effect-mcp-source` condition, so `@effect-mcp/mcp/...`
 *    resolves to the sources as a user's import would resolve to the package.
 *    `noUnusedLocals` is off: an example declares what it shows. An `@example`
 *    without a ```ts block is reported: it would escape the check.
 * 3. Every ```ts block of the READMEs (the root one and each published package's) type-checks in the
 *    same program, joined into modules as `scripts/readmeBlocks.ts` says (a block marked
 *    `readme:same-as` must instead be the text of the repository file it names).
 * 4. No `@since` anywhere in a package's sources names a version after the
 *    package's own (`package.json`): an API is "since" a release that exists.
 * 4. Every line of a public module's JSDoc comments after the first starts with
 *    its `*` leader (a line without one compiles the same, so 2. cannot see it,
 *    but hovers and generated docs show it outside the example).
 *
 * Modules listed in `PENDING` are not documented yet: their missing tags (and
 * failing examples) are listed as warnings, not failures, so the gap stays
 * visible while CI is green.
 * Remove a module from the list once it is documented.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { readmeModules } from "./readmeBlocks.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const packages = ["mcp", "node", "redis"] as const

/** Modules whose exports do not all have `@since`/`@category` yet (relative to the repo). */
const PENDING: ReadonlySet<string> = new Set<string>([])

/** Categories whose exports must show an example. */
const NEEDS_EXAMPLE: ReadonlySet<string> = new Set(["constructors", "combinators"])

interface Example {
  readonly pkg: string
  readonly source: string // repo-relative
  readonly line: number // 1-based line in `source` of the example's first code line
  readonly code: string
}

const rel = (file: string) => path.relative(root, file).split(path.sep).join("/")

/** The modules a package exports: the `effect-mcp-source` target of each entry of its `exports` map. */
const publicModules = (pkg: string): Array<string> => {
  const dir = path.join(root, "packages", pkg)
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
    readonly exports: { readonly [entry: string]: string | { readonly [condition: string]: string } }
  }
  return Object.values(manifest.exports)
    .map((target) => (typeof target === "string" ? undefined : target["effect-mcp-source"]))
    .filter((source): source is string => source !== undefined && source.endsWith(".ts"))
    .map((source) => path.join(dir, source))
    .sort()
}

/** The tags of the JSDoc comment right before `node`, unless that comment is the module's. */
const tagsOf = (node: ts.Node, moduleDocEnd: number): Map<string, string> => {
  const tags = new Map<string, string>()
  const doc = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).at(-1)
  if (doc === undefined || doc.end <= moduleDocEnd) return tags
  for (const tag of doc.tags ?? []) {
    const comment = typeof tag.comment === "string" ? tag.comment : ts.getTextOfJSDocComment(tag.comment) ?? ""
    tags.set(tag.tagName.text, comment.trim())
  }
  return tags
}

/** The end of the module comment (the file's first comment, a JSDoc with `@since`), or -1. */
const moduleDocEndOf = (text: string): number => {
  const first = ts.getLeadingCommentRanges(text, 0)?.[0]
  if (first === undefined) return -1
  const comment = text.slice(first.pos, first.end)
  return comment.startsWith("/**") && /@since\b/.test(comment) ? first.end : -1
}

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)

/** The exported names a statement declares, with the node its JSDoc hangs on. */
const exportsOf = (statement: ts.Statement): Array<readonly [string, ts.Node]> => {
  if (ts.isExportDeclaration(statement)) {
    const clause = statement.exportClause
    if (clause === undefined) return [["*", statement]]
    if (ts.isNamespaceExport(clause)) return [[clause.name.text, statement]]
    // a specifier's own JSDoc (`export { /** ... */ a, b }`) or the statement's
    return clause.elements.map((e) => [e.name.text, ts.getJSDocTags(e).length > 0 ? e : statement] as const)
  }
  if (!isExported(statement)) return []
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.map((d) => [d.name.getText(), statement] as const)
  }
  if (
    (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) &&
    statement.name !== undefined
  ) {
    return [[statement.name.getText(), statement]]
  }
  return []
}

interface Problems {
  readonly errors: Array<string>
  readonly warnings: Array<string>
}

const checkTags = (file: string, sf: ts.SourceFile, problems: Problems) => {
  const source = rel(file)
  const report = PENDING.has(source) ? problems.warnings : problems.errors
  const moduleDocEnd = moduleDocEndOf(sf.text)
  if (moduleDocEnd < 0) report.push(`${source}: no module comment with @since`)
  // overloads and declaration merging: a name is documented when one of its declarations is
  const byName = new Map<string, { line: number; tags: Map<string, string> }>()
  for (const statement of sf.statements) {
    for (const [name, node] of exportsOf(statement)) {
      const tags = tagsOf(node, moduleDocEnd)
      const line = sf.getLineAndCharacterOfPosition(statement.getStart(sf)).line + 1
      const seen = byName.get(name)
      if (seen === undefined || (!seen.tags.has("since") && tags.has("since"))) byName.set(name, { line, tags })
    }
  }
  for (const [name, { line, tags }] of byName) {
    const missing = ["since", "category"].filter((t) => !tags.get(t))
    if (missing.length > 0) report.push(`${source}:${line} ${name}: no ${missing.map((t) => `@${t}`).join(", ")}`)
    const category = tags.get("category")
    if (category !== undefined && NEEDS_EXAMPLE.has(category) && !tags.has("example")) {
      report.push(`${source}:${line} ${name}: @category ${category} needs an @example`)
    }
  }
}

/**
 * Every ```ts fence inside an `@example` of every JSDoc comment of the file.
 * An `@example` with no such fence would go unchecked: it is returned with
 * `line: -2` and reported.
 */
const examplesOf = (pkg: string, file: string, text: string): Array<Example> => {
  const examples: Array<Example> = []
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const startLine = text.slice(0, comment.index).split("\n").length
    const lines = comment[0].split("\n").map((l) => l.replace(/^\s*\*( |$)/, ""))
    // the line of the `@example` being read and whether a fence was found in it
    let example: { line: number; fenced: boolean } | undefined
    let fence: { line: number; code: Array<string> } | undefined
    const endExample = () => {
      if (example !== undefined && !example.fenced) examples.push({ pkg, source: rel(file), line: -2, code: `${example.line}` })
      example = undefined
    }
    lines.forEach((line, i) => {
      if (fence !== undefined) {
        if (/^\s*```\s*$/.test(line)) {
          examples.push({ pkg, source: rel(file), line: fence.line, code: fence.code.join("\n") })
          fence = undefined
        } else fence.code.push(line)
        return
      }
      const tag = /^\s*@(\w+)/.exec(line)
      if (tag !== null) {
        endExample()
        if (tag[1] === "example") example = { line: startLine + i, fenced: false }
      }
      if (example !== undefined && /^\s*```(ts|typescript)\s*$/.test(line)) {
        example.fenced = true
        fence = { line: startLine + i + 1, code: [] }
      }
    })
    endExample()
    if (fence !== undefined) examples.push({ pkg, source: rel(file), line: -1, code: "" }) // unclosed: reported below
  }
  return examples
}

/**
 * Every line of a JSDoc comment after its first starts with its ` * ` leader. A line without one
 * still compiles as an example (the code is the same), so the type-check cannot see it, but a
 * reader's hover and generated docs show it broken (an `import` out of the fence).
 */
const checkLeaders = (file: string, text: string, problems: Problems) => {
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const startLine = text.slice(0, comment.index).split("\n").length
    comment[0].split("\n").forEach((line, i) => {
      if (i > 0 && !/^\s*\*/.test(line)) {
        ;(PENDING.has(rel(file)) ? problems.warnings : problems.errors).push(
          `${rel(file)}:${startLine + i}: a JSDoc line without its leading "*": ${line.trim()}`
        )
      }
    })
  }
}

const compilerOptions = (): ts.CompilerOptions => {
  const base = ts.readConfigFile(path.join(root, "tsconfig.base.json"), ts.sys.readFile)
  if (base.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(base.error.messageText, "\n"))
  const parsed = ts.parseJsonConfigFileContent(
    {
      compilerOptions: {
        ...base.config.compilerOptions,
        noEmit: true,
        composite: false,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
        noUnusedLocals: false,
        customConditions: ["effect-mcp-source"],
        // an example of @effect-mcp/mcp may show it with @effect-mcp/node, which mcp does not depend on
        paths: {
          "@effect-mcp/node": ["./packages/node/src/index.ts"],
          "@effect-mcp/node/*": ["./packages/node/src/*.ts"],
          "@effect-mcp/redis": ["./packages/redis/src/index.ts"],
          "@effect-mcp/redis/*": ["./packages/redis/src/*.ts"]
        }
      }
    },
    ts.sys,
    root
  )
  return parsed.options
}

/** `1.2.3` as numbers, to compare versions. */
const versionParts = (v: string): Array<number> => v.split(".").map((n) => Number.parseInt(n, 10))

/** Whether version `a` comes after `b`. */
const later = (a: string, b: string): boolean => {
  const [x, y] = [versionParts(a), versionParts(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0)
  }
  return false
}

/** Every `@since` in a package's sources names its version or an earlier one: nothing is "since" a release not made yet. */
const checkSince = (pkg: string, problems: Problems) => {
  const dir = path.join(root, "packages", pkg)
  const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { readonly version: string }
  const files = fs.readdirSync(path.join(dir, "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, "src", file), "utf8").split("\n")
    lines.forEach((line, i) => {
      const since = /@since\s+(\d+\.\d+\.\d+)/.exec(line)?.[1]
      if (since !== undefined && later(since, version)) {
        problems.errors.push(`${rel(path.join(dir, "src", file))}:${i + 1}: @since ${since}, after the package's version ${version}`)
      }
    })
  }
}

const main = () => {
  const started = performance.now()
  const problems: Problems = { errors: [], warnings: [] }
  const examples: Array<Example> = []
  for (const pkg of packages) {
    checkSince(pkg, problems)
    for (const file of publicModules(pkg)) {
      const text = fs.readFileSync(file, "utf8")
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
      checkTags(file, sf, problems)
      checkLeaders(file, text, problems)
      examples.push(...examplesOf(pkg, file, text))
    }
  }

  // write the examples, one module each, and type-check them in one program
  const written = new Map<string, Example>()
  for (const pkg of packages) fs.rmSync(path.join(root, "packages", pkg, ".examples"), { recursive: true, force: true })
  const counters = new Map<string, number>()
  for (const example of examples) {
    if (example.line < 0) {
      ;(PENDING.has(example.source) ? problems.warnings : problems.errors).push(
        example.line === -1
          ? `${example.source}: an @example has an unclosed code fence`
          : `${example.source}:${example.code} an @example without a \`\`\`ts block is not type-checked`
      )
      continue
    }
    const base = path.basename(example.source, ".ts")
    const n = (counters.get(example.source) ?? 0) + 1
    counters.set(example.source, n)
    const dir = path.join(root, "packages", example.pkg, ".examples")
    fs.mkdirSync(dir, { recursive: true })
    const file = path.join(dir, `${base}-${n}.ts`)
    // `export {}` makes every example a module even when it only imports types
    fs.writeFileSync(file, `${example.code}\nexport {}\n`)
    written.set(path.normalize(file), example)
  }
  // the READMEs' ```ts blocks, joined into modules (scripts/readmeBlocks.ts), beside the examples of @effect-mcp/node
  const readmeFiles = new Map<string, { readonly readme: string; readonly lines: ReadonlyArray<number> }>()
  let readmeBlocks = 0
  for (const readme of ["README.md", ...packages.map((pkg) => `packages/${pkg}/README.md`)]) {
    const found = readmeModules(path.join(root, readme), root)
    readmeBlocks += found.blocks
    problems.errors.push(...found.problems)
    const dir = path.join(root, "packages", "node", ".examples", "readme", path.dirname(readme))
    for (const module of found.modules) {
      const file = path.join(dir, module.name)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, module.text)
      readmeFiles.set(path.normalize(file), { readme, lines: module.lines })
    }
  }
  const globals = path.join(root, "scripts", "readmeGlobals.d.ts")
  const program = ts.createProgram([...written.keys(), ...readmeFiles.keys(), globals], compilerOptions())
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n  ")
    const file = diagnostic.file
    const example = file === undefined ? undefined : written.get(path.normalize(file.fileName))
    const fromReadme = file === undefined ? undefined : readmeFiles.get(path.normalize(file.fileName))
    if (file !== undefined && fromReadme !== undefined && diagnostic.start !== undefined) {
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start)
      problems.errors.push(`${fromReadme.readme}:${fromReadme.lines[line] ?? "?"} (${rel(file.fileName)}:${line + 1}): TS${diagnostic.code} ${message}`)
      continue
    }
    if (file === undefined || example === undefined || diagnostic.start === undefined) {
      problems.errors.push(`${file === undefined ? "" : rel(file.fileName) + ": "}TS${diagnostic.code} ${message}`)
      continue
    }
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start)
    ;(PENDING.has(example.source) ? problems.warnings : problems.errors).push(
      `${example.source}:${example.line + line} example (${rel(file.fileName)}:${line + 1}): TS${diagnostic.code} ${message}`
    )
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (problems.warnings.length > 0) {
    console.log(`docs:check: ${problems.warnings.length} warning(s) in modules not documented yet (PENDING):`)
    for (const w of problems.warnings) console.log(`  ${w}`)
  }
  if (problems.errors.length > 0) {
    console.error(`docs:check: ${problems.errors.length} problem(s):`)
    for (const e of problems.errors) console.error(`  ${e}`)
    console.error(`docs:check failed (${written.size} examples, ${seconds}s)`)
    process.exitCode = 1
    return
  }
  console.log(`docs:check: ${written.size} examples and the READMEs' ${readmeBlocks} blocks type-check, every export${PENDING.size > 0 ? " outside PENDING" : ""} has @since and @category (${seconds}s)`)
}

main()
