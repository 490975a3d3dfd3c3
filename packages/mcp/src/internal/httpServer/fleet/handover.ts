/**
 * What this instance's streams hand to other instances over the fleet's bus:
 * a message for a standing stream held elsewhere, and the events of a stream
 * resumed elsewhere (forwarded by its owner). Made from the bus alone, before
 * the streams, which are given it when they are made (`SseStream.Handover`).
 */
import * as Effect from "effect/Effect"
import * as JsonRpc from "../../../JsonRpc.js"
import type { FleetBus, SessionStoreError } from "../../../SessionStore.js"
import type { Handover } from "../sseStream.js"

/** A store operation the fleet goes on without: its failure is logged. */
export const logged = <A>(effect: Effect.Effect<A, SessionStoreError>, what: string): Effect.Effect<void> =>
  Effect.asVoid(Effect.catch(effect, (e) => Effect.logWarning(`${what}: ${e.message}`)))

/** Server messages every replica of a session produces alike: only the holder of the standing stream sends them. */
const FANNED_OUT = new Set([
  "notifications/resources/updated",
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed"
])

/** The handover of one instance's streams, over `bus`. */
export const make = (bus: FleetBus): Handover => ({
  standing: (session, message) =>
    JsonRpc.isNotification(message) && FANNED_OUT.has(message.method)
      ? Effect.void
      : logged(bus.publish(undefined, { _tag: "Standing", sessionId: session.id, message }), "standing message"),
  forwarded: (to, session, stream, id, data) =>
    logged(
      bus.publish(to, {
        _tag: "StreamEvent",
        sessionId: session.id,
        streamId: stream.id,
        id,
        data,
        end: data === undefined
      }),
      "forwarded event"
    )
})
