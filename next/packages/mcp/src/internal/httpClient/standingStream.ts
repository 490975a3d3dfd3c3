/**
 * The standing GET of the streamable HTTP client: opened after
 * `notifications/initialized`, it carries server messages unrelated to any
 * request. 405 (or any 4xx before a first stream opened) means the server
 * offers none; otherwise it is reopened with `Last-Event-ID` whenever it
 * ends, under the shared reconnection policy. A 404 means the server forgot
 * the session: the engine is told, and the stream waits for its new session.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { TransportError } from "../../McpError.js"
import type * as HttpInbox from "./inbox.js"
import { failTransport } from "./inbox.js"
import * as HttpSession from "./session.js"
import { connect, type Resumption } from "./resumption.js"
import { type Ended, exhaustedMessage, newCursor, reconnecting, stop } from "./reconnect.js"

/** `reinitialize`: whether the engine re-initializes a lost session, waited for at most `renewal`. */
export const listen = (
  r: Resumption,
  reinitialize: boolean,
  renewal: Duration.Duration
): Effect.Effect<void> =>
  Effect.suspend(() => {
    const session = r.inbox.session
    const cursor = newCursor()
    const sink: HttpInbox.Sink = { awaiting: new Set() }
    let seen = session.generation

    const step: Effect.Effect<Ended<void>> = Effect.suspend(() => {
      if (session.generation !== seen) {
        // event ids belong to the old session
        seen = session.generation
        cursor.lastEventId = undefined
        cursor.retryMs = undefined
      }
      // until a first stream opened, a 4xx says the server offers none (405 is the rule)
      return Effect.flatMap(connect(r, cursor, sink, false, !cursor.opened), (outcome): Effect.Effect<Ended<void>> => {
        switch (outcome._tag) {
          case "None":
            return Effect.as(Effect.logDebug("the server offers no standing SSE stream"), stop(undefined))
          case "Complete":
            return Effect.succeed({ _tag: "Lost", healthy: true })
          case "SessionLost":
            if (!reinitialize) {
              HttpSession.forget(session)
              return Effect.as(failTransport(r.inbox, HttpSession.sessionEndedError()), stop(undefined))
            }
            HttpSession.lose(session, outcome.sent, true)
            return HttpSession.renewed(session).pipe(
              Effect.timeout(renewal),
              Effect.match({
                onFailure: () => ({ _tag: "Lost", healthy: false } as const),
                // a new session: its stream starts afresh
                onSuccess: () => ({ _tag: "Lost", healthy: true } as const)
              })
            )
          case "Lost":
            return Effect.succeed(outcome)
        }
      })
    })

    const exhausted = (attempts: number, last: TransportError | undefined) =>
      failTransport(
        r.inbox,
        new TransportError({
          reason: last?.reason === "Connect" ? "Connect" : "Read",
          message: exhaustedMessage("The standing SSE stream", attempts, last),
          ...(last === undefined ? {} : { cause: last })
        })
      )

    return Effect.flatMap(step, (first) =>
      first._tag === "Stop"
        ? Effect.void
        : reconnecting(r.policy, () => cursor.retryMs, step, exhausted, first.error))
  })
