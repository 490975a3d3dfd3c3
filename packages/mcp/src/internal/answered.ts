/**
 * An answer known as it was asked for: an effect that is its outcome already. An `Exit` is an
 * effect (on Effect 4 `Effect.succeed` and `Effect.fail` both make one), so a producer that knows
 * its answer at once returns one (`now`), and a consumer that finds one (`is`, `isSuccess`) uses
 * its outcome with no fiber and no operation. The SDK's fast paths are
 * this contract: a handler's answer sent outside any fiber (`protocol/incoming`), a feature's
 * handler answered with nothing to provide (`server/request`, `server/tools`), a notification
 * only noted (`protocol/read`), a GET or a POST answered as it is asked (`httpServer/get`,
 * `httpServer/post`), written by the node listener with no fiber (`StreamableHttpServer.isAnswered`),
 * a body the listener read first (`httpServer/validate`).
 *
 * `Answered` brands the `Exit` in the types only: what `now` returns is `Effect.succeed`'s value.
 * A guard finds any `Exit` answered, branded or not (a user's handler returns `Effect.succeed`).
 */
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"

declare const AnsweredBrand: unique symbol

/** An effect that is its outcome already: a success (`now`) or a failure (an `Exit.fail`). */
export type Answered<A, E = never> = Exit.Exit<A, E> & { readonly [AnsweredBrand]: true }

/**
 * What a producer of a fast path returns: an effect that may be `Answered` (one type, not a
 * union, so that a guard infers `A` from it; the name says what the consumer may look for).
 */
export type Answer<A, E = never> = Effect.Effect<A, E>

/** `value`, answered now (`Effect.succeed`, named). */
export const now: <A>(value: A) => Answered<A> = Exit.succeed as <A>(value: A) => Answered<A>

/** Nothing, answered now (`Effect.void`, named). */
export const done: Answered<void> = now<void>(undefined)

/** Whether an effect is its outcome already, a success or a failure. */
export const is = <A, E, R>(effect: Effect.Effect<A, E, R>): effect is Answered<A, E> & Effect.Effect<A, E, R> =>
  Exit.isExit(effect)

/** Whether an effect is its outcome already, a success: nothing left to run or to fail. */
export const isSuccess = <A, E, R>(effect: Effect.Effect<A, E, R>): effect is Answered<A> & Exit.Success<A, never> =>
  Exit.isExit(effect) && Exit.isSuccess(effect)
