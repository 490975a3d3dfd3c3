/**
 * The client side of the streamable HTTP transport (MCP 2025-11-25), written
 * against `effect/http`'s `HttpClient`: any client layer works
 * (`@effect/platform-node/NodeHttpClient`, `effect/http/FetchHttpClient`).
 * On Node, `@effect-mcp/node/NodeStreamableHttpClient` provides it in one
 * Layer over undici, with an `HttpBackend` that skips the `HttpClient` layer
 * (about half the Effect operations of opening a session or of a call).
 *
 * What it does on the wire:
 *
 * - every message is POSTed with `Accept: application/json, text/event-stream`;
 *   after initialization `Mcp-Session-Id` (from the initialize response) and
 *   `MCP-Protocol-Version` (the version the engine negotiated, told through
 *   `negotiated`) are added to every request;
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
 * - 404 to a message that carried the session id means the server forgot the
 *   session: the message fails with a `TransportError` of reason `SessionLost`
 *   (a 404 on the standing GET is signalled through `sessionLoss`), and the
 *   engine (`McpClient`) initializes again and retries the call once; the
 *   transport sends that `initialize` without a session id and adopts the new one;
 * - `notifications/cancelled` from the engine is POSTed, then the cancelled
 *   request's HTTP exchange is aborted; a stream is also released as soon as the
 *   response it carries has arrived;
 * - closing the scope lets a `notifications/cancelled` being POSTed finish, aborts
 *   every stream, then DELETEs the session (each bounded in time; the DELETE
 *   skipped when there is no session), also when the scope closes because its
 *   fiber was interrupted (Ctrl-C, SIGTERM);
 * - a 400, 404 or 405 answer to the first initialize POST means a 2024-11-05
 *   HTTP+SSE server: the transport switches to `LegacySseClient` (or the
 *   function given as `legacyFallback`).
 *
 * **How failures reach a caller.** `send` of a request returns as soon as the
 * exchange is started, so that the engine's per-request timeout always runs. A
 * request whose exchange fails gets its failure through `incoming`: the
 * server's JSON-RPC error when a non-2xx body carries one (an `McpError`, the
 * peer's answer); otherwise a `TransportError` naming the cause (connection
 * refused and the URL, the host a DNS lookup failed for, a TLS failure, a
 * timeout, the HTTP status and the start of its body, a lost session), which
 * the caller sees as a `ProtocolError` of reason `Transport` with that cause.
 * Notifications and responses are awaited: `send` fails with the
 * `TransportError`. A stream that cannot be resumed fails `incoming`, saying
 * that the server went away when it could no longer be reached.
 *
 * **Where the code lives.** This module wires the pieces, each in its own
 * module under `internal/httpClient/`: `session` (session id, negotiated
 * version, generation), `backend` (the HTTP client underneath:
 * `effect/http`'s `HttpClient`, or a platform's own `HttpBackend`),
 * `exchange` (one POST/GET/DELETE, and its time bound), `failure` (what went
 * wrong, in words), `inbox` (which exchange waits for which id; JSON and SSE
 * bodies into `incoming`), `post` (a request's whole exchange; other POSTs),
 * `resumption` and `reconnect` (Last-Event-ID, `retry:` and backoff, shared
 * with `LegacySseClient`), `standingStream` (the standing GET) and
 * `legacyFallback`.
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
import * as HttpClient from "effect/http/HttpClient"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import type * as Backend from "./internal/httpClient/backend.js"
import { fromHttpClient } from "./internal/httpClient/httpClientBackend.js"
import type { ReconnectOptions } from "./internal/httpClient/reconnect.js"
import * as HttpTransport from "./internal/httpClient/transport.js"
import type { ClientAuth } from "./internal/oauth/authorizer.js"
import { authorized } from "./internal/oauth/httpAuth.js"
import type { TransportError } from "./McpError.js"
import { Transport, type TransportShape } from "./Transport.js"

/**
 * The JSON-RPC error code of the response made up for a request whose HTTP
 * exchange failed; callers see a `ProtocolError` with the `TransportError`
 * instead (see the module documentation).
 *
 * @since 0.1.0
 * @category constants
 */
export const HTTP_ERROR_CODE = -32000

/**
 * Exponential backoff between reconnection attempts.
 *
 * @since 0.1.0
 * @category models
 */
export type { ReconnectOptions } from "./internal/httpClient/reconnect.js"

/**
 * What a legacy fallback is told.
 *
 * @since 0.1.0
 * @category models
 */
export interface LegacyFallbackContext {
  readonly url: URL
  /** The status of the refused initialize POST. */
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
}

/**
 * Builds the transport to fall back to; it lives as long as the streamable HTTP transport.
 *
 * @since 0.1.0
 * @category models
 */
export type LegacyFallback = (
  context: LegacyFallbackContext
) => Effect.Effect<TransportShape, TransportError, Scope.Scope | HttpClient.HttpClient>

/**
 * The options of the streamable HTTP client transport.
 *
 * @since 0.1.0
 * @category models
 */
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
  readonly resetAfter?: Duration.Input | undefined
  /**
   * Bound on HTTP exchanges that are not JSON-RPC requests: POSTs of
   * notifications and responses, the headers of a GET, re-initialization
   * (default 30 s). Requests are bounded by the engine's per-request timeout.
   */
  readonly requestTimeout?: Duration.Input | undefined
  /**
   * Let the engine re-initialize transparently when the server forgets the
   * session (404); default true. When false, a 404 fails the transport.
   */
  readonly reinitializeOnSessionLoss?: boolean | undefined
  /** Bound on the DELETE sent on close (default 2 s); `false` sends none. */
  readonly deleteOnClose?: Duration.Input | false | undefined
  /** Open the standing GET stream after initialization (default true). */
  readonly listen?: boolean | undefined
  /** Fall back to the 2024-11-05 HTTP+SSE transport when the initialize POST gets 400/404/405 (default true, `LegacySseClient`). */
  readonly legacyFallback?: boolean | LegacyFallback | undefined
  /** Largest SSE event accepted, in characters (default 32 Mi, as stdio's message limit). */
  readonly maxEventSize?: number | undefined
  /** Authorization (`McpOAuth.make`): its token (Bearer, or DPoP with a proof) on every exchange; a 401 or 403 `insufficient_scope` signs in and sends the exchange again. */
  readonly auth?: ClientAuth | undefined
}

/**
 * One request of the transport, as an `HttpBackend` is handed it.
 *
 * @since 0.1.0
 * @category models
 */
export type { BackendRequest } from "./internal/httpClient/backend.js"

/**
 * The answer to a request, as an `HttpBackend` gives it.
 *
 * @since 0.1.0
 * @category models
 */
export type { BackendResponse } from "./internal/httpClient/backend.js"

/**
 * What an `HttpBackend` does: one request at a time.
 *
 * @since 0.1.0
 * @category models
 */
export type { Backend } from "./internal/httpClient/backend.js"

/**
 * The HTTP client underneath the transport, when a platform has a cheaper one
 * than `effect/http`'s `HttpClient` (which is what the transport uses
 * when none is provided, and always with `auth`). The session logic, the
 * headers, the failures in words and the timeouts stay the transport's.
 * `@effect-mcp/node/NodeStreamableHttpClient` provides one over undici.
 *
 * @since 0.1.0
 * @category services
 */
export class HttpBackend extends Context.Service<HttpBackend, Backend.Backend>()("@effect-mcp/mcp/StreamableHttpClient/HttpBackend") {}

/**
 * Builds the transport. Nothing goes on the wire until the engine sends
 * `initialize`; closing the scope aborts every stream and DELETEs the session.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
 *
 * const transport = StreamableHttpClient.make({ url: "http://localhost:3000/mcp" })
 * ```
 */
export const make = (
  options: StreamableHttpClientOptions
): Effect.Effect<TransportShape, never, HttpClient.HttpClient | Scope.Scope> =>
  // made in one operation from the fiber's context (an Effect.gen of eight steps was ~20 per session)
  Effect.withFiber((fiber) => {
    const context = fiber.context as Context.Context<HttpClient.HttpClient>
    const url = new URL(options.url)
    const http = Context.get(context, HttpClient.HttpClient)
    const client = options.auth === undefined ? http : authorized(http, options.auth, url)
    // a platform's own backend, unless authorization wraps the HttpClient
    const provided = options.auth === undefined ? Context.getOption(context, HttpBackend) : Option.none()
    const fallback = options.legacyFallback
    return HttpTransport.make(fiber, options, url, {
      backend: Option.isSome(provided) ? provided.value : fromHttpClient(client),
      traced: Option.isSome(provided) ? fromHttpClient(client) : undefined,
      fallback: typeof fallback === "function"
        ? (context) => Effect.provideService(fallback(context), HttpClient.HttpClient, client)
        : undefined,
      legacy: (legacyOptions) =>
        Effect.flatMap(Effect.promise(() => import("./LegacySseClient.js")), (LegacySseClient) =>
          Effect.provideService(LegacySseClient.make(legacyOptions), HttpClient.HttpClient, client))
    })
  })

/**
 * The streamable HTTP client transport as a Layer over any `HttpClient`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: StreamableHttpClientOptions): Layer.Layer<Transport, never, HttpClient.HttpClient> =>
  Layer.effect(Transport, make(options))
