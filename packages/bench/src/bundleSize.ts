/**
 * Bundle sizes (`BENCH_ONLY=bundle`, and part of a full `pnpm bench`): each entry of
 * `src/bundleEntries/` bundled with esbuild for the browser (minified, ES modules, everything
 * inlined, our packages from their sources), its size raw and gzipped (level 9), and what it
 * is made of (by package, from esbuild's metafile). Dynamic `import()`s are separate chunks
 * loaded on first use: `initial` is what a page loads before it runs, `total` adds the lazy chunks.
 * The client's budget test (`test/bundleSize.test.ts`) bundles the same entry.
 * @internal
 */
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"

/** This package's folder, wherever this module runs from (`src/`, `bundle/` or a chunk of it). */
const packageDir = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, "package.json")) || !fs.readFileSync(path.join(dir, "package.json"), "utf8").includes('"@effect-mcp/bench"')) {
    const up = path.dirname(dir)
    if (up === dir) throw new Error("bundleSize: the @effect-mcp/bench folder was not found")
    dir = up
  }
  return dir
})()

/** One measured bundle. */
export interface BundleSize {
  readonly id: string
  readonly title: string
  /** The initial chunk: what a page loads before it runs. */
  readonly initial: { readonly raw: number; readonly gzip: number }
  /** Every chunk, the lazy ones too. */
  readonly total: { readonly raw: number; readonly gzip: number }
  /** Bytes in the initial chunk by package (`effect`, `@effect-mcp/mcp`, …), largest first. */
  readonly byPackage: ReadonlyArray<readonly [string, number]>
  /** Every input file of the initial chunk (paths relative to the repository's root). */
  readonly inputs: ReadonlyArray<string>
}

/** An entry to measure: a module of `src/bundleEntries/` (or any file, e.g. a fetch handler of your own). */
export interface BundleEntry {
  readonly id: string
  readonly title: string
  readonly file: string
  /** Export conditions besides the browser's (e.g. `workerd`, `worker` for a fetch handler). */
  readonly conditions?: ReadonlyArray<string> | undefined
}

const entry = (id: string, title: string, file: string, conditions?: ReadonlyArray<string>): BundleEntry => ({
  id,
  title,
  file: path.join(packageDir, "src/bundleEntries", file),
  conditions
})

/**
 * The browser clients and the fetch-handler servers. `BENCH_BUNDLE_SERVER=<file>` measures
 * another fetch-handler module as ours (e.g. one written with `toFetchHandler`).
 */
export const ENTRIES: ReadonlyArray<BundleEntry> = [
  entry("client-ours", "client: ours (McpClient + FetchStreamableHttpClient)", "clientOurs.ts"),
  entry("client-official", "client: official v1 (@modelcontextprotocol/sdk Client + StreamableHTTPClientTransport)", "clientOfficial.ts"),
  entry("client-v2", "client: official v2 (@modelcontextprotocol/client)", "clientV2.ts"),
  process.env.BENCH_BUNDLE_SERVER === undefined
    ? entry("server-ours", "fetch handler: ours (StreamableHttpServer, HttpEffect.toWebHandlerLayer)", "serverOurs.ts", ["worker"])
    : { id: "server-ours", title: `fetch handler: ours (${process.env.BENCH_BUNDLE_SERVER})`, file: path.resolve(process.env.BENCH_BUNDLE_SERVER), conditions: ["worker"] },
  entry("server-official", "fetch handler: official v1 (WebStandardStreamableHTTPServerTransport)", "serverOfficial.ts", ["worker"]),
  entry("server-v2", "fetch handler: official v2 (createMcpHandler)", "serverV2.ts", ["worker"])
]

/** The package a bundled input belongs to (the last `node_modules/<name>` of its path, else our package's folder). */
export const packageOf = (input: string): string => {
  const parts = input.split("/")
  const at = parts.lastIndexOf("node_modules")
  if (at !== -1 && parts[at + 1] !== undefined) {
    return parts[at + 1]!.startsWith("@") ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1]!
  }
  const ours = /(?:^|\/)packages\/([^/]+)\/src\//.exec(input)
  return ours === null ? input : `@effect-mcp/${ours[1]}`
}

const gzip = (bytes: Uint8Array) => zlib.gzipSync(bytes, { level: 9 }).length

/** Bundles one entry into a temporary directory and measures it. */
export const measure = async (e: BundleEntry): Promise<BundleSize> => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `bundle-${e.id}-`))
  try {
    const result = await esbuild.build({
      absWorkingDir: path.resolve(packageDir, "../.."),
      entryPoints: { [e.id]: e.file },
      outdir,
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      splitting: true,
      // our packages from their sources (the first condition of their exports), as the bench's bundles are
      conditions: ["effect-mcp-source", ...(e.conditions ?? [])],
      metafile: true,
      write: true,
      logLevel: "silent",
      legalComments: "none"
    })
    const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"))
    const main = outputs.find(([, o]) => o.entryPoint !== undefined)
    if (main === undefined) throw new Error(`bundle ${e.id}: no entry chunk`)
    // the initial chunk and the chunks it imports statically (shared code split out)
    const initial = new Set<string>()
    const visit = (file: string) => {
      if (initial.has(file)) return
      initial.add(file)
      for (const i of result.metafile.outputs[file]?.imports ?? []) if (i.kind === "import-statement") visit(i.path)
    }
    visit(main[0])
    const root = path.resolve(packageDir, "../..")
    const sizeOf = (files: ReadonlyArray<string>) => {
      let raw = 0
      let gz = 0
      for (const f of files) {
        const bytes = fs.readFileSync(path.resolve(root, f))
        raw += bytes.length
        gz += gzip(bytes)
      }
      return { raw, gzip: gz }
    }
    const byPackage = new Map<string, number>()
    const inputs = new Set<string>()
    for (const f of initial) {
      for (const [input, info] of Object.entries(result.metafile.outputs[f]!.inputs)) {
        inputs.add(input)
        const name = packageOf(input)
        byPackage.set(name, (byPackage.get(name) ?? 0) + info.bytesInOutput)
      }
    }
    return {
      id: e.id,
      title: e.title,
      initial: sizeOf([...initial]),
      total: sizeOf(outputs.map(([f]) => f)),
      byPackage: [...byPackage].sort((a, b) => b[1] - a[1]),
      inputs: [...inputs].sort()
    }
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true })
  }
}

const KiB = (n: number) => `${(n / 1024).toFixed(1)} KiB`

/** The markdown section: one row per bundle, our client and server set against the official ones. */
export const renderBundles = (sizes: ReadonlyArray<BundleSize>): string => {
  const top = (s: BundleSize) =>
    s.byPackage.filter(([name]) => name !== "@effect-mcp/bench").slice(0, 4).map(([name, bytes]) => `${name} ${KiB(bytes)}`).join(", ")
  const rows = sizes.map((s) =>
    `| ${s.title} | ${KiB(s.initial.gzip)} | ${KiB(s.initial.raw)} | ${
      s.total.raw === s.initial.raw ? "-" : `${KiB(s.total.gzip)} (${KiB(s.total.raw)} raw)`
    } | ${top(s)} |`
  )
  const ratio = (a: string, b: string) => {
    const x = sizes.find((s) => s.id === a)
    const y = sizes.find((s) => s.id === b)
    return x === undefined || y === undefined ? undefined : x.initial.gzip / y.initial.gzip
  }
  const line = (label: string, r: number | undefined) => (r === undefined ? [] : [`- ${label}: ${r.toFixed(2)}×`])
  return [
    "esbuild, minified, ES modules, `platform: browser` (fetch handlers also with the `worker` condition), gzip level 9; " +
    "`initial` is what loads before the code runs; `with lazy chunks` adds what dynamic `import()`s load on first use.",
    "",
    "| bundle | initial, gzipped | initial, raw | with lazy chunks, gzipped | largest parts (raw) |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...line("our client ÷ official v1 client (gzipped)", ratio("client-ours", "client-official")),
    ...line("our client ÷ official v2 client (gzipped)", ratio("client-ours", "client-v2")),
    ...line("our fetch handler ÷ official v1 (gzipped)", ratio("server-ours", "server-official")),
    ...line("our fetch handler ÷ official v2 (gzipped)", ratio("server-ours", "server-v2"))
  ].join("\n")
}

/** Measures every entry (in turn: each bundle is one esbuild run of well under a second). */
export const measureAll = async (entries: ReadonlyArray<BundleEntry> = ENTRIES): Promise<ReadonlyArray<BundleSize>> => {
  const sizes: Array<BundleSize> = []
  for (const e of entries) sizes.push(await measure(e))
  return sizes
}
