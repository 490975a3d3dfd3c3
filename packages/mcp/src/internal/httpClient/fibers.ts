/**
 * The fibers a streamable HTTP client runs beside its callers: each request's
 * exchange (under the id of its first request, so that a cancellation can
 * interrupt it) and the background ones (the standing GET, the POST of a
 * `notifications/cancelled`, a legacy transport's pumps), all interrupted
 * when the transport closes or fails.
 *
 * What a `FiberMap` and a `FiberSet` did here, as plain collections: making
 * those two cost ~35 Effect operations per session (two `acquireRelease`s and
 * their Deferreds), for a join nobody used. The fibers are forked as
 * `FiberMap.run` forks them: with the caller's context (services and references), interruptible
 * whatever the caller's flags, outliving the caller.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as JsonRpc from "../../JsonRpc.js"

type Running = Fiber.Fiber<unknown, unknown>

export class HttpFibers {
  /** Set once the transport closes (`close`): nothing more is forked. */
  closed = false
  readonly requests = new Map<JsonRpc.RequestId, Running>()
  readonly background = new Set<Running>()
  /** The POSTs of `notifications/cancelled`: waited for (bounded) when the transport closes. */
  readonly cancellations = new Set<Running>()
}

export const make = (): HttpFibers => new HttpFibers()

/** Forks `effect` with `parent`'s context (its services and references), interruptible. */
const forkFrom = <A, E>(parent: Fiber.Fiber<unknown, unknown>, effect: Effect.Effect<A, E>): Running =>
  Effect.runForkWith(parent.context)(effect)

/**
 * Runs a request's exchange under `key`, interrupting the one running under it, if any;
 * `onEnd` runs when it ends, however (an observer: no `ensuring` in the fiber).
 */
export const runRequest = <A, E>(
  fibers: HttpFibers,
  key: JsonRpc.RequestId,
  effect: Effect.Effect<A, E>,
  onEnd: () => void
): Effect.Effect<void> =>
  Effect.withFiber<void>((parent) => {
    if (fibers.closed) return Effect.void
    const fiber = forkFrom(parent, effect)
    const { requests } = fibers
    requests.get(key)?.interruptUnsafe(parent.id)
    requests.set(key, fiber)
    fiber.addObserver(() => {
      if (requests.get(key) === fiber) requests.delete(key)
      onEnd()
    })
    return Effect.void
  })

/** Runs `effect` in a fiber kept in `set` while it runs, unless the transport is closed. */
const runIn = <A, E>(fibers: HttpFibers, set: Set<Running>, effect: Effect.Effect<A, E>): Effect.Effect<void> =>
  Effect.withFiber<void>((parent) => {
    if (fibers.closed) return Effect.void
    const fiber = forkFrom(parent, effect)
    set.add(fiber)
    fiber.addObserver(() => {
      set.delete(fiber)
    })
    return Effect.void
  })

/** Runs `effect` in the background until it ends or the transport closes. */
export const runBackground = <A, E>(fibers: HttpFibers, effect: Effect.Effect<A, E>): Effect.Effect<void> =>
  runIn(fibers, fibers.background, effect)

/**
 * Runs the POST of a `notifications/cancelled` in the background: as `runBackground`, except that
 * closing the transport waits for it (bounded) before interrupting the rest, so that a caller
 * interrupted just before the close (a timeout, Ctrl-C) is cancelled on the server, not only closed.
 */
export const runCancellation = <A, E>(fibers: HttpFibers, effect: Effect.Effect<A, E>): Effect.Effect<void> =>
  runIn(fibers, fibers.cancellations, effect)

/** Interrupts the exchange running under `key`, if any, and waits for its end. */
export const interruptRequest = (fibers: HttpFibers, key: JsonRpc.RequestId): Effect.Effect<void> =>
  Effect.suspend(() => {
    const fiber = fibers.requests.get(key)
    return fiber === undefined ? Effect.void : Effect.asVoid(Fiber.interrupt(fiber))
  })

/** Interrupts every fiber (the background ones first) and waits for their ends. */
export const interruptAll = (fibers: HttpFibers): Effect.Effect<void> =>
  Effect.suspend(() => {
    // Fiber.interruptAll of nothing is ~5 operations
    const requests = fibers.requests.size === 0 ? Effect.void : Fiber.interruptAll([...fibers.requests.values()])
    return fibers.background.size === 0 ? requests : Effect.andThen(Fiber.interruptAll([...fibers.background]), requests)
  })

/**
 * No fiber is forked from now on; the cancellations running are waited for, at most `bound`, then
 * every fiber still running is interrupted.
 */
export const close = (fibers: HttpFibers, bound: Duration.Duration): Effect.Effect<void> =>
  Effect.suspend(() => {
    fibers.closed = true
    if (fibers.cancellations.size === 0) return interruptAll(fibers)
    const cancellations = [...fibers.cancellations]
    // the wait in a fiber of its own: the closing fiber may be an interrupted one (Ctrl-C) in a finalizer
    return Fiber.awaitAll(cancellations).pipe(
      Effect.timeoutOption(bound),
      Effect.interruptible,
      Effect.forkDetach,
      Effect.flatMap(Fiber.join),
      Effect.andThen(Fiber.interruptAll(cancellations)),
      Effect.andThen(interruptAll(fibers))
    )
  })
