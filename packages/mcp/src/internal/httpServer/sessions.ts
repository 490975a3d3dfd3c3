/**
 * The streamable HTTP server's sessions: what one holds (its engine's scope
 * and mailbox, its streams and the stream each request in flight answers
 * on), how it is opened (its transport, connected to the `McpServer`) and
 * closed (its streams end, its events leave the store, its engine stops).
 * Ids, lookup, the maximum and the idle sweep are the shared `registry`'s.
 *
 * A 2026-07-28 POST's connection serves one POST at a time: once its POST was
 * answered whole and nothing of it is left (no request running, no stream),
 * it waits, idle, for the next 2026 POST instead of being closed (at most
 * `POOL_2026` of them; not with an event store or a fleet, whose records are
 * per session). Its engine, mailbox and scope are made once, not per POST.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import type * as JsonRpc from "../../JsonRpc.js"
import type { SessionStateAccess } from "../../SessionStore.js"
import type { Receiver, Route, TransportInfo, TransportShape } from "../../Transport.js"
import { runningNowOf } from "../server/connect.js"
import type { Config } from "./config.js"
import { Inbox } from "./inbox.js"
import * as Registry from "./registry.js"
import * as SseStream from "./sseStream.js"
import * as Telemetry from "../telemetry.js"

export interface Session extends Registry.Entry {
  readonly scope: Scope.Closeable
  /** What its POSTs hand its engine (`offer`, then `drain`). */
  readonly inbox: Inbox
  readonly streams: Map<string, SseStream.SseStream>
  readonly byRequest: Map<JsonRpc.RequestId, SseStream.SseStream>
  standing: SseStream.SseStream | undefined
  version: string | undefined
  initializeId: JsonRpc.RequestId | undefined
  nextStream: number
  /** With a `SessionStore`: this instance in every stream id (`<instance>.`), so ids are unique in the fleet. */
  readonly streamPrefix: string
  /** The engine's session state (`Transport.sessionState`). */
  state: SessionStateAccess | undefined
  closed: boolean
  /** A 2026-07-28 POST's own connection: never addressable, no `Mcp-Session-Id`, no batches. */
  readonly era2026: boolean
  /** A 2026 connection: the headers of the POST it serves now (`TransportInfo.headers`). */
  headers: { readonly [name: string]: string } | undefined
  /** A 2026 connection: how many requests its engine is handling. */
  running: (() => number) | undefined
}

/** At most this many idle 2026 connections wait for the next 2026 POST. */
export const POOL_2026 = 64

export interface Sessions {
  readonly registry: Registry.Registry<Session>
  /** Opens a session (with a new id unless given), its engine connected; addressable by id unless one per request. */
  readonly open: (id?: string) => Effect.Effect<Session>
  /**
   * Opens the connection of one 2026-07-28 POST: not addressable, its engine told the era
   * and the POST's headers (`Mcp-Param-*` are checked against the tool called).
   */
  readonly open2026: (headers: { readonly [name: string]: string }) => Effect.Effect<Session>
  /** `open2026` without an effect when an idle connection is pooled (the usual case); undefined otherwise. */
  readonly pooled2026: (headers: { readonly [name: string]: string }) => Session | undefined
  /**
   * The end of a 2026 POST answered whole: its connection waits for the next 2026 POST when
   * nothing of this one is left (undefined: pooled, nothing to run), else it is closed (the
   * effect that closes it).
   */
  readonly release2026: (session: Session) => Effect.Effect<void> | undefined
  /**
   * Ends a session and everything it owns; once. `keepStored`: only this
   * instance's replica ends; its stored events stay (a `SessionStore`'s other
   * instances serve it on).
   */
  readonly close: (session: Session, keepStored?: boolean) => Effect.Effect<void>
}

/**
 * A session's transport. Its methods are the class's, shared by every session: as closures they
 * were a part of each idle session's heap. Read by the engine only (never spread: a copy would
 * lose them).
 */
class SessionTransport implements TransportShape {
  readonly sessionState: TransportShape["sessionState"]
  constructor(
    readonly session: Session,
    readonly sse: SseStream.Streams,
    readonly info: TransportInfo,
    withState: boolean
  ) {
    this.sessionState = withState
      ? (access) => {
        session.state = access
      }
      : undefined
  }
  /** The engine's receiver goes to the inbox, which the session's POSTs hand their frames to: no reading fiber. */
  run(receiver: Receiver): undefined {
    this.session.inbox.attach(receiver)
    return undefined
  }
  send(message: JsonRpc.Outgoing, target?: Route): Effect.Effect<void> {
    return Array.isArray(message)
      ? Effect.forEach(message, (m) => this.sse.route(this.session, m, target), { discard: true })
      : this.sse.route(this.session, message as JsonRpc.Message, target)
  }
  /** A response its POST gathers is routed at once: a handler that answered as it was made needs no fiber. */
  sendNow(message: JsonRpc.Outgoing, target?: Route): Effect.Effect<void> | undefined {
    return Array.isArray(message) ? this.send(message, target) : this.sse.routeNow(this.session, message as JsonRpc.Message, target)
  }
  closeRequestStream(requestId: JsonRpc.RequestId): Effect.Effect<void> {
    return this.sse.closeRequestStream(this.session, requestId)
  }
  requestEnded(requestId: JsonRpc.RequestId): Effect.Effect<void> {
    return this.sse.requestEnded(this.session, requestId)
  }
}

/**
 * The session's scope, put in the context while its engine is made (the engine's context, which
 * its handler fibers start from, keeps it). On Effect 4 providing a service is one context update
 * (`Effect.provideService`), no longer v3's `fiberRefLocally` of ~15 operations, so nothing is
 * gained by setting the fiber's context by hand.
 */
const inScope = <A>(effect: Effect.Effect<A, never, Scope.Scope>, scope: Scope.Scope): Effect.Effect<A> =>
  Effect.provideService(effect, Scope.Scope, scope)

/** Nothing of the session is in use: no request in flight, no open connection. */
const isIdle = (session: Session): boolean => {
  if (session.byRequest.size > 0) return false
  for (const stream of session.streams.values()) if (stream.sink !== undefined) return false
  return true
}

/**
 * The sessions of one endpoint and their streams (handing over to other instances through
 * `handover`, with a `SessionStore`); every session is closed when the scope ends.
 */
export const make = (
  config: Config,
  handover: SseStream.Handover | undefined
): Effect.Effect<{ readonly sessions: Sessions; readonly streams: SseStream.Streams }, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { server, sessionPerRequest, store } = config
    const { fleet } = config
    const close = (session: Session, keepStored = false): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (session.closed) return Effect.void
        session.closed = true
        registry.byId.delete(session.id)
        const all = Array.from(session.streams.values())
        session.streams.clear()
        session.byRequest.clear()
        return Effect.forEach(all, sse.endConnection, { discard: true }).pipe(
          // the session's events go at once: nothing can resume them any more
          // (a 2026 connection stored nothing: see `SseStream.storeOf`)
          Effect.andThen(store === undefined || keepStored || session.era2026 ? Effect.void : store.dropSession(session.id)),
          Effect.andThen(session.inbox.end()),
          Effect.andThen(Effect.suspend(() => {
            registry.open.delete(session)
            return Scope.close(session.scope, Exit.void)
          }))
        )
      })
    // per-request sessions are swept too: one whose POST never got to answer is not kept past the timeout
    const registry = yield* Registry.make<Session>({
      maxSessions: config.maxSessions,
      idleMs: config.idleMs,
      auth: config.auth,
      isIdle,
      // with a fleet, what ends here is this instance's replica: the session lives on in the store
      close: (session) => close(session, fleet !== undefined)
    })
    const sse = yield* SseStream.make(config, registry.now, handover)

    const transportOf = (session: Session): TransportShape =>
      new SessionTransport(
        session,
        sse,
        session.era2026
          ? {
            principal: () => session.principal,
            era: "2026",
            attributes: Telemetry.HTTP_SERVER_ATTRIBUTES,
            // the POST the connection serves now (a connection serves one at a time)
            get headers() {
              return session.headers
            }
          }
          : {
            sessionId: sessionPerRequest ? undefined : session.id,
            principal: () => session.principal,
            attributes: Telemetry.HTTP_SERVER_ATTRIBUTES,
            requestIdPrefix: fleet === undefined ? undefined : `${fleet.instanceId}:`
          },
        // only a fleet reads and restores the engine's session state
        fleet !== undefined
      )

    const openWith = (id: string | undefined, era2026: boolean, headers?: { readonly [name: string]: string }) =>
      Effect.gen(function*() {
      // the session's own scope, closed by `close`: its engine and whatever it started
      const scope = yield* Scope.make()
      const session: Session = {
        id: id ?? Registry.randomSessionId(),
        scope,
        inbox: new Inbox(),
        streams: new Map(),
        byRequest: new Map(),
        standing: undefined,
        lastActivity: registry.now(),
        version: undefined,
        initializeId: undefined,
        // a fleet replica may be closed (idle here) and opened again on this instance, or the instance
        // restarted under its id, while the session and its stored events live on: its streams are
        // numbered from the clock (×1000: a replica would need over 1,000 streams per millisecond of its
        // life to reach the next one's first number), so a stream id is never used twice in a session
        nextStream: fleet === undefined ? 1 : registry.now() * 1000,
        streamPrefix: fleet === undefined ? "" : `${fleet.instanceId}.`,
        state: undefined,
        closed: false,
        principal: undefined,
        era2026,
        headers,
        running: undefined
      }
      registry.add(session, !sessionPerRequest && !era2026)
      const connection = yield* inScope(server.connect(transportOf(session)), scope)
      if (era2026) session.running = runningNowOf(connection)
      // a connection that ends by itself (keep-alive gave up) ends its session; only then is a
      // fiber needed to notice
      if (server.options.keepAlive !== undefined) {
        yield* Effect.forkIn(Effect.andThen(connection.closed, close(session, fleet !== undefined)), scope)
      }
      return session
    })

    const open = (id?: string) => openWith(id, false)
    /** Idle 2026 connections (out of the registry while they wait: no POST is being served on them). */
    const pool: Array<Session> = []
    const poolable = store === undefined && fleet === undefined
    yield* Effect.addFinalizer(() => Effect.forEach(pool.splice(0, pool.length), (s) => close(s), { discard: true }))
    const pooled2026 = (headers: { readonly [name: string]: string }): Session | undefined => {
      let session = pool.pop()
      while (session !== undefined && session.closed) session = pool.pop()
      if (session === undefined) return undefined
      session.headers = headers
      session.lastActivity = registry.now()
      registry.add(session, false)
      return session
    }
    const open2026 = (headers: { readonly [name: string]: string }) =>
      Effect.suspend(() => {
        const session = pooled2026(headers)
        return session === undefined ? openWith(undefined, true, headers) : Effect.succeed(session)
      })
    // without an effect when pooled (every sequential 2026 call): read and done where the POST answers
    const release2026 = (session: Session): Effect.Effect<void> | undefined => {
      if (
        !poolable || session.closed || pool.length >= POOL_2026 || session.running === undefined ||
        session.byRequest.size > 0 || session.streams.size > 0 || session.standing !== undefined ||
        session.running() > 0
      ) {
        return close(session)
      }
      session.headers = undefined
      session.principal = undefined
      registry.remove(session)
      pool.push(session)
      return undefined
    }
    return { sessions: { registry, open, open2026, pooled2026, release2026, close } satisfies Sessions, streams: sse }
  })
