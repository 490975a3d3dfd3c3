/**
 * `pnpm test:runtimes`: the same fetch-handler module (`src/server.ts`, wrapped by `src/bun.ts`,
 * `src/deno.ts` and `src/worker.ts`, bundled with esbuild) under Bun, Deno and workerd
 * (miniflare, local), each driven from Node by our client and the official v2 client over both
 * eras (and the v1 SDK on 2025): a tool call with progress, sampling and elicitation, DELETE; the standing GET held, and a
 * call kept quiet, longer than the runtime's idle cut (Bun's is 10 s: a real wait, the two at
 * once). On workerd, 2025 sessions are off by default (`sessions`): 2025 calls are answered per
 * POST, their reverse calls refused saying why, GET 405; 2026-07-28 gets everything.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { official, officialV1, ours, POST_HEADERS, standingGetHeld, type Target } from "../drive.js"

const pkg = fileURLToPath(new URL("../../", import.meta.url))
const bin = (name: string) => path.join(pkg, "node_modules", ".bin", name)
const out = fs.mkdtempSync(path.join(os.tmpdir(), "effect-mcp-runtimes-"))

/** Bundles an entry of `src/` for a runtime (esbuild, the workspace's sources). */
const bundle = async (entry: string, conditions: ReadonlyArray<string>): Promise<string> => {
  const esbuild = await import("esbuild")
  const outfile = path.join(out, `${entry}.mjs`)
  await esbuild.build({
    absWorkingDir: pkg,
    entryPoints: [`src/${entry}.ts`],
    outfile,
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    conditions: [...conditions, "effect-mcp-source"],
    logLevel: "warning"
  })
  return outfile
}

/** Starts a runtime's listener: the URL it prints (`listening on <url>`), and its process. */
const listen = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ readonly url: string; readonly child: ChildProcess }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: out, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const timer = setTimeout(() => reject(new Error(`${command} did not listen within 30 s:\n${output}`)), 30_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const found = /listening on (\S+)/.exec(output)
      if (found !== null) {
        clearTimeout(timer)
        resolve({ url: found[1]!, child })
      }
    }
    child.stdout!.on("data", read)
    child.stderr!.on("data", read)
    child.on("exit", (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)))
  })

interface Runtime {
  readonly name: string
  /** The runtime's idle cut of a quiet request, if it has one. */
  readonly idleCutMs: number
  /** Whether 2025 clients get sessions there (not on workerd, by default). */
  readonly sessions: boolean
  readonly start: () => Promise<{ readonly url: string; readonly stop: () => Promise<void> }>
}

const killed = (child: ChildProcess) => async () => {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))])
  if (child.exitCode === null) child.kill("SIGKILL")
}

const RUNTIMES: ReadonlyArray<Runtime> = [
  {
    name: "Bun",
    idleCutMs: 10_000,
    sessions: true,
    start: async () => {
      const { child, url } = await listen(bin("bun"), ["run", await bundle("bun", ["bun"])])
      return { url, stop: killed(child) }
    }
  },
  {
    name: "Deno",
    idleCutMs: 0,
    sessions: true,
    start: async () => {
      const { child, url } = await listen(bin("deno"), ["run", "--allow-net", "--allow-env", await bundle("deno", ["deno"])], {
        DENO_NO_UPDATE_CHECK: "1",
        DENO_DIR: path.join(out, "deno-dir")
      })
      return { url, stop: killed(child) }
    }
  },
  {
    name: "workerd",
    idleCutMs: 0,
    sessions: false,
    start: async () => {
      const { Miniflare } = await import("miniflare")
      const mf = new Miniflare({
        modules: true,
        scriptPath: await bundle("worker", ["workerd", "worker"]),
        modulesRoot: out,
        compatibilityDate: "2026-07-01",
        host: "127.0.0.1",
        port: 0
      })
      const url = new URL("/mcp", await mf.ready).href
      return { url, stop: () => mf.dispose() }
    }
  }
]

/** Long enough to pass every runtime's idle cut (Bun's 10 s), short enough for the CI step. */
const HOLD_MS = 12_000

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    let target: Target
    let stop: () => Promise<void> = async () => {}
    beforeAll(async () => {
      const started = await runtime.start()
      stop = started.stop
      target = { url: started.url, fetch: globalThis.fetch }
    }, 60_000)
    afterAll(() => stop(), 20_000)

    const expect = { reverseCalls: runtime.sessions, sessions: runtime.sessions }
    for (const era of ["2025", "2026-07-28"] as const) {
      it.live(`ours, ${era}`, () => Effect.asVoid(ours(target, era, expect)))
      it.live(`official v2, ${era}`, () => Effect.promise(() => official(target, era, expect)))
    }
    it.live("official v1 SDK, 2025", () => Effect.promise(() => officialV1(target, expect)))

    if (runtime.sessions) {
      it.live(`the standing GET held ${HOLD_MS / 1000} s and a call quiet as long, at once`, () =>
        Effect.gen(function*() {
          const quiet = Effect.promise(async () => {
            const response = await target.fetch(target.url, {
              method: "POST",
              headers: { ...POST_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "quiet" },
              body: JSON.stringify({
                jsonrpc: "2.0",
                id: 1,
                method: "tools/call",
                params: {
                  name: "quiet",
                  arguments: { ms: HOLD_MS },
                  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }
                }
              })
            })
            return { status: response.status, text: await response.text() }
          })
          const [, answer] = yield* Effect.all([Effect.promise(() => standingGetHeld(target, HOLD_MS)), quiet], { concurrency: 2 })
          assert.strictEqual(answer.status, 200)
          assert.include(answer.text, `quiet for ${HOLD_MS} ms`)
        }), 60_000)
    } else {
      it.live("2025 without sessions: GET is 405, answered at once", () =>
        Effect.gen(function*() {
          const get = yield* Effect.promise(() => target.fetch(target.url, { headers: { accept: "text/event-stream" } }))
          assert.strictEqual(get.status, 405)
          yield* Effect.promise(() => get.text())
        }))
    }
  })
}

afterAll(() => fs.rmSync(out, { recursive: true, force: true }))
