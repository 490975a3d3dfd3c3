/**
 * The store contracts (`@effect-mcp/mcp/StoreContract`) against the Redis
 * backend, on a real Redis (a key prefix per rule), in real time: the same
 * rules the in-memory stores pass (packages/mcp/test/StoreContract.test.ts).
 * The session store's rules run against the whole store and against each of
 * its halves alone (`RedisSessionRecords`, `RedisFleetBus`), the other half
 * an in-memory fleet's.
 */
import { it } from "@effect/vitest"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as StoreContract from "@effect-mcp/mcp/StoreContract"
import * as Effect from "effect/Effect"
import * as RedisClient from "../src/RedisClient.js"
import * as RedisEventStore from "../src/RedisEventStore.js"
import * as RedisFleetBus from "../src/RedisFleetBus.js"
import * as RedisSessionRecords from "../src/RedisSessionRecords.js"
import * as RedisSessionStore from "../src/RedisSessionStore.js"
import * as RedisTaskStore from "../src/RedisTaskStore.js"
import { describeRedis, REDIS_URL, testPrefix } from "./redis.js"

const register = (rules: ReadonlyArray<StoreContract.Rule>) => {
  for (const rule of rules) it.live(rule.name, () => rule.run, 20_000)
}

const timing: StoreContract.Timing = { sleep: (millis) => Effect.sleep(millis), settle: Effect.sleep("10 millis") }

const heartbeat = { heartbeatInterval: "100 millis", heartbeatTtl: "300 millis" } as const

const instance = (prefix: string) => (instanceId: string) =>
  Effect.flatMap(RedisClient.make({ url: REDIS_URL, prefix }), (client) => RedisSessionStore.make(client, { instanceId, ...heartbeat }))

describeRedis("StoreContract: SessionStore (Redis)", () => {
  register(StoreContract.sessionStore(Effect.map(testPrefix, (prefix) => ({ ...timing, ttlMs: 300, instance: instance(prefix) }))))
})

describeRedis("StoreContract: SessionStore from parts (RedisSessionRecords, the bus of a memory fleet)", () => {
  register(StoreContract.sessionStore(Effect.gen(function*() {
    const prefix = yield* testPrefix
    const bus = yield* SessionStore.makeMemoryFleet()
    return {
      ...timing,
      ttlMs: 300,
      instance: (id: string) =>
        Effect.flatMap(RedisClient.make({ url: REDIS_URL, prefix }), (client) =>
          Effect.map(RedisSessionRecords.make(client), (records) => SessionStore.fromParts(records, bus.instance(id))))
    }
  })))
})

describeRedis("StoreContract: SessionStore from parts (the records of a memory fleet, RedisFleetBus)", () => {
  register(StoreContract.sessionStore(Effect.gen(function*() {
    const prefix = yield* testPrefix
    const records = yield* SessionStore.makeMemoryFleet()
    return {
      ...timing,
      ttlMs: 300,
      instance: (id: string) =>
        Effect.flatMap(RedisClient.make({ url: REDIS_URL, prefix }), (client) =>
          Effect.map(RedisFleetBus.make(client, { instanceId: id, ...heartbeat }), (bus) => SessionStore.fromParts(records.instance(id), bus)))
    }
  })))
})

describeRedis("StoreContract: EventStore (Redis)", () => {
  register(StoreContract.eventStore(Effect.map(testPrefix, (prefix) => ({
    ...timing,
    gracePeriodMs: 300,
    make: (options: { readonly gracePeriodMs: number }) =>
      Effect.flatMap(RedisClient.make({ url: REDIS_URL, prefix }), (client) =>
        RedisEventStore.make(client, { gracePeriod: options.gracePeriodMs, retention: "1 minute" })),
    // nothing listens on port 1
    unreachable: Effect.flatMap(
      RedisClient.make({ url: "redis://127.0.0.1:1", prefix, commandTimeout: "500 millis" }),
      (client) => RedisEventStore.make(client)
    )
  }))))
})

describeRedis("StoreContract: TaskStore (Redis)", () => {
  register(StoreContract.taskStore(Effect.map(testPrefix, (prefix) => ({
    ...timing,
    make: Effect.gen(function*() {
      const client = yield* RedisClient.make({ url: REDIS_URL, prefix })
      // the task store needs the fleet's bus only
      const bus = yield* RedisFleetBus.make(client, { instanceId: "a" })
      return yield* RedisTaskStore.make(client, bus, { checkInterval: "100 millis" })
    })
  }))))
})
