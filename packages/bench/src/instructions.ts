/**
 * Server instructions per sequential stdio `tools/call` echo, counted by
 * callgrind (valgrind): each stdio bench server (`BENCH_SERVERS`, default
 * ours and effect-ai) runs twice under `valgrind --tool=callgrind`, driven by
 * a hand-written client (newline JSON, as the floor's): `initialize`, then
 * `BENCH_WARMUP` calls, and the second time `BENCH_CALLS` calls more; the
 * difference of the two runs' instructions (`Ir`, the whole process) divided
 * by `BENCH_CALLS`. (`callgrind_control` cannot reach a process where vgdb
 * may not attach, as in this container: hence two runs, not a toggle.)
 * Instruction counts move little with the machine's load, unlike CPU time.
 *
 *   node scripts/bundle.mjs && node bundle/instructions.js
 *
 * @since 0.1.0
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ECHO_TEXT, ECHO_TOOL } from "./common.js"

const here = path.dirname(new URL(import.meta.url).pathname)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000)
const CALLS = Number(process.env.BENCH_CALLS ?? 500)
const SCRIPTS: Record<string, string> = {
  ours: "serverOurs.js",
  official: "serverOfficial.js",
  "effect-ai": "serverEffectAi.js",
  floor: "serverFloor.js"
}
const SERVERS = (process.env.BENCH_SERVERS ?? "ours,effect-ai").split(",")

const run = async (name: string, n: number): Promise<number> => {
  const out = path.join(os.tmpdir(), `callgrind-${name}-${process.pid}.out`)
  const child = spawn("valgrind", [
    "--tool=callgrind",
    `--callgrind-out-file=${out}`,
    process.execPath,
    path.join(here, SCRIPTS[name]!),
    "--stdio"
  ], { stdio: ["pipe", "pipe", "ignore"] })
  const pending = new Map<number, () => void>()
  let text = ""
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8")
    let nl = text.indexOf("\n")
    while (nl !== -1) {
      const message = JSON.parse(text.slice(0, nl)) as { readonly id?: number }
      text = text.slice(nl + 1)
      nl = text.indexOf("\n")
      if (typeof message.id === "number") {
        pending.get(message.id)?.()
        pending.delete(message.id)
      }
    }
  })
  let nextId = 0
  const request = (method: string, params: unknown) =>
    new Promise<void>((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n")
    })
  const calls = async (n: number) => {
    for (let i = 0; i < n; i++) await request("tools/call", { name: ECHO_TOOL, arguments: { text: ECHO_TEXT } })
  }
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "callgrind", version: "1" } })
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
  await calls(n)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  child.stdin.end()
  setTimeout(() => child.kill("SIGTERM"), 10_000).unref()
  await exited
  const totals = fs.readFileSync(out, "utf8").split("\n").find((l) => l.startsWith("totals:") || l.startsWith("summary:"))
  fs.rmSync(out, { force: true })
  return Number(totals!.split(/\s+/)[1])
}

const measure = async (name: string): Promise<number> => {
  const base = await run(name, WARMUP)
  const more = await run(name, WARMUP + CALLS)
  return (more - base) / CALLS
}

const main = async () => {
  process.stdout.write(`node ${process.version}; ${WARMUP} warm-up calls, then ${CALLS} more (server instructions, callgrind, difference of two runs)\n`)
  for (const name of SERVERS) {
    const perCall = await measure(name)
    process.stdout.write(`${name}: ${Math.round(perCall / 1000).toLocaleString("en-US")} k instructions per call\n`)
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`instructions failed: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
