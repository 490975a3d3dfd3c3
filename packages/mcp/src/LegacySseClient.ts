/**
 * The client side of the deprecated HTTP+SSE transport (protocol 2024-11-05),
 * written against `effect/http`'s `HttpClient`.
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
 * (a new `endpoint`): once the engine had initialized, the transport signals
 * the loss through `sessionLoss` and holds every message but the engine's
 * `initialize` and `notifications/initialized` until the engine (`McpClient`)
 * initialized the new endpoint's session. Requests whose answer was due on the lost stream fail at once
 * with a `TransportError` (through `incoming`, see `Transport.exchangeFailed`);
 * after the last attempt `incoming` fails with a `TransportError`, so that
 * every pending call fails with `ConnectionClosed`: never a silent dead
 * channel. The reconnection loop is the one `StreamableHttpClient` uses
 * (`internal/httpClient/reconnect`); the connections live in `internal/legacy/connection`,
 * the state in `internal/legacy/state`.
 *
 * `send` of a request returns once the POST is started (so that the engine's
 * per-request timeout always runs); a request whose POST fails gets its
 * `TransportError` through `incoming`, naming the cause (connection refused
 * and the URL, DNS, TLS, timeout, HTTP status). Notifications and responses
 * are awaited.
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
import * as HttpClient from "effect/http/HttpClient"
import type * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import type * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { isOk } from "./internal/httpClient/exchange.js"
import { statusError } from "./internal/httpClient/failure.js"
import * as LegacyConnection from "./internal/legacy/connection.js"
import * as LegacyState from "./internal/legacy/state.js"
import { type ReconnectOptions, toSchedule } from "./internal/httpClient/reconnect.js"
import * as JsonRpc from "./JsonRpc.js"
import { TransportError } from "./McpError.js"
import { Transport, type TransportShape, fromMailbox } from "./Transport.js"
import type { ClientAuth } from "./internal/oauth/authorizer.js"
import { authorized } from "./internal/oauth/httpAuth.js"
import * as Telemetry from "./internal/telemetry.js"

/**
 * The JSON-RPC error code of the response made up for a request whose answer
 * was lost with the SSE stream, or whose POST failed; callers see a
 * `ProtocolError` with the `TransportError` instead.
 *
 * @since 0.1.0
 * @category constants
 */
export const CONNECTION_LOST_CODE = -32000

/**
 * The options of the legacy HTTP+SSE client transport.
 *
 * @since 0.1.0
 * @category models
 */
export interface LegacySseClientOptions {
  /** The SSE URL (the GET endpoint). */
  readonly url: string | URL
  /** Extra headers on every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>) | undefined
  /** How long to wait for the `endpoint` event of a connection, the GET included (default 10 s). */
  readonly endpointTimeout?: Duration.Input | undefined
  /** Bound on one POST, and on a re-initialization (default 30 s). */
  readonly requestTimeout?: Duration.Input | undefined
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
  readonly resetAfter?: Duration.Input | undefined
  /** Authorization (`McpOAuth.make`): its token (Bearer, or DPoP with a proof) on every exchange; a 401 or 403 `insufficient_scope` signs in and sends the exchange again. */
  readonly auth?: ClientAuth | undefined
}

/**
 * Opens the SSE stream and waits for the `endpoint` event; reopens it when it
 * is lost (see the module documentation). The stream and every request are
 * aborted when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
 *
 * const transport = LegacySseClient.make({ url: "http://localhost:3000/sse" })
 * ```
 */
export const make = (
  options: LegacySseClientOptions
): Effect.Effect<TransportShape, TransportError, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const config: LegacyConnection.Config = {
      client: HttpClient.withScope(
        options.auth === undefined
          ? yield* HttpClient.HttpClient
          : authorized(yield* HttpClient.HttpClient, options.auth, new URL(options.url))
      ),
      headers: options.headers,
      requestTimeout: Duration.fromInputUnsafe(options.requestTimeout ?? Duration.seconds(30)),
      endpointTimeout: Duration.fromInputUnsafe(options.endpointTimeout ?? Duration.seconds(10)),
      policy: { schedule: toSchedule(options.reconnect), maxRetries: Math.max(0, options.maxRetries ?? 5) },
      resetAfterMs: Duration.toMillis(options.resetAfter ?? Duration.seconds(5)),
      parserOptions: options.maxEventSize === undefined ? undefined : { maxEventSize: options.maxEventSize }
    }

    // finalizers run in reverse: mark closing, interrupt exchanges, end incoming
    const mailbox = yield* Queue.make<JsonRpc.Frame, TransportError | Cause.Done>()
    yield* Effect.addFinalizer(() => Effect.asVoid(Queue.end(mailbox)))
    const state = yield* LegacyState.make(new URL(options.url), mailbox)
    const background = yield* FiberSet.make<unknown, never>()
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        state.closing = true
        return Deferred.fail(state.ready, new TransportError({ reason: "Closed", message: "The transport is closed" }))
      })
    )

    yield* Effect.forkScoped(LegacyConnection.supervise(config, state))
    // waits for the first endpoint (a failure of the first connection fails the layer)
    yield* Deferred.await(state.ready)

    const send: TransportShape["send"] = (message) =>
      Effect.suspend(() => {
        if (state.failure !== undefined) return Effect.fail(state.failure)
        if (state.closing) return Effect.fail(new TransportError({ reason: "Closed", message: "The transport is closed" }))
        const messages: ReadonlyArray<JsonRpc.Message> = Array.isArray(message) ? message : [message as JsonRpc.Message]
        const ids: Array<JsonRpc.RequestId> = []
        for (const m of messages) if (JsonRpc.isRequest(m)) ids.push(m.id)
        if (ids.length > 0) {
          // returns at once: the engine's timeout runs while the exchange does
          return FiberSet.run(background, sendRequest(config, state, message, ids)).pipe(Effect.asVoid)
        }
        return sendOther(config, state, message)
      })

    return {
      ...fromMailbox(mailbox),
      send,
      info: { attributes: Telemetry.httpClientAttributes(new URL(options.url)) },
      sessionLoss: { isLost: () => state.renewal !== undefined, losses: Stream.fromQueue(state.losses) }
    } satisfies TransportShape
  })

/** POSTs a request; its answer comes on the stream, or its failure is pushed to `incoming`. */
const sendRequest = (
  config: LegacyConnection.Config,
  state: LegacyState.LegacyState,
  message: JsonRpc.Outgoing,
  ids: ReadonlyArray<JsonRpc.RequestId>
): Effect.Effect<void> => {
  const attempt = (retried: boolean): Effect.Effect<void, TransportError> =>
    Effect.gen(function*() {
      const target = yield* LegacyState.target(state, message)
      for (const id of ids) state.pending.set(id, { connection: target.connection, accepted: false })
      const result = yield* Effect.result(LegacyConnection.post(config, target.url, message))
      if (Result.isFailure(result)) return yield* LegacyState.failIds(state, ids, result.failure)
      const { status, text } = result.success
      if (status === 404 && !retried && !LegacyState.isSessionStart(message)) {
        // the session is unknown: the request did not run; send it again to the next endpoint
        for (const id of ids) state.pending.delete(id)
        yield* LegacyState.abandon(state, target.connection)
        return yield* attempt(true)
      }
      if (status === 404) yield* LegacyState.abandon(state, target.connection)
      if (!isOk(status)) return yield* LegacyState.failIds(state, ids, statusError(status, text, "POST", target.url))
      // taken: the answer comes on the stream, unless that stream is gone already
      if (target.connection <= state.lostUpTo) return yield* LegacyState.failIds(state, ids, LegacyState.lostError(state))
      for (const id of ids) {
        const entry = state.pending.get(id)
        if (entry !== undefined) entry.accepted = true
      }
    })
  // a failed `ready` means the transport failed or closed: `incoming` tells the engine
  return Effect.catch(attempt(false), () => Effect.void)
}

/** POSTs a notification or responses and waits for the server to take it. */
const sendOther = (
  config: LegacyConnection.Config,
  state: LegacyState.LegacyState,
  message: JsonRpc.Outgoing,
  retried = false
): Effect.Effect<void, TransportError> =>
  Effect.gen(function*() {
    const target = yield* LegacyState.target(state, message)
    const { status, text } = yield* LegacyConnection.post(config, target.url, message)
    if (status === 404) {
      yield* LegacyState.abandon(state, target.connection)
      // an answer to a request of the old session means nothing to the new one
      const responses = (Array.isArray(message) ? message : [message]).every((m) => JsonRpc.isResponse(m))
      if (!retried && !responses && !LegacyState.isSessionStart(message)) return yield* sendOther(config, state, message, true)
    }
    if (!isOk(status)) return yield* statusError(status, text, "POST", target.url)
    if (LegacyState.isSessionStart(message)) {
      yield* LegacyState.initialized(state, target)
    }
  })

/**
 * The legacy HTTP+SSE client transport as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: LegacySseClientOptions): Layer.Layer<Transport, TransportError, HttpClient.HttpClient> =>
  Layer.effect(Transport, make(options))
