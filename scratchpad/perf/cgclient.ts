// A stdio MCP client (ours, official or floor) made to be counted by callgrind from outside (cgstdio.mjs):
// spawns the server given, warms up, prints READY and blocks until a line comes on stdin; then makes N calls (CONC
// in flight), prints DONE and blocks again before it exits. The counting window is between the two.
//   node out/cgclient.js ours|official|floor WARM N CONC -- node server.js --stdio
// Ours is driven as the bench drives it: McpClient (era 2025) over NodeStdio.layerClient, one `echo` effect
// yielded in a loop.
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { spawn } from "node:child_process"
import * as fs from "node:fs"

const argv = process.argv.slice(2)
const [impl, warmArg, nArg, concArg] = argv
const warm = Number(warmArg)
const n = Number(nArg)
const conc = Number(concArg ?? 1)
const cmd = argv.slice(argv.indexOf("--") + 1)
const ARGS = { text: "hello, model context protocol" }
// WARM64=k: k more warm-up calls at 64 in flight after the sequential ones (as the bench's warm-up phase)
const warm64 = Number(process.env.WARM64 ?? 0)
// WARMSEQ=k: then k more sequential warm-up calls (after the 64 in flight: does the next sequential window still re-warm?)
const warmSeq = Number(process.env.WARMSEQ ?? 0)
// WARM64B=k: and then k more at 64 in flight (a second sequential→64→sequential transition, as the bench's phases go)
const warm64b = Number(process.env.WARM64B ?? 0)

// the window is marked synchronously (fs.writeSync on fd 1, then a blocking fs.readSync of fd 0 until the
// counter writes a line), with no stream, promise or effect of its own: a new kind of stream in this process
// makes Node's stream code polymorphic, a promise resolved from elsewhere deoptimizes the Effect run loop, and
// the re-optimization that follows would be counted
/** CPU µs of this process (all threads) and of its main thread alone (Linux schedstat). */
const cpuNow = () => {
  const c = process.cpuUsage()
  const main = Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000
  return { all: c.user + c.system, main, user: c.user, system: c.system }
}
let cpuAtReady: { all: number; main: number; user: number; system: number } | undefined
const markSync = (word: string) => {
  // CPU=1: the window's CPU per call, all threads and the main thread's, on stderr (run natively, not under valgrind)
  if (process.env.CPU === "1") {
    const now = cpuNow()
    if (cpuAtReady === undefined) cpuAtReady = now
    else process.stderr.write(`${impl}: ${((now.all - cpuAtReady.all) / n).toFixed(1)} µs CPU per call, main thread ${((now.main - cpuAtReady.main) / n).toFixed(1)}, user ${((now.user - cpuAtReady.user) / n).toFixed(1)}, system ${((now.system - cpuAtReady.system) / n).toFixed(1)}\n`)
  }
  fs.writeSync(1, `${word}\n`)
  const buf = Buffer.alloc(64)
  for (;;) {
    try {
      fs.readSync(0, buf, 0, 64, null) // a line, or the end of stdin
      return
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5) // a non-blocking stdin: poll
    }
  }
}
const mark = async (word: string) => markSync(word)

const promiseRun = (call: () => Promise<unknown>) => async (count: number) => {
  let left = count
  await Promise.all(Array.from({ length: conc }, async () => {
    while (left-- > 0) await call()
  }))
}

const concRun = async (call: () => Promise<unknown>, count: number) => {
  let left = count
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (left-- > 0) await call()
  }))
}

// SERIES=k (sequential only): the window is made in chunks of k calls, and the main thread's CPU per call of each
// chunk is printed on stderr after DONE (where a window's CPU goes: JIT warm-up at its start, or steady)
const series = Number(process.env.SERIES ?? 0)
const mainNow = () => Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000
const chunks: Array<number> = []
const printSeries = () => {
  if (series > 0) process.stderr.write(`${impl}: main-thread µs per call by chunk of ${series}: ${chunks.map((c) => (c / series).toFixed(0)).join(" ")}\n`)
}

const runPromises = async (call: () => Promise<unknown>, close: () => Promise<void>) => {
  const run = promiseRun(call)
  await run(warm)
  if (warm64 > 0) await concRun(call, warm64)
  if (warmSeq > 0) await run(warmSeq)
  if (warm64b > 0) await concRun(call, warm64b)
  await mark("READY")
  if (series > 0) {
    for (let done = 0; done < n; done += series) {
      const t = mainNow()
      await run(series)
      chunks.push(mainNow() - t)
    }
  } else await run(n)
  await mark("DONE")
  printSeries()
  await close()
}

const ours = () => {
  const program = Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const echo = client.callTool("echo", ARGS)
    const run = (count: number) =>
      conc === 1
        ? Effect.gen(function*() {
          for (let i = 0; i < count; i++) yield* echo
        })
        : Effect.suspend(() => {
          let left = count
          const worker = Effect.whileLoop({ while: () => left-- > 0, body: () => echo, step: () => {} })
          return Effect.forEach(Array.from({ length: conc }), () => worker, { concurrency: "unbounded", discard: true })
        })
    yield* run(warm)
    const run64 = (count: number) =>
      Effect.suspend(() => {
        let left = count
        const worker = Effect.whileLoop({ while: () => left-- > 0, body: () => echo, step: () => {} })
        return Effect.forEach(Array.from({ length: 64 }), () => worker, { concurrency: "unbounded", discard: true })
      })
    if (warm64 > 0) yield* run64(warm64)
    if (warmSeq > 0) yield* run(warmSeq)
    if (warm64b > 0) yield* run64(warm64b)
    yield* Effect.sync(() => markSync("READY"))
    if (series > 0) {
      for (let done = 0; done < n; done += series) {
        const t = mainNow()
        yield* run(series)
        chunks.push(mainNow() - t)
      }
    } else yield* run(n)
    yield* Effect.sync(() => markSync("DONE"))
    printSeries()
  })
  const layer = McpClient.layer({ name: "cg-ours", version: "1", era: "2025" }).pipe(
    Layer.provide(NodeStdio.layerClient({ command: cmd[0]!, args: cmd.slice(1) }))
  )
  return Effect.runPromise(program.pipe(Effect.provide(layer)))
}

const official = async () => {
  const client = new Client({ name: "cg-official", version: "1" })
  const transport = new StdioClientTransport({ command: cmd[0]!, args: cmd.slice(1), stderr: "inherit" })
  await client.connect(transport)
  await runPromises(() => client.callTool({ name: "echo", arguments: ARGS }, undefined, { timeout: 600_000 }), () => client.close())
}

const floor = async () => {
  const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
  const pending = new Map<number, (r: unknown) => void>()
  let nextId = 0
  let parts: Array<Buffer> = []
  child.stdout.on("data", (chunk: Buffer) => {
    let start = 0
    let nl = chunk.indexOf(10, start)
    while (nl !== -1) {
      const line = parts.length === 0
        ? chunk.toString("utf8", start, nl)
        : Buffer.concat([...parts, chunk.subarray(start, nl)]).toString("utf8")
      parts = []
      const response = JSON.parse(line) as { id: number }
      const resolve = pending.get(response.id)
      pending.delete(response.id)
      resolve?.(response)
      start = nl + 1
      nl = chunk.indexOf(10, start)
    }
    if (start < chunk.length) parts.push(chunk.subarray(start))
  })
  const request = (method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++
      pending.set(id, resolve)
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n")
    })
  await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "f", version: "1" } })
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
  await runPromises(() => request("tools/call", { name: "echo", arguments: ARGS }), async () => {
    child.stdin.end()
  })
}

const main = impl === "ours" ? ours : impl === "official" ? official : floor
main().then(() => process.exit(0), (e) => {
  console.error(e)
  process.exit(1)
})
