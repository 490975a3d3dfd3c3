/**
 * Session recovery of the streamable HTTP client: when the server answers 404
 * to a request that carried the session id, the session is gone; the engine's
 * initialize request is replayed under a fresh id (its answer stays here),
 * then `notifications/initialized`, and the new session id is adopted.
 * Requests that saw the same session die wait on one re-initialization.
 * @internal
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as JsonRpc from "../JsonRpc.js"
import { TransportError } from "../McpError.js"
import { type Exchange, isOk, mediaType, userHeaders, type UserHeaders } from "./httpExchange.js"
import * as HttpInbox from "./httpInbox.js"
import * as HttpSession from "./httpSession.js"
import { newCursor } from "./reconnect.js"

export const sessionLostError = () =>
  new TransportError({
    reason: "Closed",
    status: 404,
    message: "The server ended the session (HTTP 404) and re-initialization is disabled"
  })

/** Re-initializes once per generation: `reinitialize(seen)` is a no-op when generation `seen` is already replaced. */
export const make = (
  exchange: Exchange,
  inbox: HttpInbox.Inbox,
  headers: UserHeaders,
  requestTimeout: Duration.Duration
): Effect.Effect<(seen: number) => Effect.Effect<void, TransportError>> =>
  Effect.map(Effect.makeSemaphore(1), (lock) => {
    const session = inbox.session
    let count = 0
    const fail = (message: string) =>
      new TransportError({ reason: "Protocol", message: `Re-initialization failed: ${message}` })

    /** The replayed initialize: its answer, and the new session id. */
    const initialize = (request: JsonRpc.Request) =>
      Effect.scoped(Effect.gen(function*() {
        let answer: JsonRpc.Response | undefined
        const sink: HttpInbox.Sink = {
          awaiting: new Set([request.id]),
          intercept: (m) => {
            if (!JsonRpc.isResponse(m) || m.id !== request.id) return false
            answer = m
            return true
          }
        }
        const response = yield* exchange.post(request, userHeaders(headers))
        const sid = response.headers["mcp-session-id"]
        if (!isOk(response.status)) return yield* fail(`HTTP ${response.status}`)
        const type = mediaType(response.headers["content-type"])
        if (type === "application/json") yield* HttpInbox.readJson(inbox, response, sink)
        else if (type === "text/event-stream") yield* HttpInbox.readSse(inbox, response, newCursor(), sink, true)
        else return yield* fail(`unexpected content type ${type}`)
        return { answer, sid: sid === "" ? undefined : sid }
      }))

    const run = (original: JsonRpc.Request) =>
      Effect.gen(function*() {
        // requests keep the old id meanwhile: their 404 waits for this to end, then retries
        const { answer, sid } = yield* initialize({ ...original, id: `effect-mcp-reinitialize-${++count}` })
        if (answer === undefined) return yield* fail("no answer to initialize")
        if ("error" in answer) return yield* fail(answer.error.message)
        const version = answer.result.protocolVersion
        if (typeof version === "string" && session.protocolVersion !== undefined && version !== session.protocolVersion) {
          return yield* fail(`the server now speaks ${version}, not ${session.protocolVersion}`)
        }
        yield* Effect.scoped(Effect.gen(function*() {
          const notification = JsonRpc.notification("notifications/initialized")
          const response = yield* exchange.post(notification, HttpSession.headers(session, userHeaders(headers), sid))
          if (!isOk(response.status)) return yield* fail(`notifications/initialized got HTTP ${response.status}`)
        }))
        HttpSession.renew(session, sid)
      })

    return (seen: number) =>
      lock.withPermits(1)(Effect.suspend(() => {
        if (session.generation !== seen) return Effect.void
        const original = session.initializeRequest
        if (original === undefined) return Effect.fail(fail("no initialize request to replay"))
        return run(original).pipe(
          Effect.timeoutFail({ duration: requestTimeout, onTimeout: () => fail("timed out") }),
          // the old session is gone either way: no DELETE for it
          Effect.tapError(() => Effect.sync(() => HttpSession.forget(session)))
        )
      }))
  })
