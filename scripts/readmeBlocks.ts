/**
 * The ```ts blocks of a README as TypeScript modules, for `pnpm docs:check` to type-check.
 *
 * A README shows one program in pieces: a later block uses what an earlier one declared
 * (`ServerLive`) and repeats imports. So blocks are joined into modules, in order:
 * - every block belongs to the module of the block before it (the first: `readme.ts`);
 * - `<!-- readme:module NAME -->` on the line before a fence starts module `NAME` (a relative
 *   path, e.g. `app/server.ts`: `import ... from "./server.js"` in a sibling resolves to it);
 * - `<!-- readme:same-as PATH -->` before a fence says the block is the repository file `PATH`
 *   (compiled by `pnpm check` already): the block must be that file's text after its leading comment,
 *   and nothing is written;
 * - the imports of a module's blocks are hoisted to its top, each distinct import once.
 * A ```sh, ```json or other fence is not TypeScript and is left alone.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"

/** One README block. */
interface Block {
  readonly line: number // 1-based README line of the block's first code line
  readonly code: ReadonlyArray<string>
  readonly module: string
  readonly sameAs: string | undefined
}

/** A module to write: its text and, for each of its lines, the README line it came from (0: generated). */
export interface ReadmeModule {
  readonly name: string
  readonly text: string
  readonly lines: ReadonlyArray<number>
}

/** What reading a README found. */
export interface ReadmeBlocks {
  readonly modules: ReadonlyArray<ReadmeModule>
  readonly problems: ReadonlyArray<string>
  readonly blocks: number
}

const marker = (line: string, name: string): string | undefined =>
  new RegExp(`^<!--\\s*readme:${name}\\s+(\\S+)\\s*-->\\s*$`).exec(line.trim())?.[1]

/** The blocks of a README; a fence indented in a list item counts too, its lines taken without that indent. */
const blocksOf = (lines: ReadonlyArray<string>): Array<Block> => {
  const blocks: Array<Block> = []
  let module = "readme.ts"
  for (let i = 0; i < lines.length; i++) {
    const fence = /^( *)```(\w*)\s*$/.exec(lines[i]!)
    if (fence === null) continue
    const indent = fence[1]!
    const end = lines.findIndex((l, j) => j > i && l.startsWith(indent) && /^```\s*$/.test(l.slice(indent.length)))
    const close = end < 0 ? lines.length : end
    if (fence[2] === "ts" || fence[2] === "typescript") {
      const before = i > 0 ? lines[i - 1]!.trim() : ""
      module = marker(before, "module") ?? module
      const code = lines.slice(i + 1, close).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      blocks.push({ line: i + 2, code, module, sameAs: marker(before, "same-as") })
    }
    i = close
  }
  return blocks
}

/** A line of code and the README line it came from. */
type Line = readonly [string, number]

/** The import declarations of a block (their line ranges) and the rest. */
const splitImports = (block: Block): { imports: Array<Line>; rest: Array<Line> } => {
  const text = block.code.join("\n")
  const sf = ts.createSourceFile("block.ts", text, ts.ScriptTarget.ES2022, true)
  const taken = new Set<number>()
  const imports: Array<Line> = []
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement)) continue
    const from = sf.getLineAndCharacterOfPosition(statement.getStart(sf)).line
    const to = sf.getLineAndCharacterOfPosition(statement.getEnd()).line
    for (let l = from; l <= to; l++) taken.add(l)
    imports.push([statement.getText(sf).replace(/\s+/g, " "), block.line + from])
  }
  const rest = block.code.flatMap((l, i) => (taken.has(i) ? [] : [[l, block.line + i] as const]))
  return { imports, rest }
}

/** A file's text without the comment that opens it (the README shows the code, the file says where it is from). */
const withoutLeadingComment = (text: string): string => {
  const first = ts.getLeadingCommentRanges(text, 0)?.[0]
  return first === undefined ? text : text.slice(first.end).replace(/^\s*\n/, "")
}

/** Reads `readme` (a path) into modules; `root` is the repository, for `same-as`. */
export const readmeModules = (readme: string, root: string): ReadmeBlocks => {
  const source = path.relative(root, readme)
  const blocks = blocksOf(fs.readFileSync(readme, "utf8").split("\n"))
  const problems: Array<string> = []
  const byModule = new Map<string, { imports: Array<Line>; body: Array<Line> }>()
  for (const block of blocks) {
    if (block.sameAs !== undefined) {
      const file = path.join(root, block.sameAs)
      const text = fs.existsSync(file) ? withoutLeadingComment(fs.readFileSync(file, "utf8")).trimEnd() : undefined
      if (text !== block.code.join("\n").trimEnd()) {
        problems.push(`${source}:${block.line} the block differs from ${block.sameAs}${text === undefined ? " (no such file)" : ""}`)
      }
      continue
    }
    const entry = byModule.get(block.module) ?? { imports: [], body: [] }
    byModule.set(block.module, entry)
    const { imports, rest } = splitImports(block)
    for (const i of imports) if (!entry.imports.some(([text]) => text === i[0])) entry.imports.push(i)
    entry.body.push(...rest)
  }
  const modules = [...byModule].map(([name, { imports, body }]) => ({
    name,
    // `export {}` makes a module of a block that only imports types
    text: [...imports, ...body].map(([l]) => l).concat("export {}", "").join("\n"),
    lines: [...imports, ...body].map(([, n]) => n).concat(0, 0)
  }))
  return { modules, problems, blocks: blocks.length }
}
