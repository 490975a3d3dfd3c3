import { assert, describe, it } from "@effect/vitest"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as TestClock from "effect/testing/TestClock"

const response = (id: number, text = "ok") => JSON.stringify({ jsonrpc: "2.0", id, result: { text } })
const standIn = (id: number) => EventStore.lostAnswer(id)
const notification = (n: number) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { n } })

const replay = (store: EventStore.EventStoreShape, session: string, lastEventId: string) =>
  Effect.map(store.replayAfter(session, lastEventId), Option.getOrUndefined)

describe("EventStore (memory)", () => {
  it.effect("event ids never repeat within a session, across streams and evictions", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ maxEventsPerSession: 2 })
      const ids: Array<string> = []
      // two live streams written in turn: every append evicts, and nothing restarts a sequence
      for (let i = 0; i < 20; i++) {
        ids.push(yield* store.append("s", "s-1", notification(i)))
        ids.push(yield* store.append("s", "s-2", notification(i)))
      }
      assert.strictEqual(new Set(ids).size, ids.length, ids.join(" "))
      const seqs = ids.map((id) => Option.getOrThrow(EventStore.parseEventId(id)).seq)
      assert.deepStrictEqual(seqs, seqs.slice().sort((a, b) => a - b), "sequences increase in write order")
      assert.strictEqual((yield* store.usage).events, 2)
    }))

  it.effect("a delivered stream stays resumable for the grace period, then is dropped", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ gracePeriod: "10 seconds" })
      const id = yield* store.append("s", "s-1", response(1), 1)
      yield* store.delivered("s", "s-1")
      yield* TestClock.adjust("9 seconds")
      assert.deepStrictEqual((yield* replay(store, "s", "s-1_0"))?.events, [{ id, data: response(1) }])
      yield* TestClock.adjust("7 seconds")
      assert.isUndefined(yield* replay(store, "s", "s-1_0"))
      assert.deepStrictEqual(yield* store.usage, { events: 0, bytes: 0, streams: 0, sessions: 1 })
    }))

  it.effect("a stream not delivered is kept past the grace period; a replayed one is delivered again", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ gracePeriod: "1 second" })
      yield* store.append("s", "s-1", response(1))
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual((yield* replay(store, "s", "s-1_0"))?.events.length, 1)
      yield* store.delivered("s", "s-1")
      yield* TestClock.adjust("2 seconds")
      assert.isUndefined(yield* replay(store, "s", "s-1_0"))
    }))

  it.effect("dropSession frees everything of the session at once", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory()
      for (let i = 0; i < 10; i++) yield* store.append("a", `a-${i}`, response(i, "x".repeat(1000)))
      yield* store.append("b", "b-1", response(1))
      yield* store.dropSession("a")
      const usage = yield* store.usage
      assert.deepStrictEqual(usage, { events: 1, bytes: response(1).length, streams: 1, sessions: 1 })
      assert.isUndefined(yield* replay(store, "a", "a-1_0"))
    }))

  it.effect("one session's traffic never evicts another session's undelivered events (per-session budget)", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ maxEventsPerSession: 100, maxBytesPerSession: 64 * 1024 })
      const kept = yield* store.append("a", "a-1", response(1, "for a"), 1)
      for (let i = 0; i < 5000; i++) yield* store.append("b", `b-${i % 7}`, notification(i))
      assert.deepStrictEqual((yield* replay(store, "a", "a-1_0"))?.events, [{ id: kept, data: response(1, "for a") }])
      const usage = yield* store.usage
      assert.strictEqual(usage.events, 101)
    }))

  it.effect("under the total budget, the session holding the most pays, and delivered streams go first", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ maxEventsPerSession: 1000, maxEvents: 20 })
      // a: 3 undelivered answers; c: one delivered stream
      for (let i = 1; i <= 3; i++) yield* store.append("a", `a-${i}`, response(i), i)
      yield* store.append("c", "c-1", response(9))
      yield* store.delivered("c", "c-1")
      for (let i = 0; i < 200; i++) yield* store.append("b", "b-1", notification(i))
      for (let i = 1; i <= 3; i++) assert.deepStrictEqual((yield* replay(store, "a", `a-${i}_0`))?.events.map((e) => e.data), [response(i)])
      assert.isUndefined(yield* replay(store, "c", "c-1_0"), "the delivered stream went first")
      assert.strictEqual((yield* store.usage).events, 20)
    }))

  it.effect("an evicted response leaves its stand-in in its place, under its id", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ maxEventsPerSession: 2 })
      const first = yield* store.append("s", "s-1", notification(0))
      const answer = yield* store.append("s", "s-1", response(1), 1)
      yield* store.append("s", "s-2", response(2), 2)
      yield* store.append("s", "s-3", response(3), 3)
      const got = yield* replay(store, "s", "s-1_0")
      // the notification is gone; the answer is a stand-in now, with the same id
      assert.deepStrictEqual(got?.events, [{ id: answer, data: standIn(1) }])
      assert.isFalse(got?.complete, "events after the priming event were dropped without a stand-in")
      assert.isTrue((yield* replay(store, "s", first))?.complete)
      assert.deepStrictEqual((yield* replay(store, "s", "s-3_0"))?.events.map((e) => e.data), [response(3)])
    }))

  it.effect("bytes are budgeted too: an event larger than the budget is stored as its stand-in", () =>
    Effect.gen(function*() {
      const store = yield* EventStore.makeMemory({ maxBytesPerSession: 1024, maxBytes: 4096 })
      const big = yield* store.append("s", "s-1", response(1, "x".repeat(2048)), 1)
      assert.deepStrictEqual((yield* replay(store, "s", "s-1_0"))?.events, [{ id: big, data: standIn(1) }])
      for (let i = 0; i < 10; i++) yield* store.append(`t${i}`, `t${i}-1`, response(i, "y".repeat(900)), i)
      assert.isAtMost((yield* store.usage).bytes, 4096)
    }))
})
