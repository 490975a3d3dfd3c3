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
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import { fromHttpClient } from "./internal/httpClient/httpClientBackend.js"
import type { ReconnectOptions } from "./internal/httpClient/reconnect.js"
import * as LegacyClient from "./internal/legacy/client.js"
import type { ClientAuth } from "./internal/oauth/authorizer.js"
import { authorized } from "./internal/oauth/httpAuth.js"
import type { TransportError } from "./McpError.js"
import { Transport, type TransportShape } from "./Transport.js"

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
  Effect.flatMap(Effect.service(HttpClient.HttpClient), (client) =>
    LegacyClient.make(
      options,
      fromHttpClient(options.auth === undefined ? client : authorized(client, options.auth, new URL(options.url)))
    ))

/**
 * The legacy HTTP+SSE client transport as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: LegacySseClientOptions): Layer.Layer<Transport, TransportError, HttpClient.HttpClient> =>
  Layer.effect(Transport, make(options))
