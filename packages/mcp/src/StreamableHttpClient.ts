/**
 * The client side of the streamable HTTP transport (MCP 2025-11-25), written
 * against `@effect/platform`'s `HttpClient`: any client layer works
 * (`@effect/platform-node/NodeHttpClient`, `@effect/platform/FetchHttpClient`).
 * On Node, `@effect-mcp/node/NodeStreamableHttpClient` provides it in one
 * Layer over undici, at less cost per exchange.
 *
 * What it does on the wire:
 *
 * - every message is POSTed with `Accept: application/json, text/event-stream`;
 *   after initialization `Mcp-Session-Id` (from the initialize response) and
 *   `MCP-Protocol-Version` (read from the initialize result as it passes
 *   through) are added to every request;
 * - the answer to a request is read as `application/json` (one message or a
 *   batch) or as `text/event-stream`, parsed incrementally; every message goes
 *   to `incoming`; the last event id and `retry:` of each stream are kept;
 * - after `notifications/initialized` the standing GET stream is opened
 *   (405: the server has none, which is fine);
 * - an SSE stream that ends or breaks before the response it carries arrived is
 *   resumed with GET + `Last-Event-ID`, waiting the server's `retry:` or an
 *   exponential backoff with jitter; a graceful close counts as an attempt like a
 *   broken connection; a connection that delivered a message or stayed open for
 *   `resetAfter` resets the count. When
 *   the attempts are spent, `incoming` fails with a `TransportError` so that the
 *   engine fails every pending call: never a silent dead channel;
 * - 404 on a request that carried the session id means the session is gone: the
 *   transport re-initializes once (the initialize request the engine sent,
 *   replayed under a fresh id, then `notifications/initialized`) and retries;
 *   a second 404 fails the call;
 * - `notifications/cancelled` from the engine is POSTed, then the cancelled
 *   request's HTTP exchange is aborted; a stream is also released as soon as the
 *   response it carries has arrived;
 * - closing the scope aborts every stream, then DELETEs the session (bounded in
 *   time, skipped when there is no session);
 * - a 400, 404 or 405 answer to the first initialize POST means a 2024-11-05
 *   HTTP+SSE server: the transport switches to `LegacySseClient` (or the
 *   function given as `legacyFallback`).
 *
 * **How failures reach a caller.** `send` of a request returns as soon as the
 * exchange is started, so that the engine's per-request timeout always runs: a
 * request whose POST fails (non-2xx, network error, unexpected content type,
 * unresumable stream) gets a JSON-RPC error response through `incoming`, with
 * the server's JSON-RPC error when the body has one, else code
 * {@link HTTP_ERROR_CODE} and `data.httpStatus`. Notifications and responses
 * are awaited: `send` fails with a `TransportError` on a non-2xx answer.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Layer from "effect/Layer"
 *
 * const client = McpClient.layer({ name: "app", version: "1.0.0" }).pipe(
 *   Layer.provide(StreamableHttpClient.layer({ url: "http://localhost:3000/mcp" })),
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as Headers from "@effect/platform/Headers"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as FiberRef from "effect/FiberRef"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberMap from "effect/FiberMap"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { backoff, type ReconnectOptions, toSchedule } from "./internal/reconnect.js"
import * as Sse from "./internal/sse.js"
import { tracing } from "./internal/tracing.js"
import * as JsonRpc from "./JsonRpc.js"
import * as LegacySseClient from "./LegacySseClient.js"
import { TransportError } from "./McpError.js"
import { Transport, type TransportShape, fromMailbox } from "./Transport.js"

/** The JSON-RPC error code given to a request whose HTTP exchange failed without a JSON-RPC error of its own. */
export const HTTP_ERROR_CODE = -32000

export type { ReconnectOptions } from "./internal/reconnect.js"

/** What a legacy fallback is told. */
export interface LegacyFallbackContext {
  readonly url: URL
  /** The status of the refused initialize POST. */
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
}

/** Builds the transport to fall back to; it lives as long as the streamable HTTP transport. */
export type LegacyFallback = (
  context: LegacyFallbackContext
) => Effect.Effect<TransportShape, TransportError, Scope.Scope | HttpClient.HttpClient>

export interface StreamableHttpClientOptions {
  /** The MCP endpoint. */
  readonly url: string | URL
  /** Extra headers on every request (e.g. `Authorization`); a function is called per request. */
  readonly headers?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>) | undefined
  /**
   * Delays between reconnection attempts: backoff options or any Schedule
   * (its input is the attempt number, from 1). The server's `retry:` wins
   * over either. Default: 1 s, ×1.5, capped at 30 s, jitter 0.2.
   */
  readonly reconnect?: ReconnectOptions | Schedule.Schedule<unknown, number> | undefined
  /** Reconnection attempts per stream before the transport fails (default 5). */
  readonly maxRetries?: number | undefined
  /**
   * A connection that delivers a message, or stays open this long, resets the
   * attempt count of its stream (default 5 s), so that a server that closes its
   * streams on purpose now and then (polling) is not mistaken for a dead one.
   */
  readonly resetAfter?: Duration.DurationInput | undefined
  /**
   * Bound on HTTP exchanges that are not JSON-RPC requests: POSTs of
   * notifications and responses, the headers of a GET, re-initialization
   * (default 30 s). Requests are bounded by the engine's per-request timeout.
   */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** Re-initialize transparently when the server forgets the session (404); default true. When false, a 404 fails the transport. */
  readonly reinitializeOnSessionLoss?: boolean | undefined
  /** Bound on the DELETE sent on close (default 2 s); `false` sends none. */
  readonly deleteOnClose?: Duration.DurationInput | false | undefined
  /** Open the standing GET stream after initialization (default true). */
  readonly listen?: boolean | undefined
  /** Fall back to the 2024-11-05 HTTP+SSE transport when the initialize POST gets 400/404/405 (default true, `LegacySseClient`). */
  readonly legacyFallback?: boolean | LegacyFallback | undefined
  /** Largest SSE event accepted, in characters (default 32 Mi, as stdio's message limit). */
  readonly maxEventSize?: number | undefined
}

// ----------------------------------------------------------------------------
// internals
// ----------------------------------------------------------------------------

/** Where one SSE stream stands: what to resume from and how long to wait. */
interface Cursor {
  lastEventId: string | undefined
  retryMs: number | undefined
  /** Whether the current connection delivered a message (resets the attempt count). */
  delivered: boolean
  /** Whether a connection was ever opened on this stream. */
  opened: boolean
}

/** Who is waiting on a stream: the ids of the requests it answers. */
interface Sink {
  readonly awaiting: Set<JsonRpc.RequestId>
  /** Takes a message out of the flow (re-initialization reads its own answer). */
  readonly intercept?: ((message: JsonRpc.Message) => boolean) | undefined
}

type Attempt =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Resume"; readonly cursor: Cursor }
  | { readonly _tag: "SessionLost"; readonly generation: number }
  | { readonly _tag: "Legacy"; readonly status: number; readonly body: string }

type Connection = "Complete" | "Progress" | "Retry" | "SessionLost" | "None"

const done: Attempt = { _tag: "Done" }

const newCursor = (): Cursor => ({ lastEventId: undefined, retryMs: undefined, delivered: false, opened: false })

const mediaType = (value: string | undefined): string => (value ?? "").split(";")[0]!.trim().toLowerCase()

const isOk = (status: number) => status >= 200 && status < 300

const isId = (u: unknown): u is JsonRpc.RequestId => typeof u === "string" || typeof u === "number"

/** The JSON-RPC error for a refused HTTP exchange: the server's own when its body has one. */
const httpError = (status: number, body: string): JsonRpc.ErrorObject => {
  try {
    const parsed = JSON.parse(body) as { readonly error?: { readonly code?: unknown; readonly message?: unknown } }
    const error = parsed?.error
    if (typeof error?.code === "number" && typeof error.message === "string") {
      return { code: error.code, message: error.message, data: { httpStatus: status } }
    }
  } catch {
    // not JSON: described below
  }
  const text = body.trim()
  return {
    code: HTTP_ERROR_CODE,
    message: `HTTP ${status}${text === "" ? "" : `: ${text.slice(0, 200)}`}`,
    data: { httpStatus: status }
  }
}


// ----------------------------------------------------------------------------
// the transport
// ----------------------------------------------------------------------------

/**
 * Builds the transport. Nothing goes on the wire until the engine sends
 * `initialize`; closing the scope aborts every stream and DELETEs the session.
 */
export const make = (
  options: StreamableHttpClientOptions
): Effect.Effect<TransportShape, never, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const baseClient = yield* HttpClient.HttpClient
    // an exchange is aborted when interrupted before its headers, and when its body stream is
    // dropped; every body is read to its end or dropped (`HttpClient.withScope` would abort even
    // finished exchanges, and each abort builds errors with stack traces)
    const client = baseClient
    const layerScope = yield* Effect.scope
    const url = new URL(options.url)
    const schedule = toSchedule(options.reconnect)
    const maxRetries = options.maxRetries ?? 5
    const resetAfterMs = Duration.toMillis(options.resetAfter ?? Duration.seconds(5))
    const requestTimeout = Duration.decode(options.requestTimeout ?? Duration.seconds(30))
    const reinitializeOnSessionLoss = options.reinitializeOnSessionLoss !== false
    const listenEnabled = options.listen !== false
    const parserOptions = options.maxEventSize === undefined ? undefined : { maxEventSize: options.maxEventSize }
    const wholeBodyLimit = options.maxEventSize ?? Sse.DEFAULT_MAX_EVENT_SIZE

    let sessionId: string | undefined
    let protocolVersion: string | undefined
    /** The engine's initialize request, replayed when the session is lost. */
    let initializeRequest: JsonRpc.Request | undefined
    /** Ids of initialize requests whose result we have not seen yet. */
    const initializeIds = new Set<JsonRpc.RequestId>()
    /** The exchange waiting for each request id, wherever its response arrives. */
    const sinks = new Map<JsonRpc.RequestId, Sink>()
    /** Whether a session was ever established (a later 4xx on initialize is no legacy server). */
    let initialized = false
    /** Bumped by every re-initialization; stale cursors and 404s compare against it. */
    let generation = 0
    let reinitializations = 0
    let listening = false
    let closing = false
    let failure: TransportError | undefined
    let legacy: TransportShape | undefined

    // finalizers run in reverse: mark closing, interrupt exchanges, DELETE, end incoming
    const mailbox = yield* Mailbox.make<JsonRpc.Frame, TransportError>()
    yield* Effect.addFinalizer(() => mailbox.end)
    yield* Effect.addFinalizer(() => deleteSession)
    const requests = yield* FiberMap.make<JsonRpc.RequestId>()
    const background = yield* FiberSet.make<unknown, never>()
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closing = true
      })
    )
    const reinitializeLock = yield* Effect.makeSemaphore(1)

    // ------------------------------------------------------------------------
    // HTTP
    // ------------------------------------------------------------------------

    const userHeaders = (): Readonly<Record<string, string>> =>
      typeof options.headers === "function" ? options.headers() : (options.headers ?? {})

    const sessionHeaders = (sid: string | undefined = sessionId): Record<string, string> => {
      const headers: Record<string, string> = { ...userHeaders() }
      if (sid !== undefined) headers["mcp-session-id"] = sid
      if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion
      return headers
    }

    const writeError = (cause: { readonly message: string }) =>
      new TransportError({ reason: "Write", message: `HTTP request failed: ${cause.message}`, cause })

    /**
     * Ends an exchange whose body is of no use: read to its end (a bounded
     * wait; giving up destroys the body, which aborts the exchange), so the
     * connection goes back to the pool.
     */
    const release = (response: HttpClientResponse.HttpClientResponse) =>
      response.stream.pipe(Stream.runDrain, Effect.timeout(Duration.seconds(1)), Effect.ignore)

    /**
     * Under Effect's built-in tracer, exchanges make no HTTP client span: it
     * would cost more than the rest of the exchange and nobody reads it. The
     * engine's own span per request stays whenever a real tracer is installed.
     * `dedicatedUntraced` is for a fiber that runs this exchange only.
     */
    const untraced = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      Effect.withFiberRuntime((fiber) =>
        tracing(fiber) ? effect : Effect.locally(effect, FiberRef.currentTracerEnabled, false)
      )
    const dedicatedUntraced = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      Effect.withFiberRuntime((fiber) =>
        tracing(fiber) ? effect : Effect.zipRight(FiberRef.set(FiberRef.currentTracerEnabled, false), effect)
      )

    /** POSTs a message; an initialize goes out without session headers. */
    const postBase = HttpClientRequest.post(url)
    const post = (message: JsonRpc.Outgoing, headers: Readonly<Record<string, string>>) =>
      client.execute(
        HttpClientRequest.bodyText(
          HttpClientRequest.setHeaders(postBase, { ...headers, accept: "application/json, text/event-stream" }),
          JsonRpc.encode(message),
          "application/json"
        )
      ).pipe(Effect.mapError(writeError))

    /** Opens a GET stream; its headers must come within `requestTimeout`. */
    const get = (lastEventId: string | undefined) =>
      client.execute(
        HttpClientRequest.get(url).pipe(
          HttpClientRequest.setHeaders(sessionHeaders()),
          HttpClientRequest.setHeader("accept", "text/event-stream"),
          lastEventId === undefined ? (r) => r : HttpClientRequest.setHeader("last-event-id", lastEventId)
        )
      ).pipe(
        Effect.mapError((cause) => new TransportError({ reason: "Read", message: `GET failed: ${cause.message}`, cause })),
        Effect.timeoutFail({
          duration: requestTimeout,
          onTimeout: () => new TransportError({ reason: "Read", message: "GET timed out" })
        })
      )

    // ------------------------------------------------------------------------
    // incoming
    // ------------------------------------------------------------------------

    const observe = (response: JsonRpc.Response) => {
      if (response.id === null || !initializeIds.has(response.id)) return
      initializeIds.delete(response.id)
      if ("result" in response) {
        const version = response.result.protocolVersion
        if (typeof version === "string") protocolVersion = version
        initialized = true
      }
    }

    /** Hands a frame to `incoming`, noting which awaited responses it carries. */
    const deliver = (frame: JsonRpc.Frame, sink: Sink): void => {
      const items = JsonRpc.isBatch(frame) ? frame : [frame]
      const out: Array<JsonRpc.Message | JsonRpc.Invalid> = []
      for (let item of items) {
        if (JsonRpc.isInvalid(item)) {
          const id = item.id
          if (!item.respond && id !== null && (sink.awaiting.has(id) || sinks.has(id))) {
            // a broken response to a request of ours: fail that call now rather than at its timeout
            sink.awaiting.delete(id)
            sinks.get(id)?.awaiting.delete(id)
            out.push(JsonRpc.failure(id, item.error))
          } else {
            out.push(item)
          }
          continue
        }
        if (JsonRpc.isResponse(item)) {
          if (item.id === null && sink.awaiting.size === 1) {
            // an error about "the" request of this exchange
            item = { ...item, id: sink.awaiting.values().next().value! } as JsonRpc.ErrorResponse
          }
          if (item.id !== null) {
            sink.awaiting.delete(item.id)
            sinks.get(item.id)?.awaiting.delete(item.id)
          }
          observe(item as JsonRpc.Response)
        }
        if (sink.intercept?.(item) === true) continue
        out.push(item)
      }
      if (out.length === 0) return
      if (!JsonRpc.isBatch(frame)) {
        mailbox.unsafeOffer(out[0]!)
      } else if (out.every((m) => !JsonRpc.isInvalid(m) && JsonRpc.isResponse(m))) {
        // responses need no batch answer: hand them over one by one
        for (const m of out) mailbox.unsafeOffer(m)
      } else {
        mailbox.unsafeOffer(out)
      }
    }

    const failAwaiting = (sink: Sink, error: JsonRpc.ErrorObject) =>
      Effect.sync(() => {
        for (const id of sink.awaiting) {
          const response = JsonRpc.failure(id, error)
          if (sink.intercept?.(response) !== true) mailbox.unsafeOffer(response)
        }
        sink.awaiting.clear()
      })

    /** Fails `incoming`, so that the engine fails every pending call, and aborts every exchange. */
    const failTransport = (error: TransportError) =>
      Effect.suspend(() => {
        if (closing || failure !== undefined) return Effect.void
        failure = error
        return mailbox.fail(error).pipe(
          Effect.zipRight(Effect.forkDaemon(Effect.zipRight(FiberMap.clear(requests), FiberSet.clear(background)))),
          Effect.asVoid
        )
      })

    const readJson = (response: HttpClientResponse.HttpClientResponse, sink: Sink) =>
      Effect.flatMap(Effect.either(response.text), (text) => {
        if (Either.isLeft(text)) {
          return failAwaiting(sink, { code: HTTP_ERROR_CODE, message: `Could not read the response: ${text.left.message}` })
        }
        if (text.right.trim() !== "") deliver(JsonRpc.parse(text.right), sink)
        return sink.awaiting.size === 0
          ? Effect.void
          : failAwaiting(sink, { code: HTTP_ERROR_CODE, message: "The server's JSON answer did not contain the response" })
      })

    /**
     * Reads an SSE body into `incoming`. With `untilAnswered`, stops (and so
     * releases the stream) once every awaited response arrived. Resolves to
     * whether that happened; a broken stream is just a stream that ended.
     */
    const readSse = (
      response: HttpClientResponse.HttpClientResponse,
      cursor: Cursor,
      sink: Sink,
      untilAnswered: boolean,
      headers: Headers.Headers = response.headers
    ): Effect.Effect<boolean> =>
      Effect.suspend(() => {
        const answered = () => untilAnswered && sink.awaiting.size === 0
        const parser = Sse.makeParser((event) => {
          if (event._tag === "Retry") {
            cursor.retryMs = Duration.toMillis(event.duration)
            return
          }
          if (event.id !== undefined) cursor.lastEventId = event.id
          // priming events (an id and empty data) and other event types carry no message
          if (event.event !== "message" || event.data.trim() === "") return
          cursor.delivered = true
          deliver(JsonRpc.parse(event.data), sink)
        }, parserOptions)
        // a body of known, bounded length (an answer that was complete before it was sent) is
        // read at once: a fraction of the cost of streaming it chunk by chunk
        const length = Number(headers["content-length"])
        if (Number.isFinite(length) && length <= wholeBodyLimit) {
          return Effect.either(response.text).pipe(
            Effect.flatMap((text) => {
              if (Either.isLeft(text)) return Effect.logDebug("SSE body broke", text.left.message)
              const error = parser.feed(text.right)
              return error === undefined ? Effect.void : Effect.logDebug("SSE stream broke", error.message)
            }),
            Effect.map(answered)
          )
        }
        const decoder = new TextDecoder()
        return response.stream.pipe(
          Stream.runForEachWhile((bytes) => {
            const error = parser.feed(decoder.decode(bytes, { stream: true }))
            return error === undefined ? Effect.succeed(!answered()) : Effect.fail(error)
          }),
          Effect.catchAll((error) => Effect.logDebug("SSE stream broke", error.message)),
          Effect.map(answered)
        )
      })

    // ------------------------------------------------------------------------
    // sessions
    // ------------------------------------------------------------------------

    const sessionLostError = () =>
      new TransportError({ reason: "Closed", message: "The server ended the session (HTTP 404) and re-initialization is disabled" })

    /**
     * Starts a new session: the engine's initialize request under a fresh id
     * (its answer stays here), then `notifications/initialized`. Runs once for
     * every request that saw the same session die.
     */
    const reinitialize = (seen: number): Effect.Effect<void, TransportError> =>
      reinitializeLock.withPermits(1)(Effect.suspend(() => {
        if (generation !== seen) return Effect.void
        const original = initializeRequest
        if (original === undefined) {
          return Effect.fail(new TransportError({ reason: "Protocol", message: "No initialize request to replay" }))
        }
        const id = `effect-mcp-reinitialize-${++reinitializations}`
        const request: JsonRpc.Request = { ...original, id }
        let answer: JsonRpc.Response | undefined
        const sink: Sink = {
          awaiting: new Set([id]),
          intercept: (m) => {
            if (JsonRpc.isResponse(m) && m.id === id) {
              answer = m
              return true
            }
            return false
          }
        }
        const fail = (message: string) => new TransportError({ reason: "Protocol", message: `Re-initialization failed: ${message}` })
        // requests keep the old id meanwhile: their 404 waits for this to end, then retries
        let next: string | undefined
        return Effect.gen(function*() {
          yield* Effect.scoped(Effect.gen(function*() {
            const response = yield* post(request, userHeaders())
            const sid = response.headers["mcp-session-id"]
            if (sid !== undefined && sid !== "") next = sid
            if (!isOk(response.status)) return yield* fail(`HTTP ${response.status}`)
            const type = mediaType(response.headers["content-type"])
            if (type === "application/json") yield* readJson(response, sink)
            else if (type === "text/event-stream") yield* readSse(response, newCursor(), sink, true)
            else return yield* fail(`unexpected content type ${type}`)
          }))
          if (answer === undefined) return yield* fail("no answer to initialize")
          if ("error" in answer) return yield* fail(answer.error.message)
          const version = answer.result.protocolVersion
          if (typeof version === "string" && protocolVersion !== undefined && version !== protocolVersion) {
            return yield* fail(`the server now speaks ${version}, not ${protocolVersion}`)
          }
          yield* Effect.scoped(Effect.gen(function*() {
            const response = yield* post(JsonRpc.notification("notifications/initialized"), sessionHeaders(next))
            if (!isOk(response.status)) return yield* fail(`notifications/initialized got HTTP ${response.status}`)
          }))
          sessionId = next
          generation++
        }).pipe(
          Effect.timeoutFail({ duration: requestTimeout, onTimeout: () => fail("timed out") }),
          // the old session is gone either way: no DELETE for it
          Effect.tapError(() =>
            Effect.sync(() => {
              sessionId = undefined
            })
          )
        )
      }))

    const deleteSession = Effect.suspend(() => {
      const timeout = options.deleteOnClose ?? Duration.seconds(2)
      if (sessionId === undefined || timeout === false || legacy !== undefined) return Effect.void
      return Effect.scoped(
        client.execute(HttpClientRequest.del(url).pipe(HttpClientRequest.setHeaders(sessionHeaders())))
      ).pipe(
        Effect.interruptible,
        Effect.timeout(timeout),
        Effect.catchAllCause((cause) => Effect.logDebug("DELETE of the session failed", cause))
      )
    })

    // ------------------------------------------------------------------------
    // resuming a stream
    // ------------------------------------------------------------------------

    const exhausted = (what: string) =>
      new TransportError({
        reason: "Read",
        message: `${what} could not be resumed after ${maxRetries} reconnection attempts`
      })

    /** Waits before reconnection attempt `attempt`; None when the schedule is spent. */
    const pause = (cursor: Cursor, next: ReturnType<typeof backoff>, attempt: number) =>
      Effect.flatMap(
        cursor.retryMs !== undefined ? Effect.succeed(Option.some(cursor.retryMs)) : next(attempt),
        (delay) => Option.isNone(delay) ? Effect.succeed(false) : Effect.as(Effect.sleep(delay.value), true)
      )

    /** One GET connection: reads it to its end. */
    const connect = (cursor: Cursor, sink: Sink, untilAnswered: boolean, optional = false): Effect.Effect<Connection> =>
      Effect.scoped(Effect.gen(function*() {
        const response = yield* Effect.either(get(cursor.lastEventId))
        if (Either.isLeft(response)) {
          yield* Effect.logDebug("GET failed", response.left.message)
          return "Retry" as const
        }
        const { status } = response.right
        if (status === 405) return "None" as const
        // a server without GET support may answer 404 or 400 instead of 405; a lost
        // session is then noticed by the next request
        if (status >= 400 && status < 500 && optional) return "None" as const
        if (status === 404 && sessionId !== undefined) return "SessionLost" as const
        if (!isOk(status) || mediaType(response.right.headers["content-type"]) !== "text/event-stream") return "Retry" as const
        cursor.delivered = false
        cursor.opened = true
        const openedAt = yield* Clock.currentTimeMillis
        const complete = yield* readSse(response.right, cursor, sink, untilAnswered)
        if (complete) return "Complete" as const
        const lasted = (yield* Clock.currentTimeMillis) - openedAt
        return cursor.delivered || lasted >= resetAfterMs ? "Progress" as const : "Retry" as const
      }))

    /** Resumes the stream of a request with GET + Last-Event-ID until its responses arrived. */
    const resume = (cursor: Cursor, sink: Sink): Effect.Effect<void> =>
      Effect.gen(function*() {
        if (cursor.lastEventId === undefined) {
          return yield* failAwaiting(sink, {
            code: HTTP_ERROR_CODE,
            message: "The server closed the response stream before answering, and sent no event id to resume it from"
          })
        }
        let next = backoff(schedule)
        let attempt = 0
        while (sink.awaiting.size > 0) {
          attempt++
          if (attempt > maxRetries || !(yield* pause(cursor, next, attempt))) {
            return yield* failTransport(exhausted("The response stream"))
          }
          const outcome = yield* connect(cursor, sink, true)
          switch (outcome) {
            case "Complete":
              return
            case "Progress":
              attempt = 0
              next = backoff(schedule)
              break
            case "SessionLost":
              // the answer died with the session; the next request re-initializes
              return yield* failAwaiting(sink, {
                code: HTTP_ERROR_CODE,
                message: "The session ended (HTTP 404) while the response stream was being resumed",
                data: { httpStatus: 404 }
              })
            default:
              break
          }
        }
      })

    /** The standing GET stream: server messages unrelated to any request. */
    const listen = Effect.gen(function*() {
      const cursor = newCursor()
      const sink: Sink = { awaiting: new Set() }
      let seen = generation
      let next = backoff(schedule)
      let attempt = 0
      while (true) {
        if (generation !== seen) {
          // event ids belong to the old session
          seen = generation
          cursor.lastEventId = undefined
          cursor.retryMs = undefined
        }
        // until a first stream opened, a 4xx says the server offers none (405 is the rule)
        const outcome = yield* connect(cursor, sink, false, !cursor.opened)
        if (outcome === "None") return yield* Effect.logDebug("the server offers no standing SSE stream")
        if (outcome === "Progress") {
          attempt = 0
          next = backoff(schedule)
        }
        if (outcome === "SessionLost") {
          if (!reinitializeOnSessionLoss) return yield* failTransport(sessionLostError())
          yield* reinitialize(seen).pipe(
            Effect.catchAll((error) => Effect.logDebug("re-initialization failed", error.message))
          )
        }
        attempt++
        if (attempt > maxRetries || !(yield* pause(cursor, next, attempt))) {
          return yield* failTransport(exhausted("The standing SSE stream"))
        }
      }
    })

    // ------------------------------------------------------------------------
    // outgoing
    // ------------------------------------------------------------------------

    const fallBack = (request: JsonRpc.Request, status: number, body: string, sink: Sink) =>
      Effect.gen(function*() {
        const option = options.legacyFallback ?? true
        const refused = httpError(status, body)
        if (option === false) return yield* failAwaiting(sink, refused)
        const build = option === true
          ? LegacySseClient.make({
            url,
            headers: options.headers,
            requestTimeout,
            maxEventSize: options.maxEventSize,
            // the same reconnection policy on the legacy transport
            reconnect: options.reconnect,
            maxRetries: options.maxRetries,
            resetAfter: options.resetAfter
          })
          : option({ url, status, headers: userHeaders() })
        const shape = yield* build.pipe(
          Effect.provideService(HttpClient.HttpClient, baseClient),
          Scope.extend(layerScope),
          Effect.either
        )
        if (Either.isLeft(shape)) {
          return yield* failAwaiting(sink, {
            ...refused,
            message: `${refused.message} (on initialize), and the legacy HTTP+SSE fallback failed: ${shape.left.message}`
          })
        }
        legacy = shape.right
        yield* FiberSet.run(
          background,
          shape.right.incoming.pipe(
            Stream.runForEach((frame) => mailbox.offer(frame)),
            Effect.matchCauseEffect({
              onSuccess: () => mailbox.end,
              onFailure: (cause) => Cause.isInterruptedOnly(cause) ? Effect.void : mailbox.failCause(cause)
            })
          )
        )
        yield* shape.right.send(request).pipe(
          Effect.catchAll((error) => failAwaiting(sink, { code: HTTP_ERROR_CODE, message: error.message }))
        )
      })

    /** One POST of a request and the reading of its answer. */
    const attemptRequest = (message: JsonRpc.Outgoing, sink: Sink, initializing: boolean): Effect.Effect<Attempt> =>
      Effect.gen(function*() {
        const seen = generation
        const sentSession = !initializing && sessionId !== undefined
        const result = yield* Effect.either(post(message, initializing ? userHeaders() : sessionHeaders()))
        if (Either.isLeft(result)) {
          yield* failAwaiting(sink, { code: HTTP_ERROR_CODE, message: result.left.message })
          return done
        }
        const response = result.right
        const { status } = response
        // a getter that copies the headers on every read: read once
        const headers = response.headers
        if (initializing) {
          const sid = headers["mcp-session-id"]
          if (sid !== undefined && sid !== "") sessionId = sid
        }
        if (status === 404 && sentSession) return { _tag: "SessionLost", generation: seen } as const
        if (initializing && !initialized && (status === 400 || status === 404 || status === 405) && options.legacyFallback !== false) {
          const body = yield* Effect.orElseSucceed(response.text, () => "")
          return { _tag: "Legacy", status, body } as const
        }
        if (!isOk(status)) {
          const text = yield* Effect.orElseSucceed(response.text, () => "")
          yield* failAwaiting(sink, httpError(status, text))
          return done
        }
        // 202: no answer on this exchange (it may come on the standing stream)
        if (status === 202) {
          yield* release(response)
          return done
        }
        const type = mediaType(headers["content-type"])
        if (type === "application/json") {
          yield* readJson(response, sink)
          return done
        }
        if (type === "text/event-stream") {
          const cursor = newCursor()
          const complete = yield* readSse(response, cursor, sink, true, headers)
          return complete ? done : { _tag: "Resume", cursor } as const
        }
        yield* release(response)
        yield* failAwaiting(sink, {
          code: HTTP_ERROR_CODE,
          message: `Unexpected content type ${type === "" ? "(none)" : type} in the answer to a request`
        })
        return done
      })

    /** The whole life of a request's exchange: POST, resumption, re-initialization. */
    const runRequest = (message: JsonRpc.Outgoing, ids: ReadonlyArray<JsonRpc.RequestId>): Effect.Effect<void> => {
      const sink: Sink = { awaiting: new Set(ids) }
      const forget = Effect.sync(() => {
        for (const id of ids) if (sinks.get(id) === sink) sinks.delete(id)
      })
      return Effect.gen(function*() {
        const single = Array.isArray(message) ? undefined : message as JsonRpc.Request
        const initializing = single?.method === "initialize"
        if (initializing) {
          initializeRequest = single
          initializeIds.add(single.id)
        }
        for (const id of ids) sinks.set(id, sink)
        let retried = false
        while (true) {
          const outcome = yield* attemptRequest(message, sink, initializing)
          switch (outcome._tag) {
            case "Done":
              return
            case "Resume":
              return yield* resume(outcome.cursor, sink)
            case "Legacy":
              return yield* fallBack(single!, outcome.status, outcome.body, sink)
            case "SessionLost": {
              if (!reinitializeOnSessionLoss) {
                sessionId = undefined
                return yield* failTransport(sessionLostError())
              }
              if (retried) {
                return yield* failAwaiting(sink, {
                  code: HTTP_ERROR_CODE,
                  message: "Session not found (HTTP 404), even after re-initialization",
                  data: { httpStatus: 404 }
                })
              }
              const reinit = yield* Effect.either(reinitialize(outcome.generation))
              if (Either.isLeft(reinit)) {
                return yield* failAwaiting(sink, {
                  code: HTTP_ERROR_CODE,
                  message: `Session not found (HTTP 404): ${reinit.left.message}`,
                  data: { httpStatus: 404 }
                })
              }
              retried = true
            }
          }
        }
      }).pipe(Effect.ensuring(forget), dedicatedUntraced)
    }

    /** POSTs a notification or responses and waits for the server to take it. */
    const postOther = (message: JsonRpc.Outgoing): Effect.Effect<void, TransportError> => untraced(postOtherTraced(message))
    const postOtherTraced = (message: JsonRpc.Outgoing): Effect.Effect<void, TransportError> => {
      const responses = (Array.isArray(message) ? message : [message]).every((m) => JsonRpc.isResponse(m))
      const attempt = (retried: boolean): Effect.Effect<void, TransportError> =>
        Effect.gen(function*() {
          const seen = generation
          const sentSession = sessionId !== undefined
          const lost = yield* Effect.scoped(Effect.gen(function*() {
            const response = yield* post(message, sessionHeaders())
            if (response.status === 404 && sentSession) return true
            if (!isOk(response.status)) {
              const text = yield* Effect.orElseSucceed(response.text, () => "")
              return yield* new TransportError({
                reason: "Write",
                message: `The server refused the message: ${httpError(response.status, text).message}`
              })
            }
            // a server may answer with messages; anything else is discarded
            if (response.status !== 202 && mediaType(response.headers["content-type"]) === "application/json") {
              const text = yield* Effect.orElseSucceed(response.text, () => "")
              if (text.trim() !== "") deliver(JsonRpc.parse(text), { awaiting: new Set() })
            } else {
              yield* release(response)
            }
            return false
          })).pipe(
            Effect.timeoutFail({
              duration: requestTimeout,
              onTimeout: () => new TransportError({ reason: "Write", message: "POST timed out" })
            })
          )
          if (!lost) return
          if (!reinitializeOnSessionLoss) {
            sessionId = undefined
            yield* failTransport(sessionLostError())
            return yield* sessionLostError()
          }
          // an answer to a request of the old session means nothing to the new one
          if (retried || responses) {
            return yield* new TransportError({ reason: "Write", message: "Session not found (HTTP 404)" })
          }
          yield* reinitialize(seen)
          return yield* attempt(true)
        })
      return attempt(false)
    }

    const send: TransportShape["send"] = (message, route) =>
      Effect.suspend(() => {
        if (legacy !== undefined) return legacy.send(message, route)
        if (failure !== undefined) return Effect.fail(failure)
        if (closing) return Effect.fail(new TransportError({ reason: "Closed", message: "The transport is closed" }))
        const messages = Array.isArray(message) ? message : [message]
        const ids = messages.filter((m) => JsonRpc.isRequest(m)).map((m) => (m as JsonRpc.Request).id)
        if (ids.length > 0) {
          // returns at once: the engine's timeout runs while the exchange does
          return FiberMap.run(requests, ids[0]!, runRequest(message, ids)).pipe(Effect.asVoid)
        }
        const single = Array.isArray(message) ? undefined : message as JsonRpc.Message
        if (single !== undefined && JsonRpc.isNotification(single)) {
          if (single.method === "notifications/cancelled") {
            // fire and forget, then release the cancelled request's stream
            const id = single.params?.requestId
            return FiberSet.run(
              background,
              postOther(single).pipe(
                Effect.catchAll((error) => Effect.logDebug("could not send notifications/cancelled", error.message)),
                Effect.ensuring(isId(id) ? FiberMap.remove(requests, id) : Effect.void)
              )
            ).pipe(Effect.asVoid)
          }
          if (single.method === "notifications/initialized") {
            return postOther(single).pipe(
              Effect.zipRight(Effect.suspend(() => {
                if (!listenEnabled || listening) return Effect.void
                listening = true
                return Effect.asVoid(FiberSet.run(background, dedicatedUntraced(listen)))
              }))
            )
          }
        }
        return postOther(message)
      })

    return {
      ...fromMailbox(mailbox),
      send,
      info: {
        get sessionId() {
          return sessionId
        },
        get protocolVersion() {
          return protocolVersion
        }
      }
    } satisfies TransportShape
  })

/** The streamable HTTP client transport as a Layer over any `HttpClient`. */
export const layer = (options: StreamableHttpClientOptions): Layer.Layer<Transport, never, HttpClient.HttpClient> =>
  Layer.scoped(Transport, make(options))
