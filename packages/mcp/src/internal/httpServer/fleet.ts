/**
 * The streamable HTTP server as one instance of a fleet sharing a
 * `SessionStore`: a request for a session this instance does not hold makes
 * it a replica (an engine started from the stored record); every request
 * refreshes the record (one round trip) and its time to live; state changes
 * are saved and told to the other replicas. What crosses instances goes
 * through the store's messages: the answer to a reverse call to the instance
 * whose id prefixes it; `notifications/cancelled` to all; messages for the
 * standing stream to whichever instance holds it; a stream resumed elsewhere
 * is forwarded there by its owner, or, if its owner died, its requests are
 * answered with an error.
 */
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as EventStore from "../../EventStore.js"
import * as JsonRpc from "../../JsonRpc.js"
import type { FleetMessage, SessionRecord, SessionStoreError, SessionStoreShape } from "../../SessionStore.js"
import type { Announcement } from "../../McpServer.js"
import type { PrincipalInfo } from "../auth/principal.js"
import type { Config } from "./config.js"
import { every, randomSessionId } from "./registry.js"
import type { Session, Sessions } from "./sessions.js"
import { eventText, type Event, type SseStream, type Streams, streamRecord } from "./sseStream.js"
import { jsonRpcError } from "./validate.js"

type Messages = ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>
type Response = HttpServerResponse.HttpServerResponse

export interface Fleet {
  readonly store: SessionStoreShape
  /** A new session's id, admitted under the fleet's maximum; else the 503. */
  readonly admit: Effect.Effect<string | Response>
  /** The session `id` names, refreshed from the store (a replica if it was not held here); else the 404 or 503. */
  readonly find: (id: string, principal: PrincipalInfo | undefined) => Effect.Effect<Session | Response>
  /** The messages of a POST this instance handles itself; the others are sent where they are awaited. */
  readonly incoming: (session: Session, messages: Messages) => Effect.Effect<Messages, SessionStoreError>
  /** Saves the session's state after a change, and tells the other replicas. */
  readonly save: (session: Session) => Effect.Effect<void, SessionStoreError>
  /** A POST answered with a stream: its requests are recorded, for a resumption elsewhere if this instance dies. */
  readonly streamed: (session: Session, stream: SseStream) => Effect.Effect<void>
  /** A resumption of a stream another instance owns; undefined when it is this instance's. */
  readonly resume: (session: Session, streamId: string, lastEventId: string) => Effect.Effect<Response> | undefined
  /** DELETE: the session ends everywhere. */
  readonly end: (session: Session) => Effect.Effect<void, SessionStoreError>
}

/**
 * How often the owners of the streams resumed here are looked at: a resumed stream whose owner's
 * heartbeat expired gets its errors within the heartbeat's time to live plus this.
 */
export const CHECK_INTERVAL = Duration.seconds(1)

/** Server messages every replica of a session produces alike: only the holder of the standing stream sends them. */
const FANNED_OUT = new Set([
  "notifications/resources/updated",
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed"
])

/** The methods whose answer changes the stored state of a session. */
const CHANGES = new Set(["initialize", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"])

export const changesState = (messages: Messages): boolean =>
  messages.some((m) => JsonRpc.isRequest(m) && CHANGES.has(m.method))

/**
 * Whether `incoming` has anything to do with a POST's messages (a response, which may be awaited
 * elsewhere; `notifications/cancelled`, for all; `notifications/initialized`, a state change);
 * the usual POST, requests only, is handled here as it came.
 */
export const routed = (messages: Messages): boolean => {
  for (const m of messages) {
    if (JsonRpc.isResponse(m)) return true
    if (JsonRpc.isNotification(m) && (m.method === "notifications/cancelled" || m.method === "notifications/initialized")) return true
  }
  return false
}

export const unavailable = (): Response =>
  jsonRpcError(503, -32000, "Service Unavailable: the session store cannot be reached; retry later")

/** `<session>-<instance>.<p|g><n>`: the instance that owns a stream, and whether it is a standing one. */
export const ownerOf = (sessionId: string, streamId: string): { readonly instance: string; readonly standing: boolean } | undefined => {
  const rest = streamId.slice(sessionId.length + 1)
  const dot = rest.lastIndexOf(".")
  if (dot <= 0) return undefined
  return { instance: rest.slice(0, dot), standing: rest[dot + 1] === "g" }
}

/** The instance a reverse call's id names (`<instance>:<n>`). */
const waiterOf = (id: JsonRpc.RequestId | null): string | undefined => {
  if (typeof id !== "string") return undefined
  const at = id.lastIndexOf(":")
  return at <= 0 ? undefined : id.slice(0, at)
}

const seqOf = (id: string): number => Option.match(EventStore.parseEventId(id), { onNone: () => 0, onSome: (p) => p.seq })

const recordOf = (session: Session): SessionRecord => ({ ...session.state!.read(), principal: session.principal })

const apply = (session: Session, record: SessionRecord) => {
  const { principal: _, ...state } = record
  session.state?.write(state)
  session.version = record.protocolVersion
}

/** A stream of another instance, resumed here. */
interface Proxy {
  readonly session: Session
  readonly stream: SseStream
  readonly owner: string
  readonly requests: Array<JsonRpc.RequestId>
  readonly answered: Set<JsonRpc.RequestId>
  /** Events that came before the connection opened. */
  readonly early: Array<Event>
  opened: boolean
  ended: boolean
}

const answeredIn = (data: string): JsonRpc.RequestId | undefined => {
  try {
    const m = JSON.parse(data) as { id?: JsonRpc.RequestId; method?: string }
    return m.method === undefined && m.id !== undefined ? m.id : undefined
  } catch {
    return undefined
  }
}

export const make = (
  config: Config,
  store: SessionStoreShape,
  sessions: Sessions,
  streams: Streams
): Effect.Effect<Fleet, never, Scope.Scope> =>
  Effect.gen(function*() {
    const { auth, server } = config
    const events = config.store
    const self = store.instanceId
    const ttl = config.idleMs
    const registry = sessions.registry
    const adopting = new Map<string, Deferred.Deferred<Session>>()
    const proxies = new Map<string, Proxy>()
    const logged = <A>(effect: Effect.Effect<A, SessionStoreError>, what: string) =>
      Effect.asVoid(Effect.catchAll(effect, (e) => Effect.logWarning(`${what}: ${e.message}`)))

    const notFound = () => jsonRpcError(404, -32001, "Session not found")

    const adopt = (id: string, record: SessionRecord) =>
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

    // on every POST of a session: no generator
    const found = (id: string, principal: PrincipalInfo | undefined, loaded: Option.Option<SessionRecord>) => {
      const local = registry.byId.get(id)
      if (Option.isNone(loaded)) {
        // expired, or ended on another instance
        return local === undefined ? Effect.succeed(notFound()) : Effect.as(sessions.close(local, true), notFound())
      }
      const record = loaded.value
      if (auth !== undefined && !auth.sameOwner(record.principal as PrincipalInfo | undefined, principal)) {
        return Effect.succeed(notFound())
      }
      if (local !== undefined && !local.closed) {
        apply(local, record)
        return Effect.succeed(local)
      }
      return adopt(id, record)
    }
    const find = (id: string, principal: PrincipalInfo | undefined): Effect.Effect<Session | Response> =>
      store.load(id, ttl).pipe(
        Effect.flatMap((loaded): Effect.Effect<Session | Response> => found(id, principal, loaded)),
        Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable()))
      )

    const admit: Effect.Effect<string | Response> = Effect.suspend(() => {
      const id = randomSessionId()
      return Effect.map(
        store.reserve(id, ttl, config.maxSessions),
        (admitted): string | Response => admitted ? id : jsonRpcError(503, -32000, "Service Unavailable: too many sessions")
      )
    }).pipe(Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable())))

    const save = (session: Session) =>
      Effect.suspend(() => {
        const record = recordOf(session)
        return Effect.zipRight(
          store.save(session.id, record, ttl),
          store.publish(undefined, { _tag: "State", sessionId: session.id, record })
        )
      })

    const incoming = (session: Session, messages: Messages): Effect.Effect<Messages, SessionStoreError> =>
      Effect.gen(function*() {
        const here: Array<JsonRpc.Message | JsonRpc.Invalid> = []
        for (const m of messages) {
          if (JsonRpc.isResponse(m)) {
            const waiter = waiterOf(m.id)
            if (waiter !== undefined && waiter !== self) {
              yield* store.publish(waiter, { _tag: "Incoming", sessionId: session.id, message: m })
              continue
            }
          } else if (JsonRpc.isNotification(m)) {
            if (m.method === "notifications/cancelled") {
              // the request may run on any instance: all of them hear it (this one included)
              yield* store.publish(undefined, { _tag: "Incoming", sessionId: session.id, message: m })
              continue
            }
            if (m.method === "notifications/initialized" && session.state !== undefined) {
              session.state.write({ ...session.state.read(), initialized: true })
              yield* save(session)
            }
          }
          here.push(m)
        }
        return here
      })

    const streamed = (session: Session, stream: SseStream) =>
      logged(
        store.saveStream(stream.id, Array.from(stream.pending), Number.isFinite(ttl) ? ttl : 3_600_000),
        "could not record a streamed POST's requests"
      )

    // --- streams resumed on another instance than their owner ---

    const offer = (proxy: Proxy, event: Event) => {
      if (proxy.opened && proxy.stream.sink !== undefined) proxy.stream.sink.unsafeOffer(event)
      else proxy.early.push(event)
    }

    const endProxy = (proxy: Proxy) =>
      Effect.suspend(() => {
        proxy.ended = true
        proxy.stream.done = true
        proxies.delete(proxy.stream.id)
        return proxy.opened ? streams.endConnection(proxy.stream) : Effect.void
      })

    /** The owner died: each request not answered yet gets an error, stored (a later resumption sees it too). */
    const failPending = (proxy: Proxy) =>
      Effect.gen(function*() {
        for (const id of proxy.requests) {
          if (proxy.answered.has(id)) continue
          proxy.answered.add(id)
          const data = JSON.stringify(JsonRpc.failure(id, {
            code: JsonRpc.ErrorCode.InternalError,
            message: `The server instance that was handling this request (${proxy.owner}) stopped; the request was not completed`
          }))
          // stored, so that a later resumption sees it too; else (the store failed) written without an id
          const eventId = events === undefined ? undefined : yield* Effect.catchAllDefect(
            events.append(proxy.session.id, proxy.stream.id, data, id),
            (defect) => Effect.as(Effect.logWarning("a stopped instance's error could not be stored", defect), undefined)
          )
          offer(proxy, { seq: eventId === undefined ? 0 : seqOf(eventId), text: eventText(eventId, data) })
        }
        yield* endProxy(proxy)
      })

    const resumeStanding = (session: Session, streamId: string, lastEventId: string, owner: string) =>
      Effect.gen(function*() {
        // this instance holds the standing stream from now on
        yield* logged(store.publish(owner, { _tag: "Attach", sessionId: session.id, streamId, instance: self }), "attach")
        const replay = events === undefined ? Option.none() : yield* events.replayAfter(session.id, lastEventId)
        const standing = streamRecord(streamId, "standing")
        session.standing = standing
        session.streams.set(streamId, standing)
        const replayed = Option.isSome(replay)
          ? replay.value.events.map((e) => ({ seq: seqOf(e.id), text: eventText(e.id, e.data) }))
          : []
        return yield* streams.openSse(session, standing, replayed, Effect.void, true)
      })

    const resumeForeign = (session: Session, streamId: string, lastEventId: string, owner: string) =>
      Effect.gen(function*() {
        const stream = streamRecord(streamId, "post")
        const proxy: Proxy = { session, stream, owner, requests: [], answered: new Set(), early: [], opened: false, ended: false }
        // resumed again here: the client left the earlier connection, which would be checked no more
        const earlier = proxies.get(streamId)
        if (earlier !== undefined) yield* endProxy(earlier)
        proxies.set(streamId, proxy)
        // attached first, then the replay: an event is in one or the other (the body drops repeats by sequence)
        yield* store.publish(owner, { _tag: "Attach", sessionId: session.id, streamId, instance: self })
        const replay = events === undefined ? Option.none() : yield* events.replayAfter(session.id, lastEventId)
        const requests = yield* store.loadStream(streamId)
        if (Option.isSome(requests)) proxy.requests.push(...requests.value)
        const replayed: Array<Event> = []
        if (Option.isSome(replay)) {
          for (const e of replay.value.events) {
            const answered = answeredIn(e.data)
            if (answered !== undefined) proxy.answered.add(answered)
            replayed.push({ seq: seqOf(e.id), text: eventText(e.id, e.data) })
          }
        }
        if (Option.isNone(replay) && Option.isNone(requests)) {
          proxies.delete(streamId)
          return jsonRpcError(410, -32000, "Gone: the events after this Last-Event-ID are no longer held")
        }
        if (!(yield* store.alive(owner))) yield* failPending(proxy)
        // what came before the connection opened goes in its head: the errors of an owner found dead
        // just now ended the stream, whose connection then takes no more events once open
        const response = yield* streams.openSse(
          session,
          stream,
          replayed.concat(proxy.early.splice(0)),
          Effect.sync(() => {
            if (proxies.get(streamId) === proxy) proxies.delete(streamId)
          }),
          true
        )
        proxy.opened = true
        for (const event of proxy.early.splice(0)) stream.sink?.unsafeOffer(event)
        if (proxy.ended) yield* streams.endConnection(stream)
        return response
      }).pipe(Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable())))

    const resume = (session: Session, streamId: string, lastEventId: string) => {
      const owner = ownerOf(session.id, streamId)
      if (owner === undefined || owner.instance === self) return undefined
      return owner.standing
        ? resumeStanding(session, streamId, lastEventId, owner.instance)
        : resumeForeign(session, streamId, lastEventId, owner.instance)
    }

    const end = (session: Session) =>
      Effect.zipRight(
        store.remove(session.id),
        Effect.zipRight(
          store.publish(undefined, { _tag: "Ended", sessionId: session.id }),
          sessions.close(session)
        )
      )

    // --- what other instances send ---

    const onMessage = (message: FleetMessage): Effect.Effect<void> =>
      Effect.suspend(() => {
        switch (message._tag) {
          case "ResourceUpdated":
            return deliver(message)
          case "ListChanged": {
            // the same change made on several instances (a feature added on each) is told once
            if (lastDigest.get(message.kind) === message.digest) return Effect.void
            lastDigest.set(message.kind, message.digest)
            return deliver(message)
          }
          case "StreamEvent": {
            const proxy = proxies.get(message.streamId)
            if (proxy === undefined || proxy.ended) return Effect.void
            if (message.end || message.data === undefined) return endProxy(proxy)
            const answered = answeredIn(message.data)
            if (answered !== undefined) proxy.answered.add(answered)
            offer(proxy, { seq: message.id === undefined ? 0 : seqOf(message.id), text: eventText(message.id, message.data) })
            return Effect.void
          }
          default:
            break
        }
        const session = registry.byId.get(message.sessionId)
        if (session === undefined || session.closed) return Effect.void
        switch (message._tag) {
          case "Incoming":
            session.inbox.offer(message.message)
            return session.inbox.drain()
          case "Standing": {
            const standing = session.standing
            return standing?.sink === undefined ? Effect.void : streams.deliver(session, standing, message.message)
          }
          case "State":
            apply(session, message.record)
            return Effect.void
          case "Ended":
            return sessions.close(session, true)
          case "Attach":
            return attached(session, message.streamId, message.instance)
        }
      })

    /** Another instance resumed one of this instance's streams. */
    const attached = (session: Session, streamId: string, instance: string) =>
      Effect.suspend(() => {
        const stream = session.streams.get(streamId)
        if (stream !== undefined && stream.kind === "standing") {
          // the standing stream is held there now
          session.streams.delete(streamId)
          if (session.standing === stream) session.standing = undefined
          return streams.endConnection(stream)
        }
        if (stream === undefined || stream.done) {
          return logged(
            store.publish(instance, { _tag: "StreamEvent", sessionId: session.id, streamId, id: undefined, data: undefined, end: true }),
            "stream end"
          )
        }
        stream.forward = instance
        stream.backlog.length = 0
        return streams.endConnection(stream)
      })

    streams.hooks.standing = (session, message) =>
      JsonRpc.isNotification(message) && FANNED_OUT.has(message.method)
        ? Effect.void
        : logged(store.publish(undefined, { _tag: "Standing", sessionId: session.id, message }), "standing message")
    streams.hooks.forwarded = (session, stream, id, data) =>
      logged(
        store.publish(stream.forward!, {
          _tag: "StreamEvent",
          sessionId: session.id,
          streamId: stream.id,
          id,
          data,
          end: data === undefined
        }),
        "forwarded event"
      )

    // the server's announcements go to every instance (this one included), each delivering to
    // what it holds: the standing streams and listen streams of its sessions
    const lastDigest = new Map<string, string>()
    const deliver: (announcement: Announcement) => Effect.Effect<void> = yield* server.relay((announcement) =>
      store.publish(undefined, announcement).pipe(
        Effect.catchAll((e) =>
          Effect.zipRight(
            Effect.logWarning(`an announcement reaches this instance's sessions only: ${e.message}`),
            deliver(announcement)
          )
        )
      )
    )
    yield* store.subscribe(onMessage)

    // busy sessions stay alive in the store; resumed streams whose owner died end with errors
    const tick = Duration.millis(Number.isFinite(ttl) ? Math.max(10, Math.min(ttl / 3, 10_000)) : 10_000)
    yield* every(
      tick,
      Effect.suspend(() => {
        const busy: Array<string> = []
        for (const s of registry.byId.values()) {
          if (s.byRequest.size > 0 || Array.from(s.streams.values()).some((st) => st.sink !== undefined)) busy.push(s.id)
        }
        return busy.length === 0 ? Effect.void : logged(store.touch(busy, ttl), "session touch")
      })
    )
    // the proxies of each tick: read when it runs (an array taken once, empty, was checked forever)
    yield* every(
      CHECK_INTERVAL,
      Effect.suspend(() =>
        Effect.forEach(Array.from(proxies.values()), (proxy) =>
          Effect.flatMap(
            Effect.orElseSucceed(store.alive(proxy.owner), () => true),
            (alive) => alive || proxy.ended ? Effect.void : failPending(proxy)
          ), { discard: true })
      )
    )

    return { store, admit, find, incoming, save, streamed, resume, end } satisfies Fleet
  })
