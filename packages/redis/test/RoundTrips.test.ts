/**
 * What the Redis backend costs on the hot path: the Redis commands a
 * sequential `tools/call` on an established session sends.
 */
import * as HttpServer from "effect/http/HttpServer"
import { assert, it } from "@effect/vitest"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as RedisClient from "../src/RedisClient.js"
import * as RedisFleet from "../src/RedisFleet.js"
import { latchProxy, roundTrips } from "./latchProxy.js"
import { describeRedis, REDIS_URL, testPrefix } from "./redis.js"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

/** One instance in this process (its Redis at `url`); the Redis commands it sent so far. */
const instance = (prefix: string, jsonResponse: boolean, url = REDIS_URL) =>
  Effect.gen(function*() {
    const endpoint = Layer.unwrap(Effect.gen(function*() {
      const sessionStore = yield* SessionStore.SessionStore
      const eventStore = yield* EventStore.EventStore
      return NodeStreamableHttp.layer({ port: 0, sessionStore, eventStore, jsonResponse })
    }))
    const context = yield* Layer.build(endpoint.pipe(
      Layer.provideMerge(McpServer.register(Echo)),
      Layer.provideMerge(McpServer.layer({ name: "trips", version: "1.0.0" })),
      // no heartbeat within the test: every command counted is the calls'
      Layer.provideMerge(RedisFleet.layer({ url, prefix, heartbeatInterval: "1 hour", heartbeatTtl: "2 hours" }))
    ))
    const http = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    const redis = yield* RedisClient.RedisClient.pipe(Effect.provide(context))
    return { url: `http://127.0.0.1:${http.address._tag === "UnixPathAddress" ? 0 : http.address.port}/mcp`, redis }
  })

const perCall = (jsonResponse: boolean) =>
  Effect.gen(function*() {
    const prefix = yield* testPrefix
    const { redis, url } = yield* instance(prefix, jsonResponse)
    const context = yield* Layer.build(
      McpClient.layer({ name: "trips", version: "1.0.0", era: "2025" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
    )
    const client = yield* McpClient.McpClient.pipe(Effect.provide(context))
    yield* client.callTool("echo", { text: "warm" })
    // the standing GET and the heartbeat send commands of their own: counted apart
    yield* Effect.sleep("300 millis")
    const before = redis.commands()
    for (let i = 0; i < 20; i++) yield* client.callTool("echo", { text: `${i}` })
    return (redis.commands() - before) / 20
  })

/** The round trips each of 5 sequential calls waits for, its Redis behind a latch. */
const waitedFor = (jsonResponse: boolean) =>
  Effect.gen(function*() {
    const prefix = yield* testPrefix
    const latch = yield* latchProxy(REDIS_URL)
    const { url } = yield* instance(prefix, jsonResponse, latch.url)
    const context = yield* Layer.build(
      McpClient.layer({ name: "trips", version: "1.0.0", era: "2025" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
    )
    const client = yield* McpClient.McpClient.pipe(Effect.provide(context))
    yield* client.callTool("echo", { text: "warm" })
    const rounds: Array<number> = []
    for (let i = 0; i < 5; i++) {
      // what the previous call left to send after its answer goes first
      yield* Effect.sleep("100 millis")
      rounds.push(yield* roundTrips(latch, client.callTool("echo", { text: `${i}` })))
    }
    return rounds
  })

describeRedis("Redis round trips of a sequential tools/call on an established session", () => {
  it.live("JSON responses: one (the session's record, loaded and its TTL restarted in one script)", () =>
    Effect.gen(function*() {
      const n = yield* perCall(true)
      // a heartbeat (every second) may fall inside the loop
      assert.isAtLeast(n, 1)
      assert.isBelow(n, 1.2)
    }))

  it.live("SSE responses with the event store: two (the record on the path; the answer's event, stored after it was written)", () =>
    Effect.gen(function*() {
      const n = yield* perCall(false)
      assert.isAtLeast(n, 2)
      assert.isBelow(n, 2.2)
    }))

  it.live("round trips waited for on the path: one in JSON mode and one with SSE and the event store", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* waitedFor(true), [1, 1, 1, 1, 1])
      assert.deepStrictEqual(yield* waitedFor(false), [1, 1, 1, 1, 1])
    }))
})
