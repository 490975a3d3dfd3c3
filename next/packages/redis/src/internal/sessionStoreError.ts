/**
 * A Redis failure as the `SessionStore` seam names it: the store could not
 * be reached (or answered an error). One home for the records and the bus.
 */
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Effect from "effect/Effect"
import type { RedisError } from "../RedisClient.js"

/** `effect`'s `RedisError` as a `SessionStoreError` (`Unavailable`). */
export const unavailable = <A>(effect: Effect.Effect<A, RedisError>): Effect.Effect<A, SessionStore.SessionStoreError> =>
  Effect.mapError(effect, (error) => new SessionStore.SessionStoreError({ reason: "Unavailable", message: error.message, cause: error }))
