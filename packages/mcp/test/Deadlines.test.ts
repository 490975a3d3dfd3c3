/**
 * `internal/deadlines`' shared sleeper: the sessions over one HTTP backend
 * bound their exchanges on one fiber, not one each, and it stops with the
 * last of them.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/testing/TestClock"
import * as Deadlines from "../src/internal/deadlines.js"

describe("Deadlines.acquireShared", () => {
  it.effect("users of one key on one Clock share one sleeper, stopped when the last leaves", () =>
    Effect.gen(function*() {
      const clock = yield* Clock.Clock
      const context = yield* Effect.context<never>()
      const forked: Array<Fiber.Fiber<void>> = []
      const runFork = (effect: Effect.Effect<void>) => {
        const fiber = Effect.runForkWith(context)(effect)
        forked.push(fiber)
        return fiber
      }
      const key = {}
      const a = Deadlines.acquireShared(key, clock, runFork)
      const b = Deadlines.acquireShared(key, clock, runFork)
      assert.strictEqual(a.deadlines, b.deadlines)
      const expired: Array<string> = []
      const now = a.deadlines.now()
      a.deadlines.add({ deadline: () => now + 1_000, expire: () => expired.push("a") })
      b.deadlines.add({ deadline: () => now + 1_000, expire: () => expired.push("b") })
      // one sleeper for both entries
      assert.strictEqual(forked.length, 1)
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(expired.sort(), ["a", "b"])

      b.deadlines.add({ deadline: () => now + 5_000, expire: () => expired.push("late") })
      yield* a.release
      yield* a.release // once per acquisition: a second release is not b's
      const sleeper = forked[forked.length - 1]!
      assert.isUndefined(sleeper.pollUnsafe())
      yield* b.release
      yield* Fiber.await(sleeper)
      yield* TestClock.adjust("10 seconds")
      assert.deepStrictEqual(expired.sort(), ["a", "b"])

      // after the last release, the key starts afresh
      const c = Deadlines.acquireShared(key, clock, runFork)
      assert.notStrictEqual(c.deadlines, a.deadlines)
      yield* c.release
    }))

  it.effect("a user on another Clock gets deadlines of its own", () =>
    Effect.gen(function*() {
      const clock = yield* Clock.Clock
      const context = yield* Effect.context<never>()
      const key = {}
      const a = Deadlines.acquireShared(key, clock, Effect.runForkWith(context))
      const other = { ...clock } as typeof clock
      const b = Deadlines.acquireShared(key, other, Effect.runForkWith(context))
      assert.notStrictEqual(a.deadlines, b.deadlines)
      yield* a.release
      yield* b.release
    }))
})
