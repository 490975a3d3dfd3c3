import { assert, it } from "@effect/vitest"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Redis } from "ioredis"
import * as RedisClient from "../src/RedisClient.js"
import * as RedisEventStore from "../src/RedisEventStore.js"
import { describeRedis, keysUnder, REDIS_URL, testPrefix } from "./redis.js"

const store = (options?: RedisEventStore.Options) =>
  Effect.gen(function*() {
    const prefix = yield* testPrefix
    const client = yield* RedisClient.make({ url: REDIS_URL, prefix })
    return { prefix, client, store: yield* RedisEventStore.make(client, options) }
  })

const pttl = (key: string) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return await redis.pttl(key)
    } finally {
      redis.disconnect()
    }
  })

describeRedis("RedisEventStore (the EventStore contract on Redis Streams)", () => {
  it.effect("ids grow across a session's streams; a replay is the stream's events after the id, in order", () =>
    Effect.gen(function*() {
      const { store: s } = yield* store()
      const a1 = yield* s.append("S", "S-a.p1", "a1")
      const b1 = yield* s.append("S", "S-a.p2", "b1")
      const a2 = yield* s.append("S", "S-a.p1", "a2")
      const a3 = yield* s.append("S", "S-a.p1", "a3")
      assert.deepStrictEqual([a1, b1, a2, a3], ["S-a.p1_1", "S-a.p2_2", "S-a.p1_3", "S-a.p1_4"])
      const replay = yield* s.replayAfter("S", a1)
      assert.deepStrictEqual(Option.getOrThrow(replay), {
        streamId: "S-a.p1",
        events: [{ id: a2, data: "a2" }, { id: a3, data: "a3" }],
        complete: true
      })
      // from the priming event: everything
      const all = Option.getOrThrow(yield* s.replayAfter("S", EventStore.primingId("S-a.p2")))
      assert.deepStrictEqual(all.events, [{ id: b1, data: "b1" }])
      assert.isTrue(Option.isNone(yield* s.replayAfter("S", "S-a.p9_1")))
      assert.isTrue(Option.isNone(yield* s.replayAfter("S", "not an id")))
    }))

  it.effect("over the stream's bound the oldest go: a response leaves its stand-in, anything else a gap", () =>
    Effect.gen(function*() {
      const { store: s } = yield* store({ maxEventsPerStream: 2 })
      const first = yield* s.append("S", "S-a.p1", `{"jsonrpc":"2.0","id":7,"result":{}}`, 7)
      yield* s.append("S", "S-a.p1", "note")
      yield* s.append("S", "S-a.p1", "third")
      const replay = Option.getOrThrow(yield* s.replayAfter("S", EventStore.primingId("S-a.p1")))
      assert.deepStrictEqual(replay.events.map((e) => e.data), [EventStore.lostAnswer(7), "note", "third"])
      assert.strictEqual(replay.events[0]!.id, first)
      assert.isTrue(replay.complete)
      yield* s.append("S", "S-a.p1", "fourth")
      const after = Option.getOrThrow(yield* s.replayAfter("S", EventStore.primingId("S-a.p1")))
      // "note" went without a stand-in: a replay from before it is incomplete, one from after it is not
      assert.isFalse(after.complete)
      assert.deepStrictEqual(after.events.map((e) => e.data), [EventStore.lostAnswer(7), "third", "fourth"])
      const later = Option.getOrThrow(yield* s.replayAfter("S", "S-a.p1_2"))
      assert.isTrue(later.complete)
    }))

  it.live("a response larger than the event bound is stored as its stand-in; delivered streams expire after the grace period; dropSession forgets all", () =>
    Effect.gen(function*() {
      const { prefix, store: s } = yield* store({ maxEventBytes: 10, gracePeriod: "500 millis", retention: "1 minute" })
      yield* s.append("S", "S-a.p1", `{"jsonrpc":"2.0","id":"big","result":{"text":"far too long"}}`, "big")
      yield* s.append("S", "S-a.p1", "also too long, and answers nothing")
      const replay = Option.getOrThrow(yield* s.replayAfter("S", EventStore.primingId("S-a.p1")))
      assert.deepStrictEqual(replay.events.map((e) => e.data), [EventStore.lostAnswer("big")])
      assert.isFalse(replay.complete)
      yield* s.append("S", "S-a.p2", "small")
      const key = `${prefix}:{S}:ev:S-a.p2`
      assert.isAbove(yield* pttl(key), 50_000)
      yield* s.delivered("S", "S-a.p2")
      // marked off the request's path: shortly after
      let left = yield* pttl(key)
      for (let i = 0; i < 50 && left > 500; i++) {
        yield* Effect.sleep("10 millis")
        left = yield* pttl(key)
      }
      assert.isAtMost(left, 500)
      assert.isAbove(left, 0)
      yield* s.dropSession("S")
      assert.deepStrictEqual(yield* keysUnder(prefix), [])
      // the counter went with the session
      assert.strictEqual(yield* s.append("S", "S-a.p3", "again"), "S-a.p3_1")
    }))

  it.live("a stream written whole is stored off the path: replayed from its priming id with ids, kept for the grace period", () =>
    Effect.gen(function*() {
      const { prefix, store: s } = yield* store({ gracePeriod: "2 seconds", retention: "1 minute" })
      const answer = `{"jsonrpc":"2.0","id":3,"result":{}}`
      yield* s.append("S", "S-a.p1", "an earlier event of the session")
      yield* s.appendDelivered!("S", "S-a.p2", [{ data: "a note" }, { data: answer, answers: 3 }])
      const priming = EventStore.primingId("S-a.p2")
      let replay = yield* s.replayAfter("S", priming)
      for (let i = 0; i < 100 && Option.isNone(replay); i++) {
        yield* Effect.sleep("10 millis")
        replay = yield* s.replayAfter("S", priming)
      }
      // ids from the session's counter, as append's
      assert.deepStrictEqual(Option.getOrThrow(replay).events, [{ id: "S-a.p2_2", data: "a note" }, { id: "S-a.p2_3", data: answer }])
      const left = yield* pttl(`${prefix}:{S}:ev:S-a.p2`)
      assert.isAtMost(left, 2_000)
      assert.isAbove(left, 0)
      // an empty one only marks the stream delivered
      yield* s.append("S", "S-a.p4", "x")
      yield* s.appendDelivered!("S", "S-a.p4", [])
      let marked = yield* pttl(`${prefix}:{S}:ev:S-a.p4`)
      for (let i = 0; i < 100 && marked > 2_000; i++) {
        yield* Effect.sleep("10 millis")
        marked = yield* pttl(`${prefix}:{S}:ev:S-a.p4`)
      }
      assert.isAtMost(marked, 2_000)
    }))
})
