/**
 * Deadlines on the Clock for many waits at once: one fiber sleeps until the
 * nearest deadline, so a wait costs a set entry rather than a timer or a
 * fiber of its own, and a TestClock drives them all. A deadline sooner than
 * the one slept for restarts the sleeper; a later one (the usual case, when
 * every wait has the same length) costs nothing more.
 * @internal
 */
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"

/** A timer longer than this never fires; longer waits wake up in steps of this. */
const MAX_TIMER_MS = 2_147_483_647

export interface Entry {
  /** When it expires now, in the Clock's milliseconds (it may move later). */
  readonly deadline: () => number
  /** Called once, when the deadline has passed. */
  readonly expire: () => void
}

export interface Deadlines {
  /** Watches an entry until it expires or is removed. */
  readonly add: (entry: Entry) => void
  readonly remove: (entry: Entry) => void
  /** The Clock's time, in milliseconds. */
  readonly now: () => number
  /** Forgets every entry and stops the sleeper. */
  readonly stop: Effect.Effect<void>
}

/** `runFork` starts the sleeper (outside any caller's fiber, so that it keeps none reachable). */
export const make = (
  clock: Clock.Clock,
  runFork: (effect: Effect.Effect<void>) => Fiber.RuntimeFiber<void>
): Deadlines => {
  const entries = new Set<Entry>()
  let wakeAt = Infinity
  let generation = 0
  let sleeper: Fiber.RuntimeFiber<void> | undefined
  const now = () => clock.unsafeCurrentTimeMillis()

  const loop = (own: number): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (own !== generation) return Effect.void
      const at = now()
      let next = Infinity
      for (const entry of entries) {
        const deadline = entry.deadline()
        if (deadline <= at) {
          entries.delete(entry)
          entry.expire()
        } else if (deadline < next) next = deadline
      }
      wakeAt = next
      if (next === Infinity) {
        sleeper = undefined
        return Effect.void
      }
      return Effect.zipRight(Effect.sleep(Duration.millis(Math.min(next - at, MAX_TIMER_MS))), loop(own))
    })

  return {
    add: (entry) => {
      entries.add(entry)
      const deadline = entry.deadline()
      if (deadline >= wakeAt) return
      wakeAt = deadline
      const own = ++generation
      sleeper?.unsafeInterruptAsFork(FiberId.none)
      const delay = Math.max(0, Math.min(deadline - now(), MAX_TIMER_MS))
      sleeper = runFork(Effect.zipRight(Effect.sleep(Duration.millis(delay)), loop(own)))
    },
    remove: (entry) => {
      entries.delete(entry)
    },
    now,
    stop: Effect.suspend(() => {
      entries.clear()
      generation++
      wakeAt = Infinity
      const current = sleeper
      sleeper = undefined
      return current === undefined ? Effect.void : Effect.asVoid(Effect.sync(() => current.unsafeInterruptAsFork(FiberId.none)))
    })
  }
}
