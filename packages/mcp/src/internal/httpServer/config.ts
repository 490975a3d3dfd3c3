/**
 * The streamable HTTP server's options, resolved once (defaults applied,
 * durations in milliseconds), as every part of the endpoint reads them; and
 * the parts the method handlers (`post`, `get`, `delete`) share.
 * @internal
 */
import type * as Duration from "effect/Duration"
import type { EventStoreShape } from "../../EventStore.js"
import type { McpServerShape } from "../../McpServer.js"
import type { McpAuthShape } from "../auth/service.js"
import type { Sessions } from "./sessions.js"
import type { Streams } from "./sseStream.js"
import type { DnsRebindingProtection } from "./validate.js"

export interface Config {
  readonly server: McpServerShape
  readonly store: EventStoreShape | undefined
  readonly auth: McpAuthShape | undefined
  readonly jsonMode: boolean
  readonly stateless: boolean
  readonly maxBody: number
  readonly maxDepth: number
  readonly idleMs: number
  readonly maxSessions: number
  readonly retryMs: number
  readonly keepAlive: Duration.Duration
  readonly bufferSize: number
  readonly sseFastPathMs: number
  readonly protection: DnsRebindingProtection
}

/** The parts of a running endpoint the method handlers use. */
export interface Endpoint {
  readonly config: Config
  readonly sessions: Sessions
  readonly streams: Streams
}
