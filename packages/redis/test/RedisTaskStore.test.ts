/**
 * `RedisTaskStore` in one process on a real Redis, what is Redis's own: a
 * record's key expiring before the sweep, the sweep taking its keys and
 * indexes, and a change lost on pub/sub told by the reconciliation. The
 * store's contract (the atomic update, the owner's pages, the sweep's ids
 * and `size`, changes told) is `StoreContract.taskStore`, run against it in
 * StoreContract.test.ts.
 */
import { assert, it } from "@effect/vitest"
import type * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import { Redis } from "ioredis"
import * as RedisClient from "../src/RedisClient.js"
import * as RedisFleetBus from "../src/RedisFleetBus.js"
import * as RedisTaskStore from "../src/RedisTaskStore.js"
import { describeRedis, keysUnder, REDIS_URL, testPrefix } from "./redis.js"

const setup = Effect.gen(function*() {
  const prefix = yield* testPrefix
  const client = yield* RedisClient.make({ url: REDIS_URL, prefix })
  const bus = yield* RedisFleetBus.make(client, { instanceId: "a" })
  const store = yield* RedisTaskStore.make(client, bus, { checkInterval: "100 millis" })
  return { prefix, store }
})

const record = (taskId: string, owner: string, expiresAt: number, createdAt = 0): McpTasks.StoredTask => ({
  task: {
    taskId,
    status: "working",
    createdAt: new Date(createdAt).toISOString(),
    lastUpdatedAt: new Date(createdAt).toISOString(),
    ttl: 60_000
  },
  owner,
  expiresAt
})

const raw = <A>(f: (redis: Redis) => Promise<A>) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return await f(redis)
    } finally {
      redis.disconnect()
    }
  })

describeRedis("RedisTaskStore", () => {
  it.live("sweep: an expired record is gone from get before the sweep (its key's TTL); the sweep takes its key and its indexes", () =>
    Effect.gen(function*() {
      const { prefix, store } = yield* setup
      const now = Date.now()
      yield* store.put(record("old", "session:x", now + 200))
      yield* store.put(record("new", "session:y", now + 60_000))
      yield* Effect.sleep("300 millis")
      assert.isUndefined(yield* store.get("old"))
      assert.deepStrictEqual(yield* store.sweep(Date.now()), ["old"])
      const keys = (yield* keysUnder(prefix)).map((k) => k.slice(prefix.length))
      assert.notInclude(keys, ":task:old")
      assert.notInclude(keys, ":tasks:own:session:x")
      assert.include(keys, ":task:new")
    }))

  it.live("a change lost on pub/sub (a cancel made without its message) is told by the reconciliation", () =>
    Effect.gen(function*() {
      const { prefix, store } = yield* setup
      const heard = yield* Ref.make<ReadonlyArray<McpTasks.TaskChange>>([])
      yield* store.changes!((change) => Ref.update(heard, (all) => [...all, change]))
      yield* store.put(record("t1", "session:s", Date.now() + 60_000))
      // another instance cancels it, and its message never arrives
      yield* raw(async (redis) => {
        const held = JSON.parse((await redis.get(`${prefix}:task:t1`))!)
        held.record.task.status = "cancelled"
        await redis.set(`${prefix}:task:t1`, JSON.stringify(held), "KEEPTTL")
        await redis.srem(`${prefix}:tasks:run:a`, "t1")
      })
      let got: ReadonlyArray<McpTasks.TaskChange> = []
      for (let i = 0; i < 40 && got.length === 0; i++) {
        yield* Effect.sleep("50 millis")
        got = yield* Ref.get(heard)
      }
      assert.deepStrictEqual(got, [{ taskId: "t1", status: "cancelled" }])
      // told once
      yield* Effect.sleep("300 millis")
      assert.strictEqual((yield* Ref.get(heard)).length, 1)
    }))
})
