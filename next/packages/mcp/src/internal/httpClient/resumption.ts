/**
 * SSE resumption of the streamable HTTP client: one GET connection with
 * `Last-Event-ID`, read to its end, and the resumption of a request's stream
 * that ended before its answer arrived (waiting the server's `retry:` or the
 * backoff of `reconnect`, shared with the standing GET and the legacy client).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { TransportError } from "../../McpError.js"
import { type BackendResponse, header } from "./backend.js"
import { type Exchange, isOk, mediaType, release, userHeaders, type UserHeaders } from "./exchange.js"
import * as HttpInbox from "./inbox.js"
import * as HttpSession from "./session.js"
import { type Cursor, type Ended, exhaustedMessage, type Policy, reconnecting, stop } from "./reconnect.js"

/** How one GET connection ended. */
export type Connection =
  /** Every awaited answer arrived. */
  | { readonly _tag: "Complete" }
  /** The server offers no stream there. */
  | { readonly _tag: "None" }
  /** 404 to a request with the session id: the session is gone. */
  | { readonly _tag: "SessionLost"; readonly sent: string }
  | Extract<Ended<never>, { readonly _tag: "Lost" }>

const lost = (healthy: boolean, error?: TransportError): Connection =>
  error === undefined ? { _tag: "Lost", healthy } : { _tag: "Lost", healthy, error }

export interface Resumption {
  readonly exchange: Exchange
  readonly inbox: HttpInbox.Inbox
  readonly headers: UserHeaders
  readonly policy: Policy
  /** A connection open this long is healthy. */
  readonly resetAfterMs: number
}

/** What became of a GET whose answer is no SSE stream. With `optional`, a 4xx of whatever kind means the server offers no stream. */
const refusedStream = (r: Resumption, status: number, type: string, sent: string | undefined, optional: boolean): Connection => {
  if (status === 405) return { _tag: "None" }
  // a server without GET support may answer 404 or 400 instead of 405; a lost
  // session is then noticed by the next request
  if (status >= 400 && status < 500 && optional) return { _tag: "None" }
  if (status === 404 && sent !== undefined) return { _tag: "SessionLost", sent }
  return lost(
    false,
    new TransportError({
      reason: isOk(status) ? "Protocol" : "HttpStatus",
      status,
      message: `GET ${r.exchange.url.href} answered HTTP ${status} (${type === "" ? "no content type" : type})`
    })
  )
}

const completed: Connection = { _tag: "Complete" }

/** Reads an opened SSE stream to its end. */
const readStream = (
  r: Resumption,
  response: BackendResponse,
  cursor: Cursor,
  sink: HttpInbox.Sink,
  untilAnswered: boolean
): Effect.Effect<Connection> =>
  Effect.flatMap(Clock.currentTimeMillis, (openedAt) => {
    cursor.delivered = false
    cursor.opened = true
    cursor.broke = undefined
    return Effect.flatMap(HttpInbox.readSse(r.inbox, response, cursor, sink, untilAnswered), (complete) =>
      complete
        ? Effect.succeed(completed)
        : Effect.map(
          Clock.currentTimeMillis,
          (now) => lost(cursor.delivered || now - openedAt >= r.resetAfterMs, cursor.broke)
        ))
  })

/** One GET connection: reads it to its end. With `optional`, a 4xx of whatever kind means the server offers no stream. */
export const connect = (
  r: Resumption,
  cursor: Cursor,
  sink: HttpInbox.Sink,
  untilAnswered: boolean,
  optional = false
): Effect.Effect<Connection> =>
  Effect.suspend(() => {
    const session = r.inbox.session
    const sent = session.id
    return Effect.matchEffect(r.exchange.get(HttpSession.headers(session, userHeaders(r.headers)), cursor.lastEventId), {
      onFailure: (error) => Effect.as(Effect.logDebug("GET failed", error.message), lost(false, error)),
      onSuccess: (response) => {
        const { status } = response
        const type = mediaType(header(response, "content-type"))
        if (isOk(status) && type === "text/event-stream") return readStream(r, response, cursor, sink, untilAnswered)
        return Effect.as(release(response), refusedStream(r, status, type, sent, optional))
      }
    })
  })

/** Resumes the stream of a request with GET + Last-Event-ID until its responses arrived. */
export const resume = (r: Resumption, cursor: Cursor, sink: HttpInbox.Sink): Effect.Effect<void> => {
  if (cursor.lastEventId === undefined) {
    const broke = cursor.broke
    return HttpInbox.failAwaiting(
      sink,
      broke === undefined
        ? new TransportError({
          reason: "Read",
          message: `The server at ${r.exchange.url.href} closed the response stream before answering, ` +
            "and sent no event id to resume it from"
        })
        : new TransportError({
          reason: broke.reason,
          message: `The connection to the server was lost before the answer arrived (the request may or may not have run): ${broke.message}`,
          cause: broke,
          ...(broke.code === undefined ? {} : { code: broke.code })
        }),
      r.inbox
    )
  }
  const attempt: Effect.Effect<Ended<void>> = Effect.suspend(() =>
    sink.awaiting.size === 0 ? Effect.succeed(stop(undefined)) : Effect.flatMap(connect(r, cursor, sink, true), (outcome) => {
      switch (outcome._tag) {
        case "Complete":
          return Effect.succeed(stop(undefined))
        case "None":
          return Effect.succeed(lost(false, new TransportError({
            reason: "HttpStatus",
            status: 405,
            message: `GET ${r.exchange.url.href} answered HTTP 405: the stream cannot be resumed`
          })) as Ended<void>)
        case "SessionLost":
          // the answer died with the session; the next request re-initializes
          return Effect.as(
            HttpInbox.failAwaiting(
              sink,
              new TransportError({
                reason: "Closed",
                status: 404,
                message: "The session ended (HTTP 404) while the response stream was being resumed"
              }),
              r.inbox
            ),
            stop(undefined)
          )
        case "Lost":
          return Effect.succeed(sink.awaiting.size === 0 ? stop(undefined) : outcome)
      }
    })
  )
  return reconnecting(r.policy, () => cursor.retryMs, attempt, (attempts, last) =>
    HttpInbox.failTransport(
      r.inbox,
      new TransportError({
        reason: last?.reason === "Connect" ? "Connect" : "Read",
        message: exhaustedMessage("The response stream", attempts, last),
        ...(last === undefined ? {} : { cause: last })
      })
    ))
}
