/**
 * Deadlines on the Clock for many waits at once: one fiber sleeps until the
 * nearest deadline, so a wait costs a set entry rather than a timer or a
 * fiber of its own, and a TestClock drives them all. A deadline sooner than
 * the one slept for restarts the sleeper; a later one (the usual case, when
 * every wait has the same length) costs nothing more.
 */
import type * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"

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

/**
 * The deadlines as methods: an engine keeps one for its life (an idle HTTP session too), and
 * closures made per engine were a part of each one's heap.
 */
class DeadlinesImpl implements Deadlines {
  readonly entries = new Set<Entry>()
  wakeAt = Infinity
  generation = 0
  sleeper: Fiber.Fiber<void> | undefined = undefined

  constructor(
    readonly clock: Clock.Clock,
    readonly runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void>
  ) {}

  now(): number {
    return this.clock.currentTimeMillisUnsafe()
  }

  loop(own: number): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (own !== this.generation) return Effect.void
      const at = this.now()
      let next = Infinity
      for (const entry of this.entries) {
        const deadline = entry.deadline()
        if (deadline <= at) {
          this.entries.delete(entry)
          entry.expire()
        } else if (deadline < next) next = deadline
      }
      this.wakeAt = next
      if (next === Infinity) {
        this.sleeper = undefined
        return Effect.void
      }
      return Effect.andThen(Effect.sleep(Duration.millis(Math.min(next - at, MAX_TIMER_MS))), this.loop(own))
    })
  }

  add(entry: Entry): void {
    this.entries.add(entry)
    const deadline = entry.deadline()
    if (deadline >= this.wakeAt) return
    this.wakeAt = deadline
    const own = ++this.generation
    this.sleeper?.interruptUnsafe()
    const delay = Math.max(0, Math.min(deadline - this.now(), MAX_TIMER_MS))
    this.sleeper = this.runFork(Effect.andThen(Effect.sleep(Duration.millis(delay)), this.loop(own)))
  }

  remove(entry: Entry): void {
    this.entries.delete(entry)
  }

  get stop(): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.entries.clear()
      this.generation++
      this.wakeAt = Infinity
      const current = this.sleeper
      this.sleeper = undefined
      return current === undefined ? Effect.void : Effect.sync(() => current.interruptUnsafe())
    })
  }
}

/** `runFork` starts the sleeper (outside any caller's fiber, so that it keeps none reachable). */
export const make = (
  clock: Clock.Clock,
  runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void>
): Deadlines => new DeadlinesImpl(clock, runFork)

interface Shared {
  readonly clock: Clock.Clock
  readonly deadlines: Deadlines
  users: number
}

const shared = new WeakMap<object, Shared>()

/**
 * The deadlines every user of `key` (e.g. an HTTP backend, shared by the
 * sessions to one server) on the same Clock shares: one sleeper fiber for all
 * of them instead of one each. `release` (once per call) stops it when the
 * last user leaves; a user on another Clock gets deadlines of its own.
 */
export const acquireShared = (
  key: object,
  clock: Clock.Clock,
  runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void>
): { readonly deadlines: Deadlines; readonly release: Effect.Effect<void> } => {
  let entry = shared.get(key)
  if (entry === undefined || entry.clock !== clock) {
    if (entry !== undefined) {
      const own = make(clock, runFork)
      return { deadlines: own, release: own.stop }
    }
    entry = { clock, deadlines: make(clock, runFork), users: 0 }
    shared.set(key, entry)
  }
  const current = entry
  current.users++
  let released = false
  return {
    deadlines: current.deadlines,
    release: Effect.suspend(() => {
      if (released) return Effect.void
      released = true
      if (--current.users > 0) return Effect.void
      if (shared.get(key) === current) shared.delete(key)
      return current.deadlines.stop
    })
  }
}
