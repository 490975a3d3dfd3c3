/**
 * An instance of a fleet stopped gracefully (SIGTERM) mid-call: it exits within the listener's
 * grace, its heartbeat leaves Redis with it, the session goes on on another instance, and the
 * call's stream resumed there gets the explicit error at once (no heartbeat to wait for).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Redis } from "ioredis"
import { initialize } from "../../../node/test/httpUtil.js"
import { startTestFleet } from "../fleet.js"
import { describeRedis, REDIS_URL } from "../redis.js"
import { messagesOf, readSse, type SseEvent, sessionHeaders } from "./processes.js"

// the listener's default `closeGrace` (2 s) and the fleet's check interval (1 s), and slack
const STOP_BOUND_MS = 2_000 + 3_000
const ERROR_BOUND_MS = 1_000 + 1_500

const exists = (key: string) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return (await redis.exists(key)) === 1
    } finally {
      redis.disconnect()
    }
  })

describeRedis("an instance stopped with SIGTERM mid-call", () => {
  it.live("it exits, its heartbeat goes, the session goes on elsewhere, the resumed call gets its error at once", () =>
    Effect.gen(function*() {
      const { instances, prefix, urls } = yield* startTestFleet(2)
      const [a, b] = urls as [string, string]
      const stopped = instances[0]!
      const sid = yield* initialize(b)
      assert.isTrue(yield* exists(`${prefix}:hb:${stopped.id}`))

      const first: Array<SseEvent> = []
      const controller = new AbortController()
      yield* Effect.addFinalizer(() => Effect.sync(() => controller.abort()))
      const response = yield* Effect.promise(() =>
        fetch(a, {
          method: "POST",
          headers: sessionHeaders(sid),
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 3,
            method: "tools/call",
            params: { name: "slow", arguments: { steps: 150 }, _meta: { progressToken: "p" } }
          }),
          signal: controller.signal
        })
      )
      const reading = readSse(response, first)
      for (let i = 0; i < 100 && messagesOf(first).length < 2; i++) yield* Effect.sleep("20 millis")
      const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!

      const stoppingAt = Date.now()
      yield* stopped.stop.pipe(Effect.timeoutOrElse({ duration: STOP_BOUND_MS, orElse: () => Effect.fail(new Error("no exit after SIGTERM")) }), Effect.orDie)
      yield* Effect.promise(() => reading)
      assert.isBelow(Date.now() - stoppingAt, STOP_BOUND_MS)
      assert.isFalse(yield* exists(`${prefix}:hb:${stopped.id}`), "the heartbeat is deleted on a graceful stop")

      // the session, on the other instance
      const echoed = yield* Effect.promise(async () => {
        const r = await fetch(b, {
          method: "POST",
          headers: sessionHeaders(sid),
          body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "echo", arguments: { text: "on" } } })
        })
        const events: Array<SseEvent> = []
        await readSse(r, events)
        return messagesOf(events).find((m) => m.id === 4)
      })
      assert.strictEqual(echoed?.result?.content?.[0]?.text, "on from i1")

      // the cut call, resumed there: its error, with no heartbeat to wait for
      const resumedAt = Date.now()
      const resumed: Array<SseEvent> = []
      yield* Effect.promise(async () => {
        const r = await fetch(b, {
          headers: { ...sessionHeaders(sid), "last-event-id": lastId, accept: "text/event-stream" },
          signal: AbortSignal.timeout(ERROR_BOUND_MS + 3_000)
        })
        await readSse(r, resumed)
      })
      const answer = messagesOf(resumed).find((m) => m.id === 3)
      assert.strictEqual(answer?.error?.code, -32603, JSON.stringify(resumed))
      assert.include(answer?.error?.message, `(${stopped.id}) stopped`)
      assert.isBelow(resumed.find((e) => e.data?.includes("stopped"))!.at - resumedAt, ERROR_BOUND_MS)
    }), 40_000)
})
