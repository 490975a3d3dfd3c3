/**
 * Serving one session over a transport: its state, its engine
 * (`internal/protocol/make`) answering `initialize` and dispatching the rest, the
 * keep-alive, and its place among the server's sessions.
 *
 * The era seam: each request is served on the 2025 path (`initialize`, the
 * session's state) or the 2026 path (`era2026`), chosen per request
 * (`ProtocolEra.requestEra`: an envelope or `server/discover` means 2026,
 * `initialize` 2025), else by the connection's era: the transport's (the HTTP
 * server's 2026 POSTs), or that of the connection's first request (stdio).
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as HandlerContext from "../../HandlerContext.js"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ErrorResponse } from "../../McpError.js"
import type { ServerConnection, ServerOptions } from "../../McpServer.js"
import * as Protocol from "../../Protocol.js"
import * as ProtocolMake from "../protocol/make.js"
import * as ProtocolEra from "../../ProtocolEra.js"
import type { SessionStateAccess } from "../../SessionStore.js"
import type { TransportShape } from "../../Transport.js"
import type { Dispatcher } from "./dispatch.js"
import * as Lifecycle from "./lifecycle.js"
import * as Sessions from "./sessions.js"
import * as Era2026 from "./era2026.js"

/** The session's state as a transport that shares sessions between instances reads and restores it. */
const stateAccess = (state: Sessions.SessionState, negotiation: Lifecycle.Negotiation): SessionStateAccess => ({
  read: () => ({
    protocolVersion: negotiation.version,
    clientInfo: negotiation.clientInfo,
    clientCapabilities: negotiation.clientCapabilities,
    logLevel: state.logLevel,
    subscriptions: Array.from(state.subscriptions),
    initialized: state.initialized
  }),
  write: (restored) => {
    negotiation.version = restored.protocolVersion
    negotiation.clientInfo = restored.clientInfo
    negotiation.clientCapabilities = restored.clientCapabilities
    negotiation.negotiated = negotiation.negotiated || restored.protocolVersion !== undefined
    state.logLevel = restored.logLevel
    state.subscriptions.clear()
    for (const uri of restored.subscriptions) state.subscriptions.add(uri)
    state.initialized = restored.initialized
  }
})

export interface Server {
  readonly options: ServerOptions
  readonly identity: Lifecycle.Identity
  readonly sessions: Sessions.Sessions
  readonly dispatcher: Dispatcher
  readonly era2026: Era2026.Served
}

/** The era a request is served in, given what the server serves and the connection's era so far. */
const eraFor = (
  eras: ServerOptions["eras"],
  request: JsonRpc.Request,
  connection: ProtocolEra.Era | undefined
): ProtocolEra.Era =>
  eras === "2025" ? "2025" : eras === "2026" ? "2026" : Era2026.eraOf(request.method, request.params, connection)

/**
 * A 2026-only server's answer to a request that is not 2026 (no envelope claim, or
 * `initialize`): −32022 naming the versions served (there is no 2025 path to answer it).
 */
const notServed = (served: Era2026.Served, request: JsonRpc.Request) => {
  const params = request.params as { readonly protocolVersion?: unknown } | undefined
  return Effect.fail(
    Era2026.unsupportedVersion(request.method === "initialize" ? params?.protocolVersion : undefined, served.supported)
  )
}

/** A session served on `transport`: its state, and the handlers of its engine, made from `protocol`. */
const served = (
  server: Server,
  transport: TransportShape,
  negotiation: Lifecycle.Negotiation,
  sessionId: string
) =>
(protocol: ProtocolMake.EngineProtocol): ProtocolMake.Served<{ readonly state: Sessions.SessionState; readonly protocol: ProtocolMake.EngineProtocol }> => {
  const { identity, options } = server
  const state = Sessions.makeState({ sessionId, negotiation, principal: transport.info?.principal, protocol })
  const dispatch = server.dispatcher(state, (incoming) =>
    HandlerContext.unsafeMake({
      protocol,
      incoming,
      session: state.shape,
      closeStream: transport.closeRequestStream?.(incoming.request.id)
    }))

  let era: ProtocolEra.Era | undefined = transport.info?.era
  // made on the first 2026 request: a 2025 session never needs it (an idle one keeps less)
  let serve2026: ReturnType<typeof Era2026.serve> | undefined
  const serve2026Of = () =>
    serve2026 ??= Era2026.serve(
      server.era2026,
      state,
      protocol,
      (id) => transport.closeRequestStream?.(id),
      // read per request: a 2026 HTTP connection serves one POST after another
      () => transport.info?.headers
    )
  const onRequest = (incoming: ProtocolMake.EngineIncomingRequest): Effect.Effect<Protocol.Result, ErrorResponse> => {
    const request = incoming.request
    const chosen = eraFor(options.eras, request, era)
    // over stdio and in memory the first request fixes the connection's era
    era ??= chosen
    if (chosen === "2026") {
      return options.eras === "2026" && request.method !== "server/discover" &&
          !ProtocolEra.hasEnvelopeClaim(request.params)
        ? notServed(server.era2026, request)
        : serve2026Of()(incoming)
    }
    return request.method === "initialize"
      ? Lifecycle.initialize(identity, negotiation, request.params)
      : dispatch(incoming)
  }

  // noted as it is handled (nothing to run: an HTTP POST of it is answered with no fiber)
  const onNotification = (n: JsonRpc.Notification): Effect.Effect<void> => {
    if (n.method === "notifications/initialized") state.initialized = true
    return Effect.void
  }

  transport.sessionState?.(stateAccess(state, negotiation))
  return {
    // no batches on 2026-07-28
    handlers: { onRequest, onNotification, batches: () => era !== "2026" && Lifecycle.allowsBatches(negotiation) },
    value: { state, protocol }
  }
}


/**
 * `ServerConnection` as `connect` makes it: `running` read without an effect too (the HTTP
 * server's 2026 connections, once per POST), which the public type leaves out.
 */
export interface Connection extends ServerConnection {
  readonly runningNow: () => number
}

/** A connection's `runningNow`: undefined when `McpServerShape.connect` is not this module's (a shape of one's own). */
export const runningNowOf = (connection: ServerConnection): (() => number) | undefined =>
  (connection as Partial<Connection>).runningNow

/** Starts serving a session on `transport`; it lives until the scope closes or the peer closes it. */
export const connect = (server: Server) =>
(transport: TransportShape): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { options } = server
    const sessionId = transport.info?.sessionId ?? Sessions.nextSessionId()
    const negotiation = Lifecycle.negotiation(transport.info?.protocolVersion)
    const { protocol, state } = yield* ProtocolMake.make(transport, {
      side: "server",
      requestTimeout: options.requestTimeout,
      maxRequestTimeout: options.maxRequestTimeout,
      // a span's `mcp.session.id` is the transport's (an HTTP session's), not the counter stdio gets
      sessionId: transport.info?.sessionId,
      requestIdPrefix: transport.info?.requestIdPrefix,
      protocolVersion: () => negotiation.version
    }, served(server, transport, negotiation, sessionId))
    // no ping on 2026-07-28: a 2026 POST's connection is not kept alive
    if (options.keepAlive !== undefined && transport.info?.era !== "2026") {
      yield* Protocol.keepAlive(protocol, options.keepAlive)
    }
    yield* server.sessions.track(state)
    return { session: state.shape, closed: protocol.closed, running: protocol.running, runningNow: protocol.runningNow }
  })
