/**
 * The fleet's session records and this instance's replicas of them: a new
 * session admitted under the fleet's maximum; a request's session loaded
 * from the store (its time to live restarted, one round trip), made a
 * replica here when it was not held; its state saved after a change (and
 * told to the other replicas); the sessions busy here kept alive; a session
 * ended everywhere.
 */
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as JsonRpc from "../../../JsonRpc.js"
import type { SessionRecord, SessionStoreError, SessionStoreShape } from "../../../SessionStore.js"
import type { PrincipalInfo } from "../../auth/principal.js"
import type { Config } from "../config.js"
import { every, randomSessionId } from "../registry.js"
import type { Session, Sessions } from "../sessions.js"
import type { SseStream } from "../sseStream.js"
import { jsonRpcError } from "../validate.js"
import { logged } from "./handover.js"

type Messages = ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>
type Response = HttpServerResponse.HttpServerResponse

export interface Records {
  /** A new session's id, admitted under the fleet's maximum; else the 503. */
  readonly admit: Effect.Effect<string | Response>
  /** The session `id` names, refreshed from the store (a replica if it was not held here); else the 404 or 503. */
  readonly find: (id: string, principal: PrincipalInfo | undefined) => Effect.Effect<Session | Response>
  /** Saves the session's state after a change, and tells the other replicas. */
  readonly save: (session: Session) => Effect.Effect<void, SessionStoreError>
  /** A POST answered with a stream: its requests are recorded, for a resumption elsewhere if this instance dies. */
  readonly streamed: (session: Session, stream: SseStream) => Effect.Effect<void>
  /** DELETE: the session ends everywhere. */
  readonly end: (session: Session) => Effect.Effect<void, SessionStoreError>
}

/** The methods whose answer changes the stored state of a session. */
const CHANGES = new Set(["initialize", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"])

export const changesState = (messages: Messages): boolean =>
  messages.some((m) => JsonRpc.isRequest(m) && CHANGES.has(m.method))

export const unavailable = (): Response =>
  jsonRpcError(503, -32000, "Service Unavailable: the session store cannot be reached; retry later")

const notFound = () => jsonRpcError(404, -32001, "Session not found")

const recordOf = (session: Session): SessionRecord => ({ ...session.state!.read(), principal: session.principal })

/** A fresher record of the session, into its replica here. */
export const apply = (session: Session, record: SessionRecord): void => {
  const { principal: _, ...state } = record
  session.state?.write(state)
  session.version = record.protocolVersion
}

interface Ctx {
  readonly config: Config
  readonly store: SessionStoreShape
  readonly sessions: Sessions
  /** Sessions being made replicas here: a second request for one waits for the first. */
  readonly adopting: Map<string, Deferred.Deferred<Session>>
}

/** The records of one instance; the sessions busy here are kept alive in the store for the life of the scope. */
export const make = (config: Config, store: SessionStoreShape, sessions: Sessions): Effect.Effect<Records, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ctx: Ctx = { config, store, sessions, adopting: new Map() }
    const ttl = config.idleMs
    yield* every(Duration.millis(Number.isFinite(ttl) ? Math.max(10, Math.min(ttl / 3, 10_000)) : 10_000), touchBusy(ctx))
    return {
      admit: admit(ctx),
      find: (id, principal) => find(ctx, id, principal),
      save: (session) => save(ctx, session),
      streamed: (session, stream) =>
        logged(
          store.saveStream(stream.id, Array.from(stream.pending), Number.isFinite(ttl) ? ttl : 3_600_000),
          "could not record a streamed POST's requests"
        ),
      end: (session) => end(ctx, session)
    }
  })

const admit = ({ config, store }: Ctx): Effect.Effect<string | Response> =>
  Effect.suspend(() => {
    const id = randomSessionId()
    return Effect.map(
      store.reserve(id, config.idleMs, config.maxSessions),
      (admitted): string | Response => admitted ? id : jsonRpcError(503, -32000, "Service Unavailable: too many sessions")
    )
  }).pipe(Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable())))

// on every POST of a session: no generator
const find = (ctx: Ctx, id: string, principal: PrincipalInfo | undefined): Effect.Effect<Session | Response> =>
  ctx.store.load(id, ctx.config.idleMs).pipe(
    Effect.flatMap((loaded): Effect.Effect<Session | Response> => found(ctx, id, principal, loaded)),
    Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable()))
  )

const found = (ctx: Ctx, id: string, principal: PrincipalInfo | undefined, loaded: Option.Option<SessionRecord>) => {
  const { auth } = ctx.config
  const local = ctx.sessions.registry.byId.get(id)
  if (Option.isNone(loaded)) {
    // expired, or ended on another instance
    return local === undefined ? Effect.succeed(notFound()) : Effect.as(ctx.sessions.close(local, true), notFound())
  }
  const record = loaded.value
  if (auth !== undefined && !auth.sameOwner(record.principal as PrincipalInfo | undefined, principal)) {
    return Effect.succeed(notFound())
  }
  if (local !== undefined && !local.closed) {
    apply(local, record)
    return Effect.succeed(local)
  }
  return adopt(ctx, id, record)
}

/** The session made a replica here, from its record; once, however many requests ask for it meanwhile. */
const adopt = ({ adopting, sessions }: Ctx, id: string, record: SessionRecord) =>
  Effect.gen(function*() {
    const waiting = adopting.get(id)
    if (waiting !== undefined) return yield* Deferred.await(waiting)
    const done = yield* Deferred.make<Session>()
    adopting.set(id, done)
    const session = yield* sessions.open(id)
    apply(session, record)
    adopting.delete(id)
    yield* Deferred.succeed(done, session)
    return session
  })

const save = ({ config, store }: Ctx, session: Session) =>
  Effect.suspend(() => {
    const record = recordOf(session)
    return Effect.andThen(
      store.save(session.id, record, config.idleMs),
      store.publish(undefined, { _tag: "State", sessionId: session.id, record })
    )
  })

const end = ({ sessions, store }: Ctx, session: Session) =>
  Effect.andThen(
    store.remove(session.id),
    Effect.andThen(store.publish(undefined, { _tag: "Ended", sessionId: session.id }), sessions.close(session))
  )

/** The sessions in use here (a request in flight, a connection open) stay alive in the store. */
const touchBusy = ({ config, sessions, store }: Ctx) =>
  Effect.suspend(() => {
    const busy: Array<string> = []
    for (const s of sessions.registry.byId.values()) {
      if (s.byRequest.size > 0 || Array.from(s.streams.values()).some((st) => st.sink !== undefined)) busy.push(s.id)
    }
    return busy.length === 0 ? Effect.void : logged(store.touch(busy, config.idleMs), "session touch")
  })
