/**
 * The POSTs of the streamable HTTP client and what becomes of their answers:
 * a request's whole exchange (POST, JSON or SSE answer, resumption of a broken
 * stream, re-initialization on 404, legacy fallback on the first initialize),
 * and the POST of a notification or of responses, awaited.
 */
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"
import type { TransportShape } from "../../Transport.js"
import {
  dedicatedUntraced,
  type Exchange,
  isOk,
  mediaType,
  release,
  textOrEmpty,
  untraced,
  userHeaders,
  type UserHeaders
} from "./exchange.js"
import { type BackendResponse, header } from "./backend.js"
import { refused, sessionIdUnreadable, statusError } from "./failure.js"
import * as HttpFibers from "./fibers.js"
import * as HttpInbox from "./inbox.js"
import { type Build, fallBack } from "./legacyFallback.js"
import { resume, type Resumption } from "./resumption.js"
import * as HttpSession from "./session.js"
import { standardHeaders } from "../headers2026.js"
import { type Cursor, newCursor } from "./reconnect.js"

export interface Poster {
  readonly exchange: Exchange
  readonly inbox: HttpInbox.Inbox
  readonly resumption: Resumption
  readonly headers: UserHeaders
  readonly requestTimeout: Duration.Duration
  /** Whether the engine re-initializes a lost session; otherwise a lost session fails the transport. */
  readonly reinitialize: boolean
  /** Undefined when the legacy fallback is disabled. */
  readonly legacy: {
    readonly build: Build
    readonly scope: Scope.Scope
    readonly adopt: (legacy: TransportShape) => void
  } | undefined
}

type Attempt =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Resume"; readonly cursor: Cursor }
  | { readonly _tag: "SessionLost"; readonly sent: string }
  | { readonly _tag: "Legacy"; readonly status: number; readonly body: string }

const done: Attempt = { _tag: "Done" }

/** Whether a refusal's body is the JSON-RPC error −32022 (unsupported protocol version). */
const refusesVersion = (body: string): boolean => {
  const refusal = refused(400, body, "POST", new URL("http://localhost"))
  return refusal._tag === "Peer" && refusal.error.code === -32022
}

/**
 * The headers of a POST: the session's (or only the user's, for an
 * initialize), the 2026 standard headers derived from the message, and the
 * message's own (`Route.headers`).
 */
const postHeaders = (
  session: HttpSession.HttpSession,
  user: Readonly<Record<string, string>>,
  message: JsonRpc.Outgoing,
  initializing: boolean,
  extra: Readonly<Record<string, string>> | undefined
): Record<string, string> => {
  const base = initializing ? { ...user } : HttpSession.headers(session, user)
  const standard = standardHeaders(message, session.protocolVersion)
  return standard === undefined && extra === undefined ? base : { ...base, ...standard, ...extra }
}

/** A non-2xx answer to a request: the peer's JSON-RPC error when the body is one, else a `TransportError`. */
const failRefused = (p: Poster, sink: HttpInbox.Sink, status: number, body: string) =>
  HttpInbox.failAwaiting(sink, refused(status, body, "POST", p.exchange.url).error, p.inbox)

/** A refused first initialize: a legacy HTTP+SSE server, unless it refused the version. */
const refusedInitialize = (p: Poster, response: BackendResponse, sink: HttpInbox.Sink): Effect.Effect<Attempt> =>
  Effect.flatMap(textOrEmpty(response), (body): Effect.Effect<Attempt> => {
    const { status } = response
    // a 2026 server refusing the 2025 version is no HTTP+SSE server: the engine gets its error
    if (!refusesVersion(body)) return Effect.succeed({ _tag: "Legacy", status, body })
    return Effect.as(failRefused(p, sink, status, body), done)
  })

/** Reads the 2xx answer to a request. */
const readAnswer = (p: Poster, response: BackendResponse, sink: HttpInbox.Sink): Effect.Effect<Attempt> => {
  const type = mediaType(header(response, "content-type"))
  if (type === "text/event-stream") {
    const cursor = newCursor()
    return Effect.map(
      HttpInbox.readSse(p.inbox, response, cursor, sink, true),
      (complete): Attempt => complete ? done : { _tag: "Resume", cursor }
    )
  }
  if (type === "application/json") return Effect.as(HttpInbox.readJson(p.inbox, response, sink), done)
  const error = new TransportError({
    reason: "Protocol",
    message: `Unexpected content type ${type === "" ? "(none)" : type} in the answer of ${p.exchange.url.href} to a request`
  })
  return Effect.as(Effect.andThen(release(response), HttpInbox.failAwaiting(sink, error, p.inbox)), done)
}

/** What the answer to a request's POST is: the session's adoption, a loss, a refusal, or its messages. */
const answered = (
  p: Poster,
  response: BackendResponse,
  sink: HttpInbox.Sink,
  initializing: boolean,
  sent: string | undefined
): Effect.Effect<Attempt> => {
  const session = p.inbox.session
  const { status } = response
  if (initializing) HttpSession.adopt(session, header(response, "mcp-session-id"), isOk(status))
  if (status === 404 && sent !== undefined) return Effect.as(release(response), { _tag: "SessionLost", sent } as const)
  if (initializing && !session.initialized && (status === 400 || status === 404 || status === 405) && p.legacy !== undefined) {
    return refusedInitialize(p, response, sink)
  }
  if (!isOk(status)) {
    return Effect.as(
      Effect.flatMap(textOrEmpty(response), (body) => {
        const unreadable = sent === undefined && !initializing
          ? sessionIdUnreadable(status, body, "POST", p.exchange.url, session)
          : undefined
        return unreadable === undefined ? failRefused(p, sink, status, body) : HttpInbox.failAwaiting(sink, unreadable, p.inbox)
      }),
      done
    )
  }
  // 202: no answer on this exchange (it may come on the standing stream)
  if (status === 202) return Effect.as(release(response), done)
  return readAnswer(p, response, sink)
}

/** One POST of a request and the reading of its answer. */
const attemptRequest = (
  p: Poster,
  message: JsonRpc.Outgoing,
  sink: HttpInbox.Sink,
  initializing: boolean,
  extra: Readonly<Record<string, string>> | undefined
): Effect.Effect<Attempt> =>
  Effect.suspend(() => {
    const session = p.inbox.session
    const sent = initializing ? undefined : session.id
    const sentHeaders = postHeaders(session, userHeaders(p.headers), message, initializing, extra)
    // in the request's own fiber (`startRequest`)
    return Effect.matchEffect(p.exchange.post(message, sentHeaders, undefined, true), {
      onFailure: (error) => Effect.as(HttpInbox.failAwaiting(sink, error, p.inbox), done),
      onSuccess: (response) => answered(p, response, sink, initializing, sent)
    })
  })

/**
 * A request's POST got 404 for session `sent`: the server did not process it.
 * The session is lost, and the call fails so that the engine re-initializes
 * and sends it again; without re-initialization the transport is over.
 */
const onSessionLost = (p: Poster, sink: HttpInbox.Sink, sent: string): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (!p.reinitialize) {
      HttpSession.forget(p.inbox.session)
      return HttpInbox.failTransport(p.inbox, HttpSession.sessionEndedError())
    }
    HttpSession.lose(p.inbox.session, sent, false)
    return HttpInbox.failAwaiting(sink, HttpSession.sessionLostError(), p.inbox)
  })

/**
 * Starts the whole life of a request's exchange (POST, resumption,
 * re-initialization) in its own fiber, under the id of its first request.
 */
export const startRequest = (
  p: Poster,
  message: JsonRpc.Outgoing,
  ids: ReadonlyArray<JsonRpc.RequestId>,
  extra?: Readonly<Record<string, string>> | undefined
): Effect.Effect<void> => {
  const sink: HttpInbox.Sink = { awaiting: new Set(ids) }
  const { sinks } = p.inbox
  const forget = () => {
    for (const id of ids) if (sinks.get(id) === sink) sinks.delete(id)
  }
  const single = Array.isArray(message) ? undefined : message as JsonRpc.Request
  const initializing = single?.method === "initialize"
  const run: Effect.Effect<void> = Effect.flatMap(attemptRequest(p, message, sink, initializing, extra), (outcome) => {
    switch (outcome._tag) {
      case "Done":
        return Effect.void
      case "Resume":
        return resume(p.resumption, outcome.cursor, sink)
      case "Legacy": {
        const legacy = fallBack({
          ...p.legacy!,
          inbox: p.inbox,
          url: p.exchange.url,
          request: single!,
          status: outcome.status,
          body: outcome.body,
          sink
        })
        // the legacy transport goes through the HttpClient (its spans, its trace headers)
        return p.exchange.viaHttpClient ? legacy : dedicatedUntraced(legacy)
      }
      case "SessionLost":
        return onSessionLost(p, sink, outcome.sent)
    }
  })
  const exchange = Effect.suspend(() => {
    for (const id of ids) sinks.set(id, sink)
    // until the engine initialized a new session, nothing else can be processed
    return p.inbox.session.lost && !initializing
      ? HttpInbox.failAwaiting(sink, HttpSession.sessionLostError(), p.inbox)
      : run
  })
  // only the HttpClient backend makes a span per exchange
  return HttpFibers.runRequest(p.inbox.fibers, ids[0]!, p.exchange.viaHttpClient ? dedicatedUntraced(exchange) : exchange, forget)
}

/** What a POST of a notification or responses got: the session the server no longer knows (404), if so. */
const postAnswered = (p: Poster, response: BackendResponse, sent: string | undefined): Effect.Effect<string | undefined, TransportError> => {
  const { status } = response
  if (status === 404 && sent !== undefined) return Effect.as(release(response), sent)
  if (!isOk(status)) {
    return Effect.flatMap(textOrEmpty(response), (text) =>
      Effect.fail(
        (sent === undefined ? sessionIdUnreadable(status, text, "POST", p.exchange.url, p.inbox.session) : undefined) ??
          statusError(status, text, "POST", p.exchange.url)
      ))
  }
  // a server may answer with messages; anything else is discarded
  if (status === 202 || mediaType(header(response, "content-type")) !== "application/json") {
    return Effect.as(release(response), undefined)
  }
  return Effect.map(textOrEmpty(response), (text) => {
    if (text.trim() !== "") HttpInbox.deliver(p.inbox, JsonRpc.parse(text), { awaiting: new Set() })
    return undefined
  })
}

/** One POST of a notification or responses; resolves to the session the server no longer knows (404), if so. */
const postOnce = (p: Poster, message: JsonRpc.Outgoing): Effect.Effect<string | undefined, TransportError> =>
  p.exchange.bounded("POST", (controller) =>
    Effect.suspend(() => {
      const session = p.inbox.session
      const sent = session.id
      const headers = postHeaders(session, userHeaders(p.headers), message, false, undefined)
      return Effect.flatMap(p.exchange.post(message, headers, controller), (response) => postAnswered(p, response, sent))
    })
  )

/**
 * POSTs a notification or responses and waits for the server to take it. A
 * notification refused for a lost session fails with `SessionLost` (the
 * engine re-initializes and sends it again); responses belong to the old
 * session, so the loss is signalled to the engine instead.
 */
export const postOther = (p: Poster, message: JsonRpc.Outgoing): Effect.Effect<void, TransportError> => {
  const post = Effect.suspend(() => {
    const session = p.inbox.session
    if (session.lost) return Effect.fail(HttpSession.sessionLostError())
    return Effect.flatMap(postOnce(p, message), (lost) => {
      if (lost === undefined) return Effect.void
      if (!p.reinitialize) {
        HttpSession.forget(session)
        return Effect.andThen(HttpInbox.failTransport(p.inbox, HttpSession.sessionEndedError()), Effect.fail(HttpSession.sessionEndedError()))
      }
      const responses = (Array.isArray(message) ? message : [message]).every((m) => JsonRpc.isResponse(m))
      HttpSession.lose(session, lost, responses)
      return Effect.fail(HttpSession.sessionLostError())
    })
  })
  return p.exchange.viaHttpClient ? untraced(post) : post
}
