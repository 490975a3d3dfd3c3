/**
 * `RedisTaskStore` in one process on a real Redis: compare-and-set updates
 * under concurrency, the owner's pages, the sweep (records and indexes
 * gone), and a change lost on pub/sub told by the reconciliation.
 */
import { assert, it } from "@effect/vitest"
import type * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import { Redis } from "ioredis"
import * as RedisClient from "../src/RedisClient.js"
import * as RedisSessionStore from "../src/RedisSessionStore.js"
import * as RedisTaskStore from "../src/RedisTaskStore.js"
import { describeRedis, keysUnder, REDIS_URL, testPrefix } from "./redis.js"

const setup = Effect.gen(function*() {
  const prefix = yield* testPrefix
  const client = yield* RedisClient.make({ url: REDIS_URL, prefix })
  const sessions = yield* RedisSessionStore.make(client, { instanceId: "a" })
  const store = yield* RedisTaskStore.make(client, sessions, { checkInterval: "100 millis" })
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
  it.scopedLive("update is a compare-and-set: 20 concurrent updates of one record all land", () =>
    Effect.gen(function*() {
      const { store } = yield* setup
      yield* store.put(record("t1", "session:s", Date.now() + 60_000))
      yield* Effect.forEach(Array.from({ length: 20 }), (_, i) =>
        store.update("t1", (r) => ({ ...r, task: { ...r.task, statusMessage: `${r.task.statusMessage ?? ""}${i},` } })), {
        concurrency: "unbounded",
        discard: true
      })
      const after = yield* store.get("t1")
      assert.strictEqual(after!.task.statusMessage!.split(",").filter((s) => s !== "").length, 20)
      assert.isUndefined(yield* store.update("nope", (r) => r))
    }))

  it.scopedLive("list: the owner's records in creation order, in pages; nobody else's", () =>
    Effect.gen(function*() {
      const { store } = yield* setup
      const later = Date.now() + 60_000
      for (let i = 0; i < 5; i++) yield* store.put(record(`a${i}`, "session:a", later, 1000 + i))
      yield* store.put(record("b0", "session:b", later, 1500))
      const first = yield* store.list("session:a", 0, 2)
      assert.deepStrictEqual(first.tasks.map((t) => t.task.taskId), ["a0", "a1"])
      assert.isTrue(first.more)
      const last = yield* store.list("session:a", 4, 2)
      assert.deepStrictEqual(last.tasks.map((t) => t.task.taskId), ["a4"])
      assert.isFalse(last.more)
      assert.deepStrictEqual((yield* store.list("session:b", 0, 10)).tasks.map((t) => t.task.taskId), ["b0"])
      assert.deepStrictEqual((yield* store.list("session:c", 0, 10)).tasks, [])
    }))

  it.scopedLive("sweep: an expired record, its indexes and its keys go; it is returned once; get no longer sees it", () =>
    Effect.gen(function*() {
      const { prefix, store } = yield* setup
      const now = Date.now()
      yield* store.put(record("old", "session:x", now + 200))
      yield* store.put(record("new", "session:y", now + 60_000))
      assert.strictEqual(yield* store.size, 2)
      yield* Effect.sleep("300 millis")
      assert.isUndefined(yield* store.get("old"))
      assert.deepStrictEqual(yield* store.sweep(Date.now()), ["old"])
      assert.deepStrictEqual(yield* store.sweep(Date.now()), [])
      assert.strictEqual(yield* store.size, 1)
      const keys = (yield* keysUnder(prefix)).map((k) => k.slice(prefix.length))
      assert.notInclude(keys, ":task:old")
      assert.notInclude(keys, ":tasks:own:session:x")
      assert.include(keys, ":task:new")
    }))

  it.scopedLive("a change lost on pub/sub (a cancel made without its message) is told by the reconciliation", () =>
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
