/**
 * What the Redis backend costs, next to one in-memory process:
 *
 *   node --import tsx --conditions=effect-mcp-source packages/redis/test/bench.ts [calls]
 *
 * Sequential `tools/call`s of our client through the round-robin proxy (one
 * target, or three instances), JSON and SSE (with an event store: memory, or
 * Redis). Everything but Redis runs in this process: CPU per call is the
 * process's (client, proxy and servers together) and Redis's own (`INFO
 * cpu`); Redis commands per call are counted by the instances' clients.
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Redis } from "ioredis"
import { roundRobin } from "../../node/test/roundRobin.js"
import * as RedisClient from "../src/RedisClient.js"
import * as RedisEventStore from "../src/RedisEventStore.js"
import * as RedisSessionStore from "../src/RedisSessionStore.js"
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

const calls = Number(process.argv[2] ?? 1000)

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

interface Config {
  readonly name: string
  readonly backend: "memory" | "redis"
  readonly instances: number
  readonly json: boolean
}

const instance = (config: Config, prefix: string, id: string) =>
  Effect.gen(function*() {
    if (config.backend === "memory") {
      const layer = NodeStreamableHttp.layer({ port: 0, jsonResponse: config.json, eventStore: config.json ? undefined : true })
      const context = yield* Layer.build(layer.pipe(
        Layer.provideMerge(McpServer.register(Echo)),
        Layer.provideMerge(McpServer.layer({ name: "bench", version: "1.0.0" }))
      ))
      const http = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
      return { port: http.address._tag === "TcpAddress" ? http.address.port : 0, commands: () => 0 }
    }
    const client = yield* RedisClient.make({ url: REDIS_URL, prefix })
    const sessionStore = yield* RedisSessionStore.make(client, { instanceId: id })
    const eventStore = config.json ? undefined : yield* RedisEventStore.make(client)
    const layer = NodeStreamableHttp.layer({ port: 0, jsonResponse: config.json, sessionStore, eventStore })
    const context = yield* Layer.build(layer.pipe(
      Layer.provideMerge(McpServer.register(Echo)),
      Layer.provideMerge(McpServer.layer({ name: "bench", version: "1.0.0" }))
    ))
    const http = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    return { port: http.address._tag === "TcpAddress" ? http.address.port : 0, commands: client.commands }
  })

const redisCpu = () =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      const info = await redis.info("cpu")
      const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0)
      return field("used_cpu_user") + field("used_cpu_sys")
    } finally {
      redis.disconnect()
    }
  })

const run = (config: Config) =>
  Effect.scoped(Effect.gen(function*() {
    const prefix = `mcp-bench-${crypto.randomUUID().slice(0, 8)}`
    // the run's keys go with it
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        const redis = new Redis(REDIS_URL)
        try {
          let cursor = "0"
          do {
            const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000)
            cursor = next
            if (keys.length > 0) await redis.del(...keys)
          } while (cursor !== "0")
        } finally {
          redis.disconnect()
        }
      })
    )
    const instances = yield* Effect.forEach(Array.from({ length: config.instances }, (_, i) => `b${i}`), (id) => instance(config, prefix, id))
    const proxy = yield* roundRobin(instances.map((i) => i.port))
    const context = yield* Layer.build(
      McpClient.layer({ name: "bench", version: "1.0.0", era: "2025" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url: proxy.url })))
    )
    const client = yield* McpClient.McpClient.pipe(Effect.provide(context))
    for (let i = 0; i < 100; i++) yield* client.callTool("echo", { text: "warm" })
    const commands0 = instances.reduce((n, i) => n + i.commands(), 0)
    const redis0 = yield* redisCpu()
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < calls; i++) yield* client.callTool("echo", { text: `${i}` })
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    const redisSeconds = (yield* redisCpu()) - redis0
    const commands = instances.reduce((n, i) => n + i.commands(), 0) - commands0
    return {
      config: config.name,
      "calls/s": Math.round(calls / (ms / 1000)),
      "process CPU µs/call": Math.round((cpu.user + cpu.system) / calls),
      "Redis CPU µs/call": Math.round((redisSeconds * 1e6) / calls),
      "Redis commands/call": Number((commands / calls).toFixed(2))
    }
  }))

const configs: ReadonlyArray<Config> = [
  { name: "memory, 1 instance, JSON", backend: "memory", instances: 1, json: true },
  { name: "redis, 1 instance, JSON", backend: "redis", instances: 1, json: true },
  { name: "redis, 3 instances, JSON", backend: "redis", instances: 3, json: true },
  { name: "memory, 1 instance, SSE + event store", backend: "memory", instances: 1, json: false },
  { name: "redis, 1 instance, SSE + event store", backend: "redis", instances: 1, json: false },
  { name: "redis, 3 instances, SSE + event store", backend: "redis", instances: 3, json: false }
]

Effect.runPromise(Effect.forEach(configs, run)).then((rows) => {
  console.table(rows)
  process.exit(0)
})
