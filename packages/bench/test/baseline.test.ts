import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bundled } from "../../../vitest.bundled.js"
import { assertOwnSources, assertSameEffectMajor, baselineWorkspaces, linkNodeModules, workspaceOf } from "../src/baseline.js"

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

describe("the baseline's layout (the Effect 4 port in next/ until it replaces packages/)", () => {
  /** A repository: the Effect 3 workspace at the root, the port in `next/`, both installed. */
  const repository = () => {
    const repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-layout-")))
    for (const dir of ["packages/bench/node_modules", "next/packages/bench/node_modules"]) {
      fs.mkdirSync(path.join(repo, dir), { recursive: true })
    }
    return repo
  }
  const tree = (repo: string, dirs: ReadonlyArray<string>) => {
    const t = path.join(repo, "next/packages/bench/bundle/base-x")
    for (const dir of dirs) fs.mkdirSync(path.join(t, dir), { recursive: true })
    return t
  }

  it("builds a commit that has next/ from next/, with this checkout's next/ npm packages", () => {
    const repo = repository()
    const t = tree(repo, ["packages/bench", "next/packages/bench"])
    expect(workspaceOf(t)).toBe(path.join(t, "next"))
    expect(baselineWorkspaces(repo, t)).toEqual({ ours: path.join(repo, "next"), theirs: path.join(t, "next") })
  })

  it("builds a commit without next/ from its packages/, with this checkout's root npm packages", () => {
    const repo = repository()
    const t = tree(repo, ["packages/bench"])
    expect(workspaceOf(t)).toBe(t)
    expect(baselineWorkspaces(repo, t)).toEqual({ ours: repo, theirs: t })
  })

  it("refuses a layout this checkout has no installed workspace for", () => {
    const repo = repository()
    fs.rmSync(path.join(repo, "packages"), { recursive: true })
    const t = tree(repo, ["packages/bench"])
    expect(() => baselineWorkspaces(repo, t)).toThrow(/no installed workspace there/)
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
