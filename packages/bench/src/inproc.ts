/**
 * The engine without the operating system: client and server in one process,
 * over the in-memory transport, over stdio framing on in-process streams, or
 * as bare `Protocol` engines. No pipes or sockets, so a `--cpu-prof` profile
 * shows only our code. A profiling aid, not part of `pnpm bench`.
 *
 *   node --cpu-prof bundle/inproc.js [memory|stdio|protocol] [seq|conc] [calls] [sync|succeed] [otel]
 *
 * With `otel`, tracing on in both (`src/otel.ts`: the tracer and the metrics of `ours/ours+otel`).
 *
 * The echo handler is `Effect.sync(() => text)` (a handler that runs code, as the bench's headline
 * rows), or with `succeed` the best case, `Effect.succeed(text)` (answered as it is made).
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as NdJson from "@effect-mcp/node/NdJson"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import type { TransportShape } from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { PassThrough } from "node:stream"
import { ECHO_TEXT } from "./common.js"

const [mode = "memory", shape = "seq", countArg = "20000", handler = "sync", otel = ""] = process.argv.slice(2)
const count = Number(countArg)

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => (handler === "succeed" ? Effect.succeed(text) : Effect.sync(() => text))
})
const ServerLive = McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "inproc", version: "1.0.0" })))

/** A connected pair of transports over NdJson framing on PassThrough streams. */
const stdioPair = Effect.gen(function*() {
  const toServer = new PassThrough()
  const toClient = new PassThrough()
  const server = yield* NodeStdio.makeServer({ stdin: toServer, stdout: toClient })
  const writer = yield* NdJson.makeWriter(toServer)
  const client: TransportShape = { ...Transport.fromStream(NdJson.fromReadable(toClient)), send: (m) => writer.send(m) }
  return { client, server }
})

const pairFor = (m: string) => (m === "stdio" ? stdioPair : Transport.makeMemoryPair({ record: false }))

const measure = <E>(label: string, run: Effect.Effect<void, E>) =>
  Effect.gen(function*() {
    const warm = Math.min(2000, count)
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    yield* run
    const t1 = performance.now()
    const cpu = process.cpuUsage(cpu0)
    process.stdout.write(
      `${label}: ${count} calls, ${((count / (t1 - t0)) * 1000).toFixed(0)} calls/s, ` +
        `${((cpu.user + cpu.system) / count).toFixed(1)} µs CPU per call (client + server)\n`
    )
    void warm
  })

const program = Effect.gen(function*() {
  const pair = yield* pairFor(mode)
  if (mode === "protocol") {
    yield* Protocol.make(pair.server, {
      side: "server",
      onRequest: ({ request }) => {
        const result = () => ({ content: [{ type: "text", text: (request.params as { arguments: { text: string } }).arguments.text }] })
        return handler === "succeed" ? Effect.succeed(result()) : Effect.sync(result)
      },
      onNotification: () => Effect.void
    })
    const client = yield* Protocol.make(pair.client, { side: "client", onRequest: () => Effect.succeed({}), onNotification: () => Effect.void })
    const call = client.request("tools/call", { name: "echo", arguments: { text: ECHO_TEXT } })
    yield* Effect.forEach(Array.from({ length: 2000 }), () => call, { discard: true })
    const run = shape === "seq"
      ? Effect.forEach(Array.from({ length: count }), () => call, { discard: true })
      : Effect.forEach(Array.from({ length: count }), () => call, { discard: true, concurrency: 64 })
    return yield* measure(`protocol ${shape}`, run)
  }
  const server = yield* Layer.build(ServerLive)
  yield* McpServer.run.pipe(Effect.provide(server), Effect.provideService(Transport.Transport, pair.server), Effect.forkScoped)
  const client = yield* McpClient.make({ era: "2025", name: "inproc", version: "1.0.0" }).pipe(
    Effect.provideService(Transport.Transport, pair.client)
  )
  const call = client.callTool("echo", { text: ECHO_TEXT })
  yield* Effect.forEach(Array.from({ length: 2000 }), () => call, { discard: true })
  const run = shape === "seq"
    ? Effect.forEach(Array.from({ length: count }), () => call, { discard: true })
    : Effect.forEach(Array.from({ length: count }), () => call, { discard: true, concurrency: 64 })
  yield* measure(`${mode} ${shape}`, run)
})

const traced: Effect.Effect<void, unknown> = otel === "otel"
  ? Effect.flatMap(Effect.promise(() => import("./otel.js")), (Otel) => Effect.provide(Effect.scoped(program), Otel.layer("inproc")))
  : Effect.scoped(program)

Effect.runPromise(traced).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`inproc failed: ${String(error)}\n`)
    process.exit(1)
  }
)
