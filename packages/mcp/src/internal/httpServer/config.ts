/**
 * The streamable HTTP server's options, resolved once (defaults applied,
 * durations in milliseconds), as every part of the endpoint reads them; and
 * the parts the method handlers (`post`, `get`, `delete`) share.
 */
import type * as Duration from "effect/Duration"
import type { EventStoreShape } from "../../EventStore.js"
import type { McpServerShape } from "../../McpServer.js"
import type { SessionStoreShape } from "../../SessionStore.js"
import type { McpAuthShape } from "../auth/service.js"
import type { Fleet } from "./fleet.js"
import type { Sessions } from "./sessions.js"
import type { Streams } from "./sseStream.js"
import type { Cors } from "./cors.js"
import type { Guard } from "./origins.js"

export interface Config {
  readonly server: McpServerShape
  readonly store: EventStoreShape | undefined
  /** Sessions shared with other instances (see `SessionStore`); undefined: this process only. */
  readonly fleet: SessionStoreShape | undefined
  readonly auth: McpAuthShape | undefined
  readonly jsonMode: boolean
  readonly sessionPerRequest: boolean
  readonly maxBody: number
  readonly maxDepth: number
  readonly idleMs: number
  readonly maxSessions: number
  readonly retryMs: number
  readonly keepAlive: Duration.Duration
  readonly bufferSize: number
  /** Text an open stream's buffer may hold before its senders wait. */
  readonly bufferBytes: number
  readonly sseFastPathMs: number
  /** The `Host`/`Origin` allow-lists; undefined: nothing checked. */
  readonly guard: Guard | undefined
  /** With the `cors` option: preflights answered, answers to allowed origins readable. */
  readonly cors: Cors | undefined
}

/** The parts of a running endpoint the method handlers use. */
export interface Endpoint {
  readonly config: Config
  readonly sessions: Sessions
  readonly streams: Streams
  /** With a `SessionStore`: this instance's part in the fleet. */
  readonly fleet: Fleet | undefined
}
