/**
 * Our server: `McpServer` with `echo`, `blob` and `stats`, over stdio
 * (`NodeStdio.layerServer`) or streamable HTTP (`NodeStreamableHttp.layer`).
 *
 * @since 0.1.0
 */
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as v8 from "node:v8"
import { blobText, ECHO_SUCCEED_TOOL, ECHO_TOOL, listeningLine, parseServeMode, selfStats } from "./common.js"

/** The headline echo: a handler that runs code (see `ECHO_TOOL`). */
const Echo = McpServer.tool({
  name: ECHO_TOOL,
  description: "Echoes the text back",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.sync(() => text)
})

/** The best case: an `Effect.succeed` handler, answered as it is made (see `ECHO_SUCCEED_TOOL`). */
const EchoSucceed = McpServer.tool({
  name: ECHO_SUCCEED_TOOL,
  description: "Echoes the text back (an Effect.succeed handler)",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const Blob = McpServer.tool({
  name: "blob",
  description: "Returns one text content of exactly `bytes` ASCII bytes",
  parameters: Schema.Struct({ bytes: Schema.Int }),
  handler: ({ bytes }) => Effect.sync(() => blobText(bytes))
})

const Stats = McpServer.tool({
  name: "stats",
  description: "This process's CPU and memory, optionally after a forced GC",
  parameters: Schema.Struct({ gc: Schema.optional(Schema.Boolean), snapshot: Schema.optional(Schema.String) }),
  handler: ({ gc, snapshot }) =>
    Effect.sync(() => {
      const stats = selfStats(gc === true)
      // a heap snapshot for memory investigations (BENCH_SNAPSHOT in the client)
      if (snapshot !== undefined) v8.writeHeapSnapshot(snapshot)
      return JSON.stringify(stats)
    })
})

const ServerLive = McpServer.register(Echo, EchoSucceed, Blob, Stats).pipe(
  Layer.provideMerge(McpServer.layer({ name: "bench-ours", version: "1.0.0" }))
)

const mode = parseServeMode(process.argv.slice(2))

const program: Effect.Effect<void, unknown> = mode._tag === "stdio"
  ? McpServer.run.pipe(Effect.provide(ServerLive), Effect.provide(NodeStdio.layerServer()))
  // loaded only for HTTP, so that the stdio server holds what a stdio-only server would
  : Effect.promise(() => Promise.all([import("@effect-mcp/node/NodeStreamableHttp"), import("effect/http/HttpServer")])).pipe(
    Effect.flatMap(([NodeStreamableHttp, HttpServer]) =>
      Effect.gen(function*() {
        const server = yield* HttpServer.HttpServer
        const port = "port" in server.address ? server.address.port : 0
        process.stdout.write(listeningLine(port))
        return yield* Effect.never
      }).pipe(
        Effect.provide(
          NodeStreamableHttp.layer({ port: 0, ...(process.env.BENCH_SSE_FAST_PATH_MS ? { sseFastPath: Number(process.env.BENCH_SSE_FAST_PATH_MS) } : {}), jsonResponse: mode.json, eventStore: mode.eventStore }).pipe(Layer.provideMerge(ServerLive))
        )
      )
    )
  )

/** `--otel`: tracing on (`src/otel.ts`, loaded only then), for the `ours/ours+otel` pairing. */
const traced: Effect.Effect<void, unknown> = process.argv.includes("--otel")
  ? Effect.flatMap(Effect.promise(() => import("./otel.js")), (Otel) => Effect.provide(program, Otel.layer("bench-server")))
  : program

// a graceful exit on SIGTERM, so that `--cpu-prof` writes its profile
process.once("SIGTERM", () => process.exit(0))

Effect.runPromise(traced).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench server (ours) failed: ${String(error)}\n`)
    process.exit(1)
  }
)
