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
      ? Effect.die(new Error("condition never held"))
      : Effect.andThen(Effect.yieldNow, until(condition, tries - 1))
  )

/**
 * How many sleeps wait on the current `TestClock`. Effect 4's `TestClock`
 * interface no longer has `sleeps()` (Effect 3 had it); its implementation
 * (`TestClockImpl` in effect/testing/TestClock) keeps the pending sleeps in an
 * own `sleeps` array, which this reads structurally, dying if it is not there.
 */
const pendingSleeps: Effect.Effect<number> = TestClock.testClockWith((clock) => {
  const sleeps: unknown = (clock as { readonly sleeps?: unknown }).sleeps
  return Array.isArray(sleeps)
    ? Effect.succeed(sleeps.length)
    : Effect.die(new Error("this TestClock does not show its sleeps"))
})

/** Yields until `n` sleeps are waiting on the `TestClock`. */
export const sleepers = (n: number, tries = 1000): Effect.Effect<void> =>
  Effect.flatMap(pendingSleeps, (count) =>
    count >= n
      ? Effect.void
      : tries === 0
      ? Effect.die(new Error(`${count} sleeps, never ${n}`))
      : Effect.andThen(Effect.yieldNow, sleepers(n, tries - 1)))

/**
 * The exit of a fiber that is done or about to be: timeouts in these tests
 * are seconds of virtual time, so a timer on the wall clock fails this at once.
 */
export const settled = <A, E>(fiber: Fiber.Fiber<A, E>) =>
  Effect.andThen(until(() => fiber.pollUnsafe() !== undefined, 100), Fiber.await(fiber))
