/**
 * The server side of the lifecycle: who the server is and what it offers
 * (built once per server), and each session's `initialize`, which negotiates
 * the protocol version and records the client.
 */
import * as Effect from "effect/Effect"
import * as Lifecycle from "../../Lifecycle.js"
import { ErrorResponse } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import type { ServerOptions } from "../../McpServer.js"

/** What every session's `initialize` answers besides the negotiated version. */
export interface Identity {
  readonly serverInfo: McpSchema.Implementation
  readonly capabilities: McpSchema.ServerCapabilities
  readonly instructions: string | undefined
}

export const identity = (options: ServerOptions): Identity => ({
  serverInfo: {
    name: options.name,
    version: options.version,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.websiteUrl !== undefined ? { websiteUrl: options.websiteUrl } : {}),
    ...(options.icons !== undefined ? { icons: options.icons as Array<McpSchema.Icon> } : {})
  } as McpSchema.Implementation,
  capabilities: {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {}
  },
  instructions: options.instructions
})

/** What one session's `initialize` settled. */
export interface Negotiation {
  /** The negotiated version; before `initialize`, the one the transport knows (an HTTP header), if any. */
  version: string | undefined
  clientInfo: McpSchema.Implementation | undefined
  clientCapabilities: McpSchema.ClientCapabilities | undefined
  negotiated: boolean
}

export const negotiation = (transportVersion: string | undefined): Negotiation => ({
  version: transportVersion,
  clientInfo: undefined,
  clientCapabilities: undefined,
  negotiated: false
})

/** Answers `initialize`: once per session, or -32600. */
export const initialize = (
  identity: Identity,
  session: Negotiation,
  params: unknown
): Effect.Effect<McpSchema.InitializeResult, ErrorResponse> => {
  // once per session, on every transport: a second one would renegotiate the version
  // (and with it batches) under a client that already relies on the first
  if (session.negotiated) {
    return Effect.fail(ErrorResponse.invalidRequest("Invalid Request: the session is already initialized"))
  }
  const init = params as McpSchema.InitializeRequestParams | undefined
  if (init === undefined || typeof init.protocolVersion !== "string") {
    return Effect.fail(ErrorResponse.invalidParams("initialize needs params.protocolVersion"))
  }
  session.negotiated = true
  session.version = Lifecycle.negotiate(init.protocolVersion)
  session.clientInfo = init.clientInfo
  session.clientCapabilities = init.capabilities ?? {}
  return Effect.succeed({
    protocolVersion: session.version,
    capabilities: identity.capabilities,
    serverInfo: identity.serverInfo,
    ...(identity.instructions !== undefined ? { instructions: identity.instructions } : {})
  })
}

/** Whether the session's version allows JSON-RPC batches (before `initialize`, the HTTP default's rule). */
export const allowsBatches = (session: Negotiation): boolean =>
  Lifecycle.allowsBatches(session.version ?? Lifecycle.DEFAULT_HTTP_VERSION)
