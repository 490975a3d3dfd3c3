/**
 * The sessions a server is serving: each one's state (its `ServerSession`,
 * caller, subscriptions, log level, its features' services), and the
 * notifications that go to many sessions at once.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import type * as McpSchema from "../../McpSchema.js"
import type * as Protocol from "../../Protocol.js"
import { levelAllows, type ServerSessionShape } from "../../ServerSession.js"
import type { PrincipalInfo } from "../auth/principal.js"
import type { Negotiation } from "./lifecycle.js"
import type { ListKind, Registered } from "./registry.js"

/** The state of one session, shared by its handlers. */
export interface SessionState {
  readonly shape: ServerSessionShape
  /** The caller on a protected transport (`TransportInfo.principal`). */
  readonly principal: (() => PrincipalInfo | undefined) | undefined
  readonly subscriptions: Set<string>
  /** Each feature's services in this session (its registered ones and `ServerSession`), made on first use. */
  readonly services: WeakMap<Registered<unknown>, Context.Context<never>>
  /** Set by `logging/setLevel`. */
  logLevel: McpSchema.LoggingLevel | undefined
  /** `notifications/initialized` arrived: list changes are sent from then on. */
  initialized: boolean
  /** The session's engine (a 2025 session; the 2026 per-request view has none). */
  readonly protocol?: (() => Protocol.Protocol) | undefined
}

let sessionCounter = 0

/** A process-unique session id, for transports that have none. */
export const nextSessionId = (): string => `session-${++sessionCounter}`

class StateImpl implements SessionState {
  readonly shape: ServerSessionShape
  readonly protocol: () => Protocol.Protocol
  logLevel: McpSchema.LoggingLevel | undefined = undefined
  initialized = false
  private subscribed: Set<string> | undefined = undefined
  private featureServices: WeakMap<Registered<unknown>, Context.Context<never>> | undefined = undefined
  constructor(
    readonly sessionId: string,
    readonly negotiation: Negotiation,
    readonly principal: (() => PrincipalInfo | undefined) | undefined,
    protocol: Protocol.Protocol
  ) {
    this.protocol = () => protocol
    // closures, not methods: `ServerSessionShape`'s members are function properties a handler may pass on
    const state = this
    this.shape = {
      sessionId,
      protocolVersion: () => negotiation.version,
      clientInfo: () => negotiation.clientInfo,
      clientCapabilities: () => negotiation.clientCapabilities,
      logLevel: () => state.logLevel,
      notify: (method, params) => protocol.notify(method, params),
      log: (lvl, data, logger) =>
        levelAllows(state.logLevel, lvl)
          ? protocol.notify("notifications/message", logger === undefined ? { level: lvl, data } : { level: lvl, data, logger })
            .pipe(Effect.ignore)
          : Effect.void
    }
  }
  /** Made on first use: most sessions never subscribe. */
  get subscriptions(): Set<string> {
    return this.subscribed ??= new Set()
  }
  /** Made on first use: an idle session has called no feature. */
  get services(): WeakMap<Registered<unknown>, Context.Context<never>> {
    return this.featureServices ??= new WeakMap()
  }
  isSubscribed(uri: string): boolean {
    return this.subscribed !== undefined && this.subscribed.has(uri)
  }
}

/** A session's state; its `ServerSession` sends through `protocol`, the session's engine. */
export const makeState = (options: {
  readonly sessionId: string
  readonly negotiation: Negotiation
  readonly principal: (() => PrincipalInfo | undefined) | undefined
  readonly protocol: Protocol.Protocol
}): SessionState => new StateImpl(options.sessionId, options.negotiation, options.principal, options.protocol)

/** Whether a session subscribed to `uri` (without making the set of one that never subscribed). */
const isSubscribed = (state: SessionState, uri: string): boolean =>
  state instanceof StateImpl ? state.isSubscribed(uri) : state.subscriptions.has(uri)

/** A `subscriptions/listen` stream (2026-07-28), told of the same changes the sessions are. */
export interface Listener {
  readonly listChanged: (kind: ListKind) => Effect.Effect<void>
  readonly resourceUpdated: (uri: string) => Effect.Effect<void>
}

export interface Sessions {
  /** Tells `listener` of every change until the scope closes. */
  readonly listen: (listener: Listener) => Effect.Effect<void, never, Scope.Scope>
  /** The sessions being served. */
  readonly list: Effect.Effect<ReadonlyArray<ServerSessionShape>>
  /** Serves `state` among the sessions until the scope closes. */
  readonly track: (state: SessionState) => Effect.Effect<void, never, Scope.Scope>
  /** `notifications/<kind>/list_changed` to every initialized session. */
  readonly listChanged: (kind: ListKind) => Effect.Effect<void>
  /** `notifications/resources/updated` to the sessions subscribed to `uri`. */
  readonly resourceUpdated: (uri: string) => Effect.Effect<void>
}

export const make = (): Sessions => {
  const sessions = new Set<SessionState>()
  const listeners = new Set<Listener>()
  const toListeners = (f: (l: Listener) => Effect.Effect<void>) =>
    listeners.size === 0 ? Effect.void : Effect.forEach(Array.from(listeners), f, { discard: true })
  return {
    listen: (listener) =>
      Effect.acquireRelease(Effect.sync(() => listeners.add(listener)), () => Effect.sync(() => listeners.delete(listener))),
    list: Effect.sync(() => Array.from(sessions, (s) => s.shape)),
    // `Scope.addFinalizer`, not `acquireRelease`: that one keeps the calling fiber's refs (a copy of
    // their map, the POST's on HTTP) for the finalizer, for the life of the session
    track: (state) =>
      Effect.uninterruptible(Effect.flatMap(Effect.scope, (scope) => {
        sessions.add(state)
        return Scope.addFinalizerExit(scope, () => Effect.sync(() => sessions.delete(state)))
      })),
    listChanged: (kind) =>
      Effect.andThen(
        Effect.forEach(
          Array.from(sessions).filter((s) => s.initialized),
          (s) => s.shape.notify(`notifications/${kind}/list_changed`).pipe(Effect.ignore),
          { discard: true }
        ),
        toListeners((l) => l.listChanged(kind))
      ),
    resourceUpdated: (uri) =>
      Effect.andThen(
        Effect.forEach(
          Array.from(sessions).filter((s) => isSubscribed(s, uri)),
          (s) => s.shape.notify("notifications/resources/updated", { uri }).pipe(Effect.ignore),
          { discard: true }
        ),
        toListeners((l) => l.resourceUpdated(uri))
      )
  }
}
