/**
 * No module of a package's `src` imports a value from a module that (through
 * value imports) imports it back: such a cycle makes evaluation order decide
 * whether a value is defined when it is read. Type-only imports are erased and
 * may go both ways (a public module's types read by its internal half).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import ts from "typescript"

const packagesDir = path.resolve(import.meta.dirname, "../..")

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : []
  })

/** Whether an import or export declaration brings a value in at run time. */
const isValueEdge = (statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean => {
  if (ts.isExportDeclaration(statement)) return !statement.isTypeOnly
  const clause = statement.importClause
  if (clause === undefined) return true // a side-effect import
  if (clause.isTypeOnly) return false
  const bindings = clause.namedBindings
  if (clause.name !== undefined || (bindings !== undefined && ts.isNamespaceImport(bindings))) return true
  return bindings !== undefined && bindings.elements.some((element) => !element.isTypeOnly)
}

/** Each file's relative value imports, resolved to files. */
const valueImports = (files: ReadonlyArray<string>): Map<string, Array<string>> => {
  const graph = new Map<string, Array<string>>()
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest)
    const edges: Array<string> = []
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue
      const specifier = statement.moduleSpecifier
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) continue
      if (isValueEdge(statement)) edges.push(path.resolve(path.dirname(file), specifier.text.replace(/\.js$/, ".ts")))
    }
    graph.set(file, edges)
  }
  return graph
}

/** The strongly connected groups of more than one file (Tarjan). */
const cycles = (graph: Map<string, Array<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const found: Array<Array<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!))
    }
    if (low.get(file) !== index.get(file)) return
    const group: Array<string> = []
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      group.push(top)
      if (top === file) break
    }
    if (group.length > 1) found.push(group)
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

describe("value import cycles", () => {
  it("finds a cycle where there is one, through value imports only", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cycles-"))
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), `import { b } from "./b.js"\nexport const a = 1\n`)
      fs.writeFileSync(path.join(dir, "b.ts"), `import { a } from "./a.js"\nexport const b = 2\n`)
      fs.writeFileSync(path.join(dir, "c.ts"), `import type { d } from "./d.js"\nexport const c = 3\n`)
      fs.writeFileSync(path.join(dir, "d.ts"), `import { type c } from "./c.js"\nexport const d = 4\n`)
      const found = cycles(valueImports(sourceFiles(dir))).map((group) => group.map((f) => path.basename(f)).sort())
      expect(found).toEqual([["a.ts", "b.ts"]])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  for (const pkg of fs.readdirSync(packagesDir).filter((p) => fs.existsSync(path.join(packagesDir, p, "src")))) {
    it(`packages/${pkg}/src has none`, () => {
      const src = path.join(packagesDir, pkg, "src")
      const found = cycles(valueImports(sourceFiles(src))).map((group) => group.map((f) => path.relative(src, f)))
      expect(found).toEqual([])
    })
  }
})
