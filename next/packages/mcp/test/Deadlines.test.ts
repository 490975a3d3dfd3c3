/**
 * `internal/deadlines`' shared sleeper: the sessions over one HTTP backend
 * bound their exchanges on one fiber, not one each, and it stops with the
 * last of them.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Runtime from "effect/Runtime"
import * as TestClock from "effect/testing/TestClock"
import * as Deadlines from "../src/internal/deadlines.js"

describe("Deadlines.acquireShared", () => {
  it.effect("users of one key on one Clock share one sleeper, stopped when the last leaves", () =>
    Effect.gen(function*() {
      const clock = yield* Effect.clock
      const runtime = yield* Effect.runtime<never>()
      const forked: Array<Fiber.Fiber<void>> = []
      const runFork = (effect: Effect.Effect<void>) => {
        const fiber = Runtime.runFork(runtime)(effect)
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
      assert.isNull(sleeper.unsafePoll())
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
      const clock = yield* Effect.clock
      const runtime = yield* Effect.runtime<never>()
      const key = {}
      const a = Deadlines.acquireShared(key, clock, Runtime.runFork(runtime))
      const other = { ...clock } as typeof clock
      const b = Deadlines.acquireShared(key, other, Runtime.runFork(runtime))
      assert.notStrictEqual(a.deadlines, b.deadlines)
      yield* a.release
      yield* b.release
    }))
})
