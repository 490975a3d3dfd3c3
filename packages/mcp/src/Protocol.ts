/**
 * The JSON-RPC engine both sides of MCP share.
 *
 * - Outgoing requests: ids allocated per engine, a pending map
 *   from id to the caller's completion, responses accepted in any order, a
 *   per-request timeout that progress may reset under a hard maximum, and
 *   `notifications/cancelled` sent to the peer when the caller is interrupted
 *   or times out.
 * - Incoming requests: one fiber per request in a map keyed by id, so
 *   `notifications/cancelled` interrupts exactly that fiber and no response is
 *   sent for it; an `ErrorResponse` failure is the JSON-RPC error sent, a
 *   defect is logged and answered `-32603` without internals. A peer's
 *   error answer completes the call as an `McpError` naming the method.
 * - Progress notifications routed to the caller that asked for them, `ping`
 *   answered here, batches processed or refused as the negotiated version says.
 *
 * The engine knows nothing of MCP methods beyond `ping`, `notifications/cancelled`
 * and `notifications/progress`; `McpServer` and `McpClient` give it handlers.
 *
 * @since 0.1.0
 */
import type * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as JsonRpc from "./JsonRpc.js"
import type { ErrorResponse, McpError, ProtocolError } from "./McpError.js"
import * as Make from "./internal/protocol/make.js"
import type { Route, TransportShape } from "./Transport.js"

/**
 * The params of `notifications/progress`.
 * @since 0.1.0
 * @category models
 */
export interface ProgressParams {
  readonly progressToken: string | number
  readonly progress: number
  readonly total?: number
  readonly message?: string
  readonly [key: string]: unknown
}

/**
 * A JSON-RPC result object.
 * @since 0.1.0
 * @category models
 */
export type Result = { readonly [key: string]: unknown }

/**
 * Per-request options of `Protocol.request`.
 * @since 0.1.0
 * @category models
 */
export interface RequestOptions {
  /** Fails the request when no response (nor progress, see below) came for this long. Default: the engine's. */
  readonly timeout?: Duration.Input | undefined
  /** A hard bound that progress never extends. Default: the engine's. */
  readonly maxTimeout?: Duration.Input | undefined
  /** Whether a progress notification restarts `timeout` (default true). */
  readonly resetTimeoutOnProgress?: boolean | undefined
  /** Receives progress; setting it adds a `progressToken` to the request's `_meta`. */
  readonly onProgress?: ((progress: ProgressParams) => Effect.Effect<void>) | undefined
  /** Where the request travels (the forward request it belongs to). */
  readonly route?: Route | undefined
  /** Told the request's id before it is sent (a 2026 `subscriptions/listen` names its notifications by it). */
  readonly onId?: ((id: JsonRpc.RequestId) => void) | undefined
}

/**
 * What the engine hands to a request handler besides the request.
 * @since 0.1.0
 * @category models
 */
export interface IncomingRequest {
  readonly request: JsonRpc.Request
  /**
   * A scope closed when the handler ends, however it ends; reverse calls are
   * forked into it. Made on first use: most requests never need one.
   */
  readonly scope: Effect.Effect<Scope.Scope>
  /** Whether the handler is still running. */
  readonly isActive: () => boolean
  /**
   * Runs `effect` with the services of `context` added to those the handler
   * runs with: how a handler is given the services it needs (the request's,
   * its feature's). Like `Effect.provide`, for less: the engine knows how it
   * runs the request, so it may skip restoring what nothing of the request
   * reads afterwards. Use it for the rest of the handler; inside a larger
   * effect (one of many features), use `Effect.provide`.
   */
  readonly provide: <A, E>(effect: Effect.Effect<A, E, any>, context: Context.Context<never>) => Effect.Effect<A, E>
}

/**
 * What an engine does with what arrives, and its defaults.
 * @since 0.1.0
 * @category models
 */
export interface ProtocolOptions {
  /** Which side this engine plays; names spans and logs. */
  readonly side: "client" | "server"
  /**
   * Answers a request (other than `ping`). An `ErrorResponse` failure is sent
   * as the JSON-RPC error; a defect is logged and answered `-32603`, which
   * never carries details (an `ErrorResponse` with code -32603 and a message
   * or data of its own is logged and answered the same). Interrupted when the
   * peer cancels the request or the engine closes.
   */
  readonly onRequest: (incoming: IncomingRequest) => Effect.Effect<Result, ErrorResponse>
  /** Receives notifications (other than cancellation and progress), in arrival order. */
  readonly onNotification: (notification: JsonRpc.Notification) => Effect.Effect<void>
  /** Whether JSON-RPC batches are accepted (true only up to protocol 2025-03-26). */
  readonly batches?: (() => boolean) | undefined
  /** Default per-request timeout (60 s). */
  readonly requestTimeout?: Duration.Input | undefined
  /** Default hard maximum for a request, progress included (10 min). */
  readonly maxRequestTimeout?: Duration.Input | undefined
  /** Added to every span as `mcp.session.id`. */
  readonly sessionId?: string | undefined
  /** Ids of outgoing requests are this prefix and a counter (strings) instead of bare numbers. */
  readonly requestIdPrefix?: string | undefined
}

/**
 * A running JSON-RPC engine over one transport: requests out (with timeouts,
 * progress and cancellation), handlers in.
 * @since 0.1.0
 * @category models
 */
export interface Protocol {
  /** Sends a request and waits for its result. Interrupting it cancels it on the wire. */
  readonly request: (
    method: string,
    params?: JsonRpc.Params | undefined,
    options?: RequestOptions | undefined
  ) => Effect.Effect<Result, McpError | ProtocolError>
  /** Sends a notification. */
  readonly notify: (
    method: string,
    params?: JsonRpc.Params | undefined,
    route?: Route | undefined
  ) => Effect.Effect<void, ProtocolError>
  /** Completes when the connection is over (the peer closed, the transport failed, or the engine was closed). */
  readonly closed: Effect.Effect<void>
  /** Ends the connection: pending calls fail with `ConnectionClosed` and handlers are interrupted. */
  readonly close: (reason: string) => Effect.Effect<void>
  /** Outgoing requests awaiting a response. */
  readonly pending: Effect.Effect<number>
  /** Incoming requests whose handler is running. */
  readonly running: Effect.Effect<number>
}

/**
 * Starts an engine on a transport. The engine reads the transport until it
 * ends or the scope closes; closing the scope interrupts every handler and
 * fails every pending request.
 *
 * The engine is cut along its concerns, in `internal/protocol/`: `outgoing`
 * (ids, pending calls, their timeouts on the `Clock` through
 * `internal/deadlines`, cancellation), `incoming` (one fiber per request) and `read` (the read loop and
 * the dispatch of each message); `internal/protocol/make` wires them together.
 *
 * @example
 * ```ts
 * import * as Protocol from "@effect-mcp/mcp/Protocol"
 * import * as Effect from "effect/Effect"
 * import * as Transport from "@effect-mcp/mcp/Transport"
 *
 * // two engines over an in-memory pair: the "server" echoes params back
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const pair = yield* Transport.makeMemoryPair()
 *   yield* Protocol.make(pair.server, {
 *     side: "server",
 *     onRequest: ({ request }) => Effect.succeed({ echo: request.params ?? {} }),
 *     onNotification: () => Effect.void
 *   })
 *   const client = yield* Protocol.make(pair.client, {
 *     side: "client",
 *     onRequest: () => Effect.succeed({}),
 *     onNotification: () => Effect.void
 *   })
 *   return yield* client.request("echo", { text: "hi" }, { timeout: "5 seconds" }) // { echo: { text: "hi" } }
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  transport: TransportShape,
  options: ProtocolOptions
): Effect.Effect<Protocol, never, Scope.Scope> => Make.start(transport, options)

/**
 * Pings the peer every `interval`. A pong, or any JSON-RPC error (a peer that
 * answers -32601 to ping is alive), resets the count; after `maxMissed`
 * (default 3) pings in a row without an answer within `interval`, the
 * connection is closed and every pending call fails saying why.
 *
 * @example
 * ```ts
 * import * as Protocol from "@effect-mcp/mcp/Protocol"
 * import * as Effect from "effect/Effect"
 *
 * const withKeepAlive = (protocol: Protocol.Protocol) =>
 *   // ping every 30 s; after 3 unanswered pings in a row the connection closes
 *   Effect.forkScoped(Protocol.keepAlive(protocol, { interval: "30 seconds", maxMissed: 3 }))
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const keepAlive = (
  protocol: Protocol,
  options: { readonly interval: Duration.Input; readonly maxMissed?: number | undefined }
): Effect.Effect<void, never, Scope.Scope> => {
  const interval = Duration.fromInputUnsafe(options.interval)
  const maxMissed = options.maxMissed ?? 3
  const loop = (missed: number): Effect.Effect<void> =>
    Effect.sleep(interval).pipe(
      Effect.andThen(protocol.request("ping", undefined, { timeout: interval, maxTimeout: interval })),
      Effect.as(0),
      Effect.catch((error) =>
        Effect.succeed(
          error._tag === "ProtocolError" && error.reason === "Timeout"
            ? missed + 1
            : error._tag === "ProtocolError" && error.reason === "ConnectionClosed"
            ? -1
            : 0
        )
      ),
      Effect.flatMap((missedNow) =>
        missedNow < 0
          ? Effect.void // the connection is over already: nothing to keep alive
          : missedNow >= maxMissed
          ? protocol.close(`the peer did not answer ${missedNow} keep-alive pings`)
          : loop(missedNow)
      )
    )
  return Effect.asVoid(Effect.forkScoped(loop(0)))
}
