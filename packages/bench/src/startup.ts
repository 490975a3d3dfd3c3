/**
 * The start of each bench stdio server (ours, the official SDK's, effect/ai's, the floor): the
 * milliseconds from spawning it to its `initialize` answer, its RSS after that answer (its `stats`
 * tool), and the modules it loaded in its life of an `initialize` and that one call (files, counted
 * by a `module.registerHooks` load hook given with `--import`). Medians of `BENCH_STARTUP_RUNS` starts (default 5), one at a time.
 *
 *   node scripts/bundle.mjs && node bundle/startup.js
 *
 * @since 0.1.0
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { median, MiB, type ProcessStats } from "./common.js"

const here = path.dirname(new URL(import.meta.url).pathname)
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5)
const SERVERS: ReadonlyArray<readonly [string, string]> = [
  ["ours", "serverOurs.js"],
  ["official", "serverOfficial.js"],
  ["effect-ai", "serverEffectAi.js"],
  ["floor", "serverFloor.js"]
]

/** Counts the files a process loads (CommonJS and ESM) and writes the count to `BENCH_MODULES_FILE` as it exits. */
const HOOK = `data:text/javascript,${
  encodeURIComponent(`
import { registerHooks } from "node:module"
import { writeFileSync } from "node:fs"
let files = 0
registerHooks({ load(url, context, next) { if (url.startsWith("file:")) files++; return next(url, context) } })
process.once("exit", () => writeFileSync(process.env.BENCH_MODULES_FILE, String(files)))
`)
}`

interface Start {
  readonly ms: number
  readonly modules: number
  readonly rss: number
}

const startOnce = (script: string): Promise<Start> =>
  new Promise((resolve, reject) => {
    const file = path.join(os.tmpdir(), `bench-modules-${process.pid}-${Date.now()}`)
    const t0 = performance.now()
    const child = spawn(process.execPath, ["--import", HOOK, path.join(here, script), "--stdio"], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, BENCH_MODULES_FILE: file }
    })
    let text = ""
    let ms: number | undefined
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8")
      let nl = text.indexOf("\n")
      while (nl !== -1) {
        const message = JSON.parse(text.slice(0, nl)) as { readonly id?: number; readonly result?: { readonly content?: ReadonlyArray<{ readonly text: string }> } }
        text = text.slice(nl + 1)
        nl = text.indexOf("\n")
        if (message.id === 0) {
          ms = performance.now() - t0
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "stats", arguments: { gc: false } } }) + "\n")
        } else if (message.id === 1) {
          const stats = JSON.parse(message.result!.content![0]!.text) as ProcessStats
          child.once("exit", () => {
            const modules = Number(fs.readFileSync(file, "utf8"))
            fs.rmSync(file, { force: true })
            resolve({ ms: ms!, modules, rss: stats.rss })
          })
          child.stdin.end()
          setTimeout(() => child.kill("SIGTERM"), 3000).unref()
        }
      }
    })
    child.once("error", reject)
    child.once("exit", (code) => {
      if (ms === undefined) reject(new Error(`${script} exited with ${code} before answering initialize`))
    })
    child.stdin.write(JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "startup", version: "1" } }
    }) + "\n")
  })

const main = async () => {
  process.stdout.write(`node ${process.version}, ${os.cpus()[0]?.model ?? "?"}, ${RUNS} starts each (medians)\n`)
  process.stdout.write("| server | spawn → initialize answered (ms) | files loaded (initialize + 1 call) | RSS after initialize (MiB) |\n| --- | ---: | ---: | ---: |\n")
  for (const [name, script] of SERVERS) {
    const starts: Array<Start> = []
    for (let i = 0; i < RUNS; i++) {
      starts.push(await startOnce(script))
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const ms = median(starts.map((s) => s.ms))
    const modules = median(starts.map((s) => s.modules))
    const rss = median(starts.map((s) => s.rss / MiB))
    process.stdout.write(`| ${name} | ${ms.toFixed(0)} | ${modules} | ${rss.toFixed(1)} |\n`)
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`startup failed: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
