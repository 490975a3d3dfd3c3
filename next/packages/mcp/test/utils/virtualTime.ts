/**
 * Helpers for tests on `TestClock`: waiting for other fibers without any
 * clock, and stepping virtual time only once the sleeps it should wake exist.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/testing/TestClock"

/** Yields until `condition` holds (other fibers run meanwhile); no clock involved. */
export const until = (condition: () => boolean, tries = 1000): Effect.Effect<void> =>
  Effect.suspend(() =>
    condition()
      ? Effect.void
      : tries === 0
      ? Effect.dieMessage("condition never held")
      : Effect.andThen(Effect.yieldNow(), until(condition, tries - 1))
  )

/** Yields until `n` sleeps are waiting on the `TestClock`. */
export const sleepers = (n: number, tries = 1000): Effect.Effect<void> =>
  Effect.flatMap(TestClock.sleeps(), (sleeps) =>
    sleeps.length >= n
      ? Effect.void
      : tries === 0
      ? Effect.dieMessage(`${sleeps.length} sleeps, never ${n}`)
      : Effect.andThen(Effect.yieldNow(), sleepers(n, tries - 1)))

/**
 * The exit of a fiber that is done or about to be: timeouts in these tests
 * are seconds of virtual time, so a timer on the wall clock fails this at once.
 */
export const settled = <A, E>(fiber: Fiber.Fiber<A, E>) =>
  Effect.andThen(until(() => fiber.unsafePoll() !== null, 100), Fiber.await(fiber))
