/**
 * One instance for the Redis configuration of `pnpm bench` (`BENCH_ONLY=redis`), as a process:
 * our `McpServer` with `echo` over streamable HTTP, its sessions in memory (`memory`) or in a
 * Redis fleet (`redis <url> <prefix> <id>`), JSON answers (`--json`) or SSE with the event store.
 * Prints `listening <port>`; on an IPC `stats` message answers with its CPU time (µs) and the
 * Redis commands it sent.
 *
 * @since 0.1.0
 */
import * as HttpServer from "effect/http/HttpServer"
import type * as EventStore from "@effect-mcp/mcp/EventStore"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import type * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import { RedisClient, RedisEventStore, RedisSessionStore } from "@effect-mcp/redis"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { ECHO_TOOL, listeningLine } from "./common.js"

const [backend, url, prefix, id] = process.argv.slice(2).filter((a) => !a.startsWith("--"))
const json = process.argv.includes("--json")

const Echo = McpServer.tool({
  name: ECHO_TOOL,
  description: "Echoes the text back",
  parameters: Schema.Struct({ text: Schema.String }),
  // a handler that runs code, as the main configurations' headline echo (see `ECHO_TOOL`)
  handler: ({ text }) => Effect.sync(() => text)
})

let commands = () => 0

const stores: Effect.Effect<
  { readonly sessionStore?: SessionStore.SessionStoreShape; readonly eventStore: EventStore.EventStoreShape | true | undefined },
  never,
  import("effect/Scope").Scope
> = backend === "redis"
  ? Effect.gen(function*() {
    const client = yield* RedisClient.make({
      url: url!,
      prefix: prefix!,
      // under valgrind (7c1a07c:scratchpad/perf/redisprobe.mjs) an answer can take longer than the default 2 s
      ...(process.env.BENCH_REDIS_TIMEOUT_MS ? { commandTimeout: Number(process.env.BENCH_REDIS_TIMEOUT_MS) } : {})
    })
    commands = client.commands
    const sessionStore = yield* RedisSessionStore.make(client, { instanceId: id! })
    return { sessionStore, eventStore: json ? undefined : yield* RedisEventStore.make(client) }
  })
  : Effect.succeed({ eventStore: json ? undefined : true })

const program = Effect.gen(function*() {
  const options = yield* stores
  const context = yield* Layer.build(
    NodeStreamableHttp.layer({
      port: 0,
      jsonResponse: json,
      ...options,
      // probes under valgrind (7c1a07c:scratchpad/perf/redisprobe.mjs) raise the SSE fast-path window, as serverOurs does
      ...(process.env.BENCH_SSE_FAST_PATH_MS ? { sseFastPath: Number(process.env.BENCH_SSE_FAST_PATH_MS) } : {})
    }).pipe(
      Layer.provideMerge(McpServer.register(Echo)),
      Layer.provideMerge(McpServer.layer({ name: "bench-redis", version: "1.0.0" }))
    )
  )
  const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
  process.on("message", (message) => {
    if (message !== "stats") return
    const cpu = process.cpuUsage()
    process.send?.({ cpuUs: cpu.user + cpu.system, userUs: cpu.user, commands: commands() })
  })
  process.stdout.write(listeningLine("port" in server.address ? server.address.port : 0))
  return yield* Effect.never
})

process.once("SIGTERM", () => process.exit(0))
Effect.runPromise(Effect.scoped(program)).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench server (redis) failed: ${String(error)}\n`)
    process.exit(1)
  }
)
