import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bundled } from "../../../vitest.bundled.js"
import {
  assertOwnSources,
  assertSameEffectMajor,
  clearOtherNodeModules,
  dependenciesOf,
  linkNodeModules,
  workspaceOf
} from "../src/baseline.js"

/**
 * A checkout as pnpm lays it out (`packages/bench/node_modules/@effect-mcp/mcp` a relative
 * link to `../../../mcp`, an npm package linked from elsewhere) with a baseline tree under
 * `packages/bench/bundle/base-x`, as `run.ts` makes it.
 */
const checkout = () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-baseline-")))
  const file = (p: string, text = "") => {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true })
    fs.writeFileSync(path.join(root, p), text)
  }
  file("packages/mcp/src/a.ts", "export const a = 'today'")
  file("store/effect/index.js")
  fs.mkdirSync(path.join(root, "packages/bench/node_modules/@effect-mcp"), { recursive: true })
  fs.symlinkSync("../../../mcp", path.join(root, "packages/bench/node_modules/@effect-mcp/mcp"))
  fs.symlinkSync(path.join(root, "store/effect"), path.join(root, "packages/bench/node_modules/effect"))
  const tree = path.join(root, "packages/bench/bundle/base-x")
  file("packages/bench/bundle/base-x/packages/mcp/src/a.ts", "export const a = 'then'")
  fs.mkdirSync(path.join(tree, "packages/bench/bundle"), { recursive: true })
  return { root, tree }
}

describe("the baseline's tree", () => {
  it("resolves the workspace packages to the commit's own, npm packages to this checkout's", () => {
    const { root, tree } = checkout()
    linkNodeModules(root, tree)
    const modules = path.join(tree, "packages/bench/node_modules")
    expect(fs.realpathSync(path.join(modules, "@effect-mcp/mcp"))).toBe(path.join(tree, "packages/mcp"))
    expect(fs.realpathSync(path.join(modules, "effect"))).toBe(path.join(root, "store/effect"))
  })

  it("repairs the old layout (one link to this checkout's node_modules)", () => {
    const { root, tree } = checkout()
    fs.symlinkSync(path.join(root, "packages/bench/node_modules"), path.join(tree, "packages/bench/node_modules"))
    // what the old layout resolved: today's sources
    expect(fs.realpathSync(path.join(tree, "packages/bench/node_modules/@effect-mcp/mcp"))).toBe(path.join(root, "packages/mcp"))
    linkNodeModules(root, tree)
    expect(fs.lstatSync(path.join(tree, "packages/bench/node_modules")).isSymbolicLink()).toBe(false)
    expect(fs.realpathSync(path.join(tree, "packages/bench/node_modules/@effect-mcp/mcp"))).toBe(path.join(tree, "packages/mcp"))
  })

  it("refuses a bundle compiled from this checkout's sources", () => {
    const { root, tree } = checkout()
    const bundle = path.join(tree, "packages/bench/bundle")
    const map = (sources: ReadonlyArray<string>) =>
      fs.writeFileSync(path.join(bundle, "run.js.map"), JSON.stringify({ version: 3, sources, mappings: "" }))
    map([path.relative(bundle, path.join(tree, "packages/mcp/src/a.ts"))])
    expect(() => assertOwnSources(root, tree, bundle)).not.toThrow()
    map([path.relative(bundle, path.join(root, "packages/mcp/src/a.ts"))])
    expect(() => assertOwnSources(root, tree, bundle)).toThrow(/not its commit's code: 1 files of this checkout \(packages\/mcp\/src\/a\.ts/)
    map([])
    expect(() => assertOwnSources(root, tree, bundle)).toThrow(/no source from its tree/)
  })
})

describe("the baseline's npm packages", () => {
  /** A workspace with `files` (path → text) under a new temporary directory. */
  const workspace = (files: Record<string, string>) => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-deps-")))
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      fs.writeFileSync(path.join(dir, file), text)
    }
    return dir
  }
  const bench = (effect: string) => JSON.stringify({ dependencies: { effect } })
  const installed = { "node_modules/.modules.yaml": "" }

  it("links this checkout's when its lockfile is ours byte for byte, installs its own when it differs", () => {
    const ours = workspace({ ...installed, "pnpm-lock.yaml": "lock: 4" })
    expect(dependenciesOf(ours, workspace({ "pnpm-lock.yaml": "lock: 4" }))).toEqual({ mode: "link", reason: "its pnpm-lock.yaml is ours" })
    // the last Effect 3 commit run from the Effect 4 tree
    expect(dependenciesOf(ours, workspace({ "pnpm-lock.yaml": "lock: 3" }))).toEqual({
      mode: "install",
      reason: "its pnpm-lock.yaml differs from ours"
    })
  })

  it("without a lockfile on a side, links only for the same effect major", () => {
    const ours = workspace({ ...installed, "packages/bench/package.json": bench("~4.1.5") })
    expect(dependenciesOf(ours, workspace({ "packages/bench/package.json": bench("^4.0.0") })).mode).toBe("link")
    expect(dependenciesOf(ours, workspace({ "packages/bench/package.json": bench("^3.22.4") }))).toEqual({
      mode: "install",
      reason: "its bench wants effect ^3.22.4, ours ~4.1.5"
    })
  })

  it("installs its own when this checkout is not installed", () => {
    const ours = workspace({ "pnpm-lock.yaml": "lock: 4" })
    expect(dependenciesOf(ours, workspace({ "pnpm-lock.yaml": "lock: 4" })).mode).toBe("install")
  })

  it("clears node_modules of the other kind only: links before an install, an install before links", () => {
    const linked = workspace({ "node_modules/effect/index.js": "", "packages/bench/node_modules/x/index.js": "" })
    clearOtherNodeModules(linked, "link")
    expect(fs.existsSync(path.join(linked, "packages/bench/node_modules"))).toBe(true)
    clearOtherNodeModules(linked, "install")
    expect(fs.existsSync(path.join(linked, "node_modules"))).toBe(false)
    expect(fs.existsSync(path.join(linked, "packages/bench/node_modules"))).toBe(false)
    const pnpm = workspace({ ...installed, "packages/bench/node_modules/x/index.js": "" })
    clearOtherNodeModules(pnpm, "install")
    expect(fs.existsSync(path.join(pnpm, "node_modules/.modules.yaml"))).toBe(true)
    clearOtherNodeModules(pnpm, "link")
    expect(fs.existsSync(path.join(pnpm, "node_modules"))).toBe(false)
  })

  it("finds a commit's bench in next/ while the port lived there, else at its root", () => {
    const t = workspace({ "next/packages/bench/package.json": "{}", "packages/bench/package.json": "{}" })
    expect(workspaceOf(t)).toBe(path.join(t, "next"))
    fs.rmSync(path.join(t, "next"), { recursive: true })
    expect(workspaceOf(t)).toBe(t)
  })

  it("refuses a bench whose effect major is not the one linked", () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-major-")))
    const bench = path.join(workspace, "packages/bench")
    fs.mkdirSync(path.join(bench, "node_modules/effect"), { recursive: true })
    fs.writeFileSync(path.join(bench, "package.json"), JSON.stringify({ dependencies: { effect: "^3.22.4" } }))
    fs.writeFileSync(path.join(bench, "node_modules/effect/package.json"), JSON.stringify({ version: "4.1.5" }))
    expect(() => assertSameEffectMajor(workspace)).toThrow(/wants effect \^3\.22\.4 and its node_modules give 4\.1\.5/)
    fs.writeFileSync(path.join(bench, "node_modules/effect/package.json"), JSON.stringify({ version: "3.22.4" }))
    expect(() => assertSameEffectMajor(workspace)).not.toThrow()
  })
})

/** Runs a node:http server under the wire check, makes `requests` against it, returns the counts. */
const underWireCheck = async (requests: (port: number) => Promise<void>) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-wire-"))
  const file = path.join(dir, "wire.json")
  const server = path.join(dir, "server.mjs")
  // a session per POST without one, a held GET for a session, a 405 for a GET without
  fs.writeFileSync(
    server,
    `import http from "node:http"
let n = 0
const s = http.createServer((req, res) => {
  if (req.method === "GET") {
    if (req.headers["mcp-session-id"] === undefined) return res.writeHead(405).end()
    res.writeHead(200, { "content-type": "text/event-stream" }); res.write(": open\\n\\n"); return
  }
  req.resume(); req.on("end", () => {
    if (req.headers["mcp-session-id"] === undefined) res.setHeader("mcp-session-id", String(n++))
    res.writeHead(200).end("{}")
  })
})
s.listen(0, "127.0.0.1", () => process.stdout.write("LISTENING " + s.address().port + "\\n"))`
  )
  const child = spawn(process.execPath, ["--import", bundled("wire-check"), server], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, BENCH_WIRE_FILE: file }
  })
  try {
    const port = await new Promise<number>((resolve) => {
      let text = ""
      child.stdout.on("data", (d: Buffer) => {
        text += d.toString()
        const m = /LISTENING (\d+)/.exec(text)
        if (m !== null) resolve(Number(m[1]))
      })
    })
    await requests(port)
    await new Promise((resolve) => setTimeout(resolve, 300))
    return JSON.parse(fs.readFileSync(file, "utf8")) as { sessions: number; maxHeldGets: number }
  } finally {
    child.kill()
  }
}

describe("the sessions phase's wire check", () => {
  it("counts sessions handed out and standing GETs held at once, not stateless answers or refused GETs", async () => {
    const counts = await underWireCheck(async (port) => {
      const url = `http://127.0.0.1:${port}/`
      for (let i = 0; i < 3; i++) await (await fetch(url, { method: "POST", body: "{}" })).text()
      // with a session id: not a session handed out
      await (await fetch(url, { method: "POST", body: "{}", headers: { "mcp-session-id": "0" } })).text()
      expect((await fetch(url)).status).toBe(405)
      const held = new AbortController()
      const gets = await Promise.all([0, 1].map((i) => fetch(url, { headers: { "mcp-session-id": String(i) }, signal: held.signal })))
      expect(gets.map((r) => r.status)).toEqual([200, 200])
      await new Promise((resolve) => setTimeout(resolve, 200))
      held.abort()
    })
    expect(counts).toEqual({ sessions: 3, maxHeldGets: 2 })
  })
})
