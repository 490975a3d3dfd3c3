/**
 * The client side of the deprecated HTTP+SSE transport (protocol 2024-11-05),
 * written against `@effect/platform`'s `HttpClient`.
 *
 * A GET opens an SSE stream; its first `endpoint` event names the URL to POST
 * messages to (it must be on the same origin as the SSE URL); every `message`
 * event is a JSON-RPC message from the server. There is no session header and
 * no resumption.
 *
 * **Reconnection**, with the policy of `StreamableHttpClient`: when the SSE
 * stream ends or breaks (or a POST gets 404, the server no longer knowing the
 * session), the stream is reopened with a GET to the same URL, waiting the
 * server's `retry:` or an exponential backoff with jitter (`reconnect`,
 * `maxRetries`); a graceful close counts as an attempt like a broken
 * connection, and a connection that delivered a message or stayed open for
 * `resetAfter` resets the count. A new GET is a new session on the server
 * (a new `endpoint`): once the engine had initialized, the transport replays
 * its initialize request under a fresh id (the answer stays here) and
 * `notifications/initialized` before any other message goes to the new
 * endpoint. Requests whose answer was due on the lost stream get a JSON-RPC
 * error ({@link CONNECTION_LOST_CODE}) through `incoming` at once; after the
 * last attempt `incoming` fails with a `TransportError`, so that every pending
 * call fails with `ConnectionClosed`: never a silent dead channel.
 *
 * `send` of a request returns once the POST is started (so that the engine's
 * per-request timeout always runs); a request whose POST fails gets a JSON-RPC
 * error through `incoming`. Notifications and responses are awaited.
 *
 * `StreamableHttpClient` falls back to this transport when the initialize POST
 * of a streamable HTTP client gets 400, 404 or 405 (see its `legacyFallback`).
 *
 * @example
 * ```ts
 * import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Layer from "effect/Layer"
 *
 * const client = McpClient.layer({ name: "app", version: "1.0.0" }).pipe(
 *   Layer.provide(LegacySseClient.layer({ url: "http://localhost:3000/sse" })),
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Sse from "./internal/sse.js"
import * as JsonRpc from "./JsonRpc.js"
import { TransportError } from "./McpError.js"
import { backoff, type ReconnectOptions, toSchedule } from "./internal/reconnect.js"
import { Transport, type TransportShape, fromMailbox } from "./Transport.js"

/** The JSON-RPC error code given to a request whose answer was lost with the SSE stream, or whose POST failed. */
export const CONNECTION_LOST_CODE = -32000

export interface LegacySseClientOptions {
  /** The SSE URL (the GET endpoint). */
  readonly url: string | URL
  /** Extra headers on every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>) | undefined
  /** How long to wait for the `endpoint` event of a connection, the GET included (default 10 s). */
  readonly endpointTimeout?: Duration.DurationInput | undefined
  /** Bound on one POST, and on a re-initialization (default 30 s). */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** Largest SSE event accepted, in characters (default 32 Mi, as stdio's message limit). */
  readonly maxEventSize?: number | undefined
  /**
   * Delays between reconnection attempts: backoff options or any Schedule
   * (its input is the attempt number, from 1). The server's `retry:` wins
   * over either. Default: 1 s, ×1.5, capped at 30 s, jitter 0.2.
   */
  readonly reconnect?: ReconnectOptions | Schedule.Schedule<unknown, number> | undefined
  /** Reconnection attempts in a row before the transport fails (default 5; 0 disables reconnection). */
  readonly maxRetries?: number | undefined
  /** A connection that delivers a message, or stays open this long, resets the attempt count (default 5 s). */
  readonly resetAfter?: Duration.DurationInput | undefined
}

const mediaType = (value: string | undefined): string => (value ?? "").split(";")[0]!.trim().toLowerCase()

const userHeaders = (headers: LegacySseClientOptions["headers"]): Readonly<Record<string, string>> =>
  typeof headers === "function" ? headers() : (headers ?? {})

const isOk = (status: number) => status >= 200 && status < 300


/** Where messages go: the endpoint of an established connection. */
interface Ready {
  readonly url: URL
  /** The number of the connection that announced it. */
  readonly connection: number
}

/** How a connection ended. */
interface Outcome {
  /** Whether it announced an endpoint (and re-initialized when needed). */
  readonly established: boolean
  /** Whether it delivered a message or stayed open for `resetAfter`. */
  readonly healthy: boolean
  readonly error: TransportError
}

/**
 * Opens the SSE stream and waits for the `endpoint` event; reopens it when it
 * is lost (see the module documentation). The stream and every request are
 * aborted when the scope closes.
 */
export const make = (
  options: LegacySseClientOptions
): Effect.Effect<TransportShape, TransportError, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const client = HttpClient.withScope(yield* HttpClient.HttpClient)
    const base = new URL(options.url)
    const requestTimeout = Duration.decode(options.requestTimeout ?? Duration.seconds(30))
    const endpointTimeout = Duration.decode(options.endpointTimeout ?? Duration.seconds(10))
    const schedule = toSchedule(options.reconnect)
    const maxRetries = Math.max(0, options.maxRetries ?? 5)
    const resetAfterMs = Duration.toMillis(options.resetAfter ?? Duration.seconds(5))
    const parserOptions = options.maxEventSize === undefined ? undefined : { maxEventSize: options.maxEventSize }

    let closing = false
    let failure: TransportError | undefined
    /** The endpoint to POST to; pending while (re)connecting, failed when the transport failed. */
    let ready = yield* Deferred.make<Ready, TransportError>()
    /** The number of the latest connection, and how to abort it. */
    let current: { readonly connection: number; readonly abort: Deferred.Deferred<void> } | undefined
    let connections = 0
    /** The server's last `retry:`, in ms. */
    let retryMs: number | undefined
    /** The engine's initialize request, replayed on every new connection. */
    let initializeRequest: JsonRpc.Request | undefined
    let protocolVersion: string | undefined
    /** Whether the engine sent `notifications/initialized` (a new connection must then re-initialize). */
    let initialized = false
    let reinitializations = 0
    /**
     * Requests POSTed whose answer has not arrived, with the connection they
     * went to and whether the server took them: their answer can only come on
     * that connection's stream.
     */
    const pending = new Map<JsonRpc.RequestId, { readonly connection: number; accepted: boolean }>()
    /** The latest connection known to be lost. */
    let lostUpTo = 0
    /** Answers kept here (re-initialization). */
    const intercepts = new Map<JsonRpc.RequestId, Deferred.Deferred<JsonRpc.Response>>()

    // finalizers run in reverse: mark closing, interrupt exchanges, end incoming
    const mailbox = yield* Mailbox.make<JsonRpc.Frame, TransportError>()
    yield* Effect.addFinalizer(() => mailbox.end)
    const background = yield* FiberSet.make<unknown, never>()
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        closing = true
        return Deferred.fail(ready, new TransportError({ reason: "Closed", message: "The transport is closed" }))
      })
    )

    // ------------------------------------------------------------------------
    // incoming
    // ------------------------------------------------------------------------

    /** Hands a frame to `incoming`; says whether anything reached the engine. */
    const deliver = (frame: JsonRpc.Frame): boolean => {
      const items = JsonRpc.isBatch(frame) ? frame : [frame]
      const out: Array<JsonRpc.Message | JsonRpc.Invalid> = []
      for (const item of items) {
        if (JsonRpc.isInvalid(item)) {
          if (!item.respond && item.id !== null && pending.delete(item.id)) {
            // a broken response to a request of ours: fail that call now rather than at its timeout
            out.push(JsonRpc.failure(item.id, item.error))
          } else {
            out.push(item)
          }
          continue
        }
        if (JsonRpc.isResponse(item) && item.id !== null) {
          const waiter = intercepts.get(item.id)
          if (waiter !== undefined) {
            intercepts.delete(item.id)
            Deferred.unsafeDone(waiter, Exit.succeed(item))
            continue
          }
          pending.delete(item.id)
          if (item.id === initializeRequest?.id && "result" in item) {
            const version = item.result.protocolVersion
            if (typeof version === "string") protocolVersion = version
          }
        }
        out.push(item)
      }
      if (out.length === 0) return false
      mailbox.unsafeOffer(JsonRpc.isBatch(frame) ? out : out[0]!)
      return true
    }

    const lostMessage = "The connection to the server was lost before the answer arrived; the request may or may not have run"

    /**
     * Fails every request the server took whose answer was due on a lost
     * stream. A POST still on its way is decided by its answer: taken (the
     * answer is lost too) or 404 (sent again to the next endpoint).
     */
    const failPending = () => {
      for (const [id, entry] of pending) {
        if (!entry.accepted || entry.connection > lostUpTo) continue
        pending.delete(id)
        mailbox.unsafeOffer(JsonRpc.failure(id, { code: CONNECTION_LOST_CODE, message: lostMessage }))
      }
    }

    /** Fails the requests `ids` that still wait for an answer. */
    const failIds = (ids: ReadonlyArray<JsonRpc.RequestId>, message: string) =>
      Effect.sync(() => {
        for (const id of ids) {
          if (pending.delete(id)) mailbox.unsafeOffer(JsonRpc.failure(id, { code: CONNECTION_LOST_CODE, message }))
        }
      })

    /** Fails `incoming`, so that the engine fails every pending call with `ConnectionClosed`. */
    const failTransport = (error: TransportError) =>
      Effect.suspend(() => {
        if (closing || failure !== undefined) return Effect.void
        failure = error
        return Deferred.fail(ready, error).pipe(Effect.zipRight(mailbox.fail(error)), Effect.asVoid)
      })

    // ------------------------------------------------------------------------
    // HTTP
    // ------------------------------------------------------------------------

    /** POSTs a message; the body is read only when the server refused it. */
    const exchange = (url: URL, message: JsonRpc.Outgoing) =>
      Effect.scoped(Effect.gen(function*() {
        const response = yield* client.execute(
          HttpClientRequest.post(url).pipe(
            HttpClientRequest.setHeaders(userHeaders(options.headers)),
            HttpClientRequest.bodyText(JsonRpc.encode(message), "application/json")
          )
        ).pipe(
          Effect.mapError((cause) => new TransportError({ reason: "Write", message: `POST failed: ${cause.message}`, cause }))
        )
        const text = isOk(response.status) ? "" : yield* Effect.orElseSucceed(response.text, () => "")
        return { status: response.status, text }
      })).pipe(
        Effect.timeoutFail({
          duration: requestTimeout,
          onTimeout: () => new TransportError({ reason: "Write", message: "POST timed out" })
        })
      )

    const refused = (status: number, text: string) =>
      new TransportError({
        reason: "Write",
        message: `The server refused the message: HTTP ${status}${text === "" ? "" : ` ${text.slice(0, 200)}`}`
      })

    /**
     * The server no longer knows the session of connection `connection`: stop
     * sending there and drop that connection, which makes the supervisor
     * reconnect. Later messages wait for the new endpoint.
     */
    const abandon = (connection: number) =>
      Effect.gen(function*() {
        const now = yield* Deferred.poll(ready)
        if (Option.isSome(now)) {
          const exit = yield* now.value.pipe(Effect.exit)
          if (Exit.isSuccess(exit) && exit.value.connection === connection) {
            ready = yield* Deferred.make<Ready, TransportError>()
          }
        }
        if (current?.connection === connection) yield* Deferred.succeed(current.abort, undefined)
      })

    // ------------------------------------------------------------------------
    // connections
    // ------------------------------------------------------------------------

    /** Starts the new session of a new connection: the engine's initialize under a fresh id, then `notifications/initialized`. */
    const reinitialize = (url: URL, original: JsonRpc.Request): Effect.Effect<void, TransportError> =>
      Effect.suspend(() => {
        const id = `effect-mcp-reinitialize-${++reinitializations}`
        const fail = (message: string) =>
          new TransportError({ reason: "Protocol", message: `Re-initialization failed: ${message}` })
        const answer = Deferred.unsafeMake<JsonRpc.Response>(FiberId.none)
        intercepts.set(id, answer)
        return Effect.gen(function*() {
          const posted = yield* exchange(url, { ...original, id })
          if (!isOk(posted.status)) return yield* fail(`initialize got HTTP ${posted.status}`)
          const response = yield* Deferred.await(answer)
          if ("error" in response) return yield* fail(response.error.message)
          const version = response.result.protocolVersion
          if (typeof version === "string" && protocolVersion !== undefined && version !== protocolVersion) {
            return yield* fail(`the server now speaks ${version}, not ${protocolVersion}`)
          }
          const notified = yield* exchange(url, JsonRpc.notification("notifications/initialized"))
          if (!isOk(notified.status)) return yield* fail(`notifications/initialized got HTTP ${notified.status}`)
        }).pipe(
          Effect.timeoutFail({ duration: requestTimeout, onTimeout: () => fail("timed out") }),
          Effect.ensuring(Effect.sync(() => intercepts.delete(id)))
        )
      })

    /** One GET connection, from its opening to its end (it always ends with an error). */
    const connection = (first: boolean): Effect.Effect<Outcome> =>
      Effect.gen(function*() {
        const number = ++connections
        const abort = yield* Deferred.make<void>()
        current = { connection: number, abort }
        const found = yield* Deferred.make<URL, TransportError>()
        const openedAt = yield* Clock.currentTimeMillis
        let delivered = false
        let established = false

        const read = Effect.scoped(Effect.gen(function*() {
          const response = yield* client.execute(
            HttpClientRequest.get(base).pipe(
              HttpClientRequest.setHeaders(userHeaders(options.headers)),
              HttpClientRequest.setHeader("accept", "text/event-stream")
            )
          ).pipe(
            Effect.mapError((cause) =>
              new TransportError({ reason: "Read", message: `Could not open the SSE stream: ${cause.message}`, cause })
            )
          )
          if (!isOk(response.status) || mediaType(response.headers["content-type"]) !== "text/event-stream") {
            return yield* new TransportError({
              reason: "Protocol",
              message: `The legacy SSE endpoint answered HTTP ${response.status} (${response.headers["content-type"] ?? "no content type"})`
            })
          }
          const decoder = new TextDecoder()
          const parser = Sse.makeParser((event) => {
            if (event._tag === "Retry") {
              retryMs = Duration.toMillis(event.duration)
              return
            }
            if (event.event === "endpoint") {
              let target: URL
              try {
                target = new URL(event.data.trim(), base)
              } catch {
                Deferred.unsafeDone(
                  found,
                  Exit.fail(new TransportError({ reason: "Protocol", message: `Invalid endpoint URL: ${event.data}` }))
                )
                return
              }
              Deferred.unsafeDone(
                found,
                target.origin === base.origin
                  ? Exit.succeed(target)
                  : Exit.fail(
                    new TransportError({
                      reason: "Protocol",
                      message: `The endpoint ${target.origin} is not on the origin of the SSE stream (${base.origin})`
                    })
                  )
              )
              return
            }
            if (event.event === "message" && event.data.trim() !== "" && deliver(JsonRpc.parse(event.data))) {
              delivered = true
            }
          }, parserOptions)
          yield* response.stream.pipe(
            Stream.mapError((cause) =>
              new TransportError({ reason: "Read", message: `The SSE stream broke: ${cause.message}`, cause })
            ),
            Stream.runForEach((bytes) => {
              const error = parser.feed(decoder.decode(bytes, { stream: true }))
              return error === undefined ? Effect.void : Effect.fail(new TransportError({ reason: "Read", message: error.message }))
            })
          )
          return yield* new TransportError({
            reason: "Closed",
            message: established ? "The SSE stream ended" : "The SSE stream ended before the endpoint event"
          })
        }))

        // the endpoint, then the new session, then messages may flow
        const establish = Deferred.await(found).pipe(
          Effect.timeoutFail({
            duration: endpointTimeout,
            onTimeout: () => new TransportError({ reason: "Protocol", message: "The legacy SSE server sent no endpoint event" })
          }),
          Effect.tap((url) => {
            const original = initializeRequest
            return first || !initialized || original === undefined ? Effect.void : reinitialize(url, original)
          }),
          Effect.flatMap((url) =>
            Effect.suspend(() => {
              established = true
              return Deferred.succeed(ready, { url, connection: number })
            })
          ),
          Effect.zipRight(Effect.never)
        )

        const aborted = Deferred.await(abort).pipe(
          Effect.zipRight(
            Effect.fail(new TransportError({ reason: "Closed", message: "The server no longer knows the session (HTTP 404)" }))
          )
        )

        const error = yield* Effect.raceFirst(read, establish).pipe(Effect.raceFirst(aborted), Effect.flip)
        const lasted = (yield* Clock.currentTimeMillis) - openedAt
        return { established, healthy: delivered || (established && lasted >= resetAfterMs), error }
      })

    /** The stream is gone: later messages wait for the next endpoint; answers due on it will never come. */
    const lost = Effect.gen(function*() {
      if (Option.isSome(yield* Deferred.poll(ready))) ready = yield* Deferred.make<Ready, TransportError>()
      lostUpTo = connections
      failPending()
    })

    const pause = (next: ReturnType<typeof backoff>, attempt: number) =>
      Effect.flatMap(
        retryMs !== undefined ? Effect.succeed(Option.some(retryMs)) : next(attempt),
        (delay) => Option.isNone(delay) ? Effect.succeed(false) : Effect.as(Effect.sleep(delay.value), true)
      )

    const supervise = Effect.gen(function*() {
      let outcome = yield* connection(true)
      if (!outcome.established) return yield* failTransport(outcome.error)
      let next = backoff(schedule)
      let attempt = 0
      while (true) {
        yield* lost
        yield* Effect.logDebug("the legacy SSE stream was lost", outcome.error.message)
        if (outcome.healthy) {
          attempt = 0
          next = backoff(schedule)
        }
        attempt++
        if (attempt > maxRetries || !(yield* pause(next, attempt))) {
          return yield* failTransport(
            new TransportError({
              reason: "Read",
              message: `The legacy SSE stream was lost and could not be reopened after ${attempt - 1} reconnection attempts: ${outcome.error.message}`,
              cause: outcome.error
            })
          )
        }
        outcome = yield* connection(false)
      }
    })
    yield* Effect.forkScoped(supervise)

    // waits for the first endpoint (a failure of the first connection fails the layer)
    yield* Deferred.await(ready)

    // ------------------------------------------------------------------------
    // outgoing
    // ------------------------------------------------------------------------

    /** POSTs a request; its answer comes on the stream, or its failure is pushed to `incoming`. */
    const sendRequest = (message: JsonRpc.Outgoing, ids: ReadonlyArray<JsonRpc.RequestId>): Effect.Effect<void> => {
      const attempt = (retried: boolean): Effect.Effect<void, TransportError> =>
        Effect.gen(function*() {
          const target = yield* Deferred.await(ready)
          for (const id of ids) pending.set(id, { connection: target.connection, accepted: false })
          const result = yield* Effect.either(exchange(target.url, message))
          if (Either.isLeft(result)) return yield* failIds(ids, result.left.message)
          const { status, text } = result.right
          if (status === 404 && !retried) {
            // the session is unknown: the request did not run; send it again to the next endpoint
            for (const id of ids) pending.delete(id)
            yield* abandon(target.connection)
            return yield* attempt(true)
          }
          if (status === 404) yield* abandon(target.connection)
          if (!isOk(status)) return yield* failIds(ids, refused(status, text).message)
          // taken: the answer comes on the stream, unless that stream is gone already
          if (target.connection <= lostUpTo) return yield* failIds(ids, lostMessage)
          for (const id of ids) {
            const entry = pending.get(id)
            if (entry !== undefined) entry.accepted = true
          }
        })
      // a failed `ready` means the transport failed or closed: `incoming` tells the engine
      return Effect.catchAll(attempt(false), () => Effect.void)
    }

    /** POSTs a notification or responses and waits for the server to take it. */
    const sendOther = (message: JsonRpc.Outgoing, retried = false): Effect.Effect<void, TransportError> =>
      Effect.gen(function*() {
        const target = yield* Deferred.await(ready)
        const { status, text } = yield* exchange(target.url, message)
        if (status === 404) {
          yield* abandon(target.connection)
          // an answer to a request of the old session means nothing to the new one
          const responses = (Array.isArray(message) ? message : [message]).every((m) => JsonRpc.isResponse(m))
          if (!retried && !responses) return yield* sendOther(message, true)
        }
        if (!isOk(status)) return yield* refused(status, text)
      })

    const send: TransportShape["send"] = (message) =>
      Effect.suspend(() => {
        if (failure !== undefined) return Effect.fail(failure)
        if (closing) return Effect.fail(new TransportError({ reason: "Closed", message: "The transport is closed" }))
        const messages: ReadonlyArray<JsonRpc.Message> = Array.isArray(message) ? message : [message as JsonRpc.Message]
        const ids: Array<JsonRpc.RequestId> = []
        for (const m of messages) {
          if (!JsonRpc.isRequest(m)) continue
          ids.push(m.id)
          if (m.method === "initialize") initializeRequest = m
        }
        if (ids.length > 0) {
          // returns at once: the engine's timeout runs while the exchange does
          return FiberSet.run(background, sendRequest(message, ids)).pipe(Effect.asVoid)
        }
        if (messages.some((m) => JsonRpc.isNotification(m) && m.method === "notifications/initialized")) initialized = true
        return sendOther(message)
      })

    return { ...fromMailbox(mailbox), send, info: {} } satisfies TransportShape
  })

/** The legacy HTTP+SSE client transport as a Layer. */
export const layer = (options: LegacySseClientOptions): Layer.Layer<Transport, TransportError, HttpClient.HttpClient> =>
  Layer.scoped(Transport, make(options))
