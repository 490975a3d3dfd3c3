/**
 * Serving one session over a transport: its state, its engine
 * (`Protocol.make`) answering `initialize` and dispatching the rest, the
 * keep-alive, and its place among the server's sessions.
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as HandlerContext from "../../HandlerContext.js"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ErrorResponse } from "../../McpError.js"
import type { ServerConnection, ServerOptions } from "../../McpServer.js"
import * as Protocol from "../../Protocol.js"
import type { TransportShape } from "../../Transport.js"
import type { Dispatcher } from "./dispatch.js"
import * as Lifecycle from "./lifecycle.js"
import * as Sessions from "./sessions.js"

export interface Server {
  readonly options: ServerOptions
  readonly identity: Lifecycle.Identity
  readonly sessions: Sessions.Sessions
  readonly dispatcher: Dispatcher
}

/** Starts serving a session on `transport`; it lives until the scope closes or the peer closes it. */
export const connect = (server: Server) =>
(transport: TransportShape): Effect.Effect<ServerConnection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { identity, options } = server
    const sessionId = transport.info?.sessionId ?? Sessions.nextSessionId()
    const negotiation = Lifecycle.negotiation(transport.info?.protocolVersion)
    let protocol: Protocol.Protocol | undefined
    const state = Sessions.makeState({
      sessionId,
      negotiation,
      principal: transport.info?.principal,
      protocol: () => protocol!
    })
    const dispatch = server.dispatcher(state, (incoming) =>
      HandlerContext.unsafeMake({
        protocol: protocol!,
        incoming,
        session: state.shape,
        closeStream: transport.closeRequestStream?.(incoming.request.id)
      }))

    const onRequest = (incoming: Protocol.IncomingRequest): Effect.Effect<Protocol.Result, ErrorResponse> =>
      incoming.request.method === "initialize"
        ? Lifecycle.initialize(identity, negotiation, incoming.request.params)
        : dispatch(incoming)

    const onNotification = (n: JsonRpc.Notification) =>
      Effect.sync(() => {
        if (n.method === "notifications/initialized") state.initialized = true
      })

    protocol = yield* Protocol.make(transport, {
      side: "server",
      onRequest,
      onNotification,
      batches: () => Lifecycle.allowsBatches(negotiation),
      requestTimeout: options.requestTimeout,
      maxRequestTimeout: options.maxRequestTimeout,
      sessionId
    })
    if (options.keepAlive !== undefined) {
      yield* Protocol.keepAlive(protocol, options.keepAlive)
    }
    yield* server.sessions.track(state)
    return { session: state.shape, closed: protocol.closed }
  })
