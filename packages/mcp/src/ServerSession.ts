/**
 * One client's session with a server, as a service: who the client is, what
 * it declared, and the session-level push channel for work that outlives a
 * request (background jobs, subscriptions). Messages sent here are not related
 * to any request; on streamable HTTP they travel on the standing GET stream.
 *
 * Reverse calls (sampling, elicitation, roots) are not here on purpose: they
 * belong to a request and are made through `HandlerContext`.
 *
 * @example
 * ```ts
 * import { ServerSession } from "@effect-mcp/mcp/ServerSession"
 * import * as Effect from "effect/Effect"
 *
 * // inside a tool handler: start background work that reports later
 * const startJob = Effect.gen(function*() {
 *   const session = yield* ServerSession
 *   yield* Effect.forkDetach(
 *     Effect.sleep("1 second").pipe(Effect.andThen(session.log("info", "job finished")))
 *   )
 * })
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as JsonRpc from "./JsonRpc.js"
import type { ProtocolError } from "./McpError.js"
import type * as McpSchema from "./McpSchema.js"
import * as McpSchemaModule from "./McpSchema.js"

/**
 * What a server knows of the client it serves, and the session's push channel.
 * @since 0.1.0
 * @category models
 */
export interface ServerSessionShape {
  /** `Mcp-Session-Id` on streamable HTTP; a process-unique id elsewhere. */
  readonly sessionId: string
  /**
   * `"2026"` when this is the per-request view a 2026-07-28 request gets: the client, its
   * capabilities and its log level are what the request's `_meta` envelope says (no level: no
   * log messages), and `notify` sends on the request's own stream. Absent (or `"2025"`) on a
   * 2025 session.
   */
  readonly era?: "2025" | "2026" | undefined
  /** The negotiated protocol version (undefined before `initialize`). */
  readonly protocolVersion: () => string | undefined
  readonly clientInfo: () => McpSchema.Implementation | undefined
  readonly clientCapabilities: () => McpSchema.ClientCapabilities | undefined
  /** The level set by `logging/setLevel`, if any (on 2026, the request's `_meta` level). */
  readonly logLevel: () => McpSchema.LoggingLevel | undefined
  /** Sends a notification on the session channel. */
  readonly notify: (method: string, params?: JsonRpc.Params) => Effect.Effect<void, ProtocolError>
  /** Sends `notifications/message` when `level` is at or above the session's level. */
  readonly log: (level: McpSchema.LoggingLevel, data: unknown, logger?: string) => Effect.Effect<void>
}

/**
 * The session of the client being served.
 *
 * @example
 * ```ts
 * import * as ServerSession from "@effect-mcp/mcp/ServerSession"
 * import * as Effect from "effect/Effect"
 *
 * const whoIsThere = Effect.gen(function*() {
 *   const session = yield* ServerSession.ServerSession
 *   const client = session.clientInfo()
 *   yield* session.log("debug", `serving ${client?.name ?? "an unknown client"} (${session.protocolVersion()})`)
 * })
 * ```
 * @since 0.1.0
 * @category tags
 */
export class ServerSession extends Context.Service<ServerSession, ServerSessionShape>()("@effect-mcp/mcp/ServerSession") {}

// the schema's literals are in order of severity
const LEVELS: ReadonlyArray<McpSchema.LoggingLevel> = McpSchemaModule.LoggingLevel.literals

/**
 * Whether a message at `level` passes a session whose threshold is `threshold`.
 *
 * @example
 * ```ts
 * import * as ServerSession from "@effect-mcp/mcp/ServerSession"
 *
 * ServerSession.levelAllows("warning", "error") // true
 * ServerSession.levelAllows("warning", "info") // false
 * ServerSession.levelAllows(undefined, "debug") // true: no level set
 * ```
 * @since 0.1.0
 * @category logging
 */
export const levelAllows = (threshold: McpSchema.LoggingLevel | undefined, level: McpSchema.LoggingLevel): boolean =>
  threshold === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(threshold)

/**
 * Whether a log message at `level` goes to the client of `session`: at or above the level it set
 * (every level when it set none, on 2025; none on 2026, where a request without a level in its
 * `_meta` gets no log messages). The rule is `HandlerContext.log`'s.
 *
 * @example
 * ```ts
 * import * as ServerSession from "@effect-mcp/mcp/ServerSession"
 * import * as Effect from "effect/Effect"
 *
 * const debugOnly = Effect.gen(function*() {
 *   const session = yield* ServerSession.ServerSession
 *   if (ServerSession.logs(session, "debug")) {
 *     // build the expensive debug payload only when someone reads it
 *   }
 * })
 * ```
 * @since 0.1.0
 * @category logging
 */
export const logs = (session: ServerSessionShape, level: McpSchema.LoggingLevel): boolean => {
  const threshold = session.logLevel()
  return threshold === undefined ? session.era !== "2026" : levelAllows(threshold, level)
}
