/**
 * A one-shot completion: `complete` once (later calls are ignored), `await`
 * by one waiter. What a `Deferred` does for the engine's per-call paths, for
 * a fraction of its cost: building a `Deferred` costs more than the rest of a
 * call's bookkeeping.
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"

export interface Once<A, E> {
  /** Completes, the first time only. */
  readonly complete: (exit: Exit.Exit<A, E>) => void
  /** Waits for the completion (at once when it came first). */
  readonly await: Effect.Effect<A, E>
  /** Whether it completed. */
  readonly isDone: () => boolean
  /** The completion, if it came. */
  readonly poll: () => Exit.Exit<A, E> | undefined
}

export const make = <A, E>(): Once<A, E> => {
  let settled: Exit.Exit<A, E> | undefined
  let resume: ((exit: Exit.Exit<A, E>) => void) | undefined
  return {
    complete: (exit) => {
      if (settled !== undefined) return
      settled = exit
      if (resume !== undefined) resume(exit)
    },
    // no canceler (it would cost an interruption handler per wait): an interrupted waiter's
    // callback ignores a later completion, as every async callback after its first call does
    await: Effect.async<A, E>((callback) => {
      if (settled !== undefined) return callback(settled)
      resume = callback
    }),
    isDone: () => settled !== undefined,
    poll: () => settled
  }
}
