/**
 * The client's side of initialization: `initialize` with the client's info
 * and capabilities, the check of the version the server chose, the
 * transport told of it, `notifications/initialized`; then the recovery of a
 * session the server forgets (`sessionRecovery`), which runs the same
 * `initialize` again.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type * as JsonRpc from "../../JsonRpc.js"
import * as Lifecycle from "../../Lifecycle.js"
import type { ClientError, ClientOptions } from "../../McpClient.js"
import { ProtocolError } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import type { Protocol } from "../../Protocol.js"
import type { TransportShape } from "../../Transport.js"
import { decoderFor } from "./calls.js"
import * as SessionRecovery from "./sessionRecovery.js"

export interface Session {
  readonly init: McpSchema.InitializeResult
  /** Runs a call, re-initializing and running it once more when the server forgot the session under it. */
  readonly recover: SessionRecovery.Recovery["recover"]
  /** A notification, sent again after re-initialization when the server forgot the session. */
  readonly notify: (method: string, params?: JsonRpc.Params) => Effect.Effect<void, ProtocolError>
}

export const clientInfo = (options: ClientOptions): McpSchema.Implementation => ({
  name: options.name,
  version: options.version,
  ...(options.title !== undefined ? { title: options.title } : {}),
  ...(options.description !== undefined ? { description: options.description } : {}),
  ...(options.websiteUrl !== undefined ? { websiteUrl: options.websiteUrl } : {}),
  ...(options.icons !== undefined ? { icons: options.icons } : {})
})

/** The `initialize` request, its result decoded. */
export const initializeRequest = (
  options: ClientOptions,
  capabilities: McpSchema.ClientCapabilities,
  protocol: Protocol
): Effect.Effect<McpSchema.InitializeResult, ClientError> => {
  const decode = decoderFor(McpSchema.InitializeResult, "initialize")
  return protocol.request("initialize", {
    protocolVersion: options.protocolVersion ?? Lifecycle.LATEST_VERSION,
    capabilities,
    clientInfo: clientInfo(options)
  }).pipe(Effect.flatMap((raw) => Effect.fromResult(decode(raw))))
}

/**
 * Initializes the session (or takes the result of an `initialize` already
 * answered, `first`); fails when the server chose a version this client does
 * not support.
 */
export const handshake = (
  options: ClientOptions,
  capabilities: McpSchema.ClientCapabilities,
  protocol: Protocol,
  transport: TransportShape,
  first?: McpSchema.InitializeResult | undefined
): Effect.Effect<Session, ClientError, Scope.Scope> => {
  const initialize = initializeRequest(options, capabilities, protocol)
  return Effect.flatMap(first === undefined ? initialize : Effect.succeed(first), (init) => {
    if (!Lifecycle.isSupported(init.protocolVersion)) {
      return Effect.andThen(
        protocol.close(`the server answered with unsupported protocol version ${init.protocolVersion}`),
        Effect.fail(
          new ProtocolError({
            reason: "NotInitialized",
            method: "initialize",
            message: `The server chose protocol version ${init.protocolVersion}, which this client does not support`
          })
        )
      )
    }
    transport.negotiated?.(init.protocolVersion)
    // the server may forget the session (HTTP 404): initialize again, and retry the call that saw it
    const recovery = SessionRecovery.make({
      protocol,
      loss: transport.sessionLoss,
      initialize: Effect.map(initialize, (result) => result.protocolVersion),
      version: init.protocolVersion,
      negotiated: transport.negotiated
    })
    return Effect.andThen(
      protocol.notify("notifications/initialized"),
      Effect.map(recovery, ({ recover }): Session => ({
        init,
        recover,
        notify: (method, params) => recover(method, protocol.notify(method, params))
      }))
    )
  })
}
