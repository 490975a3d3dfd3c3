/**
 * Streams resumed on another instance than the one that owns them. Resumed
 * here: a standing stream is held here from then on; a POST's stream is a
 * proxy, its owner told to forward its events here (`Attach`), which are
 * written as they come (`StreamEvent`); if its owner dies (its heartbeat
 * expired, looked at every `CHECK_INTERVAL`), each request not answered yet
 * gets an error, stored, and the stream ends. Resumed elsewhere: this
 * instance's stream forwards its events there (`attached`).
 */
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type * as EventStore from "../../../EventStore.js"
import * as JsonRpc from "../../../JsonRpc.js"
import type { FleetMessage, SessionStoreShape } from "../../../SessionStore.js"
import type { Config } from "../config.js"
import { every } from "../registry.js"
import type { Session } from "../sessions.js"
import { type Event, eventOf, type SseStream, type Streams, streamRecord } from "../sseStream.js"
import { jsonRpcError } from "../validate.js"
import { logged } from "./handover.js"
import { unavailable } from "./records.js"

type Response = HttpServerResponse.HttpServerResponse
type StreamEvent = Extract<FleetMessage, { readonly _tag: "StreamEvent" }>

export interface Proxies {
  /** A resumption of a stream another instance owns; undefined when it is this instance's. */
  readonly resume: (session: Session, streamId: string, lastEventId: string) => Effect.Effect<Response> | undefined
  /** An event of a stream resumed here, from its owner, or its end. */
  readonly event: (message: StreamEvent) => Effect.Effect<void>
  /** Another instance resumed one of this instance's streams: it is held, or forwarded, there. */
  readonly attached: (session: Session, streamId: string, instance: string) => Effect.Effect<void>
}

/**
 * How often the owners of the streams resumed here are looked at: a resumed stream whose owner's
 * heartbeat expired gets its errors within the heartbeat's time to live plus this.
 */
export const CHECK_INTERVAL = Duration.seconds(1)

/** `<session>-<instance>.<p|g><n>`: the instance that owns a stream, and whether it is a standing one. */
export const ownerOf = (sessionId: string, streamId: string): { readonly instance: string; readonly standing: boolean } | undefined => {
  const rest = streamId.slice(sessionId.length + 1)
  const dot = rest.lastIndexOf(".")
  if (dot <= 0) return undefined
  return { instance: rest.slice(0, dot), standing: rest[dot + 1] === "g" }
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

interface Ctx {
  readonly events: EventStore.EventStoreShape | undefined
  readonly store: SessionStoreShape
  readonly streams: Streams
  /** The proxies by stream id. */
  readonly proxies: Map<string, Proxy>
}

/** The resumed streams of one instance; their owners are looked at for the life of the scope. */
export const make = (config: Config, store: SessionStoreShape, streams: Streams): Effect.Effect<Proxies, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ctx: Ctx = { events: config.store, store, streams, proxies: new Map() }
    yield* every(CHECK_INTERVAL, checkOwners(ctx))
    return {
      resume: (session, streamId, lastEventId) => resume(ctx, session, streamId, lastEventId),
      event: (message) => event(ctx, message),
      attached: (session, streamId, instance) => attached(ctx, session, streamId, instance)
    }
  })

const answeredIn = (data: string): JsonRpc.RequestId | undefined => {
  try {
    const m = JSON.parse(data) as { id?: JsonRpc.RequestId; method?: string }
    return m.method === undefined && m.id !== undefined ? m.id : undefined
  } catch {
    return undefined
  }
}

const resume = (ctx: Ctx, session: Session, streamId: string, lastEventId: string) => {
  const owner = ownerOf(session.id, streamId)
  if (owner === undefined || owner.instance === ctx.store.instanceId) return undefined
  return owner.standing
    ? resumeStanding(ctx, session, streamId, lastEventId, owner.instance)
    : resumeForeign(ctx, session, streamId, lastEventId, owner.instance)
}

const attach = ({ store }: Ctx, session: Session, streamId: string, owner: string) =>
  store.publish(owner, { _tag: "Attach", sessionId: session.id, streamId, instance: store.instanceId })

const replayOf = ({ events }: Ctx, session: Session, lastEventId: string) =>
  events === undefined ? Effect.succeed(Option.none<EventStore.Replay>()) : events.replayAfter(session.id, lastEventId)

const resumeStanding = (ctx: Ctx, session: Session, streamId: string, lastEventId: string, owner: string) =>
  Effect.gen(function*() {
    // this instance holds the standing stream from now on
    yield* logged(attach(ctx, session, streamId, owner), "attach")
    const replay = yield* replayOf(ctx, session, lastEventId)
    const standing = streamRecord(streamId, "standing")
    session.standing = standing
    session.streams.set(streamId, standing)
    const replayed = Option.isSome(replay) ? replay.value.events.map((e) => eventOf(e.id, e.data)) : []
    return yield* ctx.streams.openSse(session, standing, replayed, Effect.void, true)
  })

const resumeForeign = (ctx: Ctx, session: Session, streamId: string, lastEventId: string, owner: string) =>
  Effect.gen(function*() {
    const { proxies, store } = ctx
    const stream = streamRecord(streamId, "post")
    const proxy: Proxy = { session, stream, owner, requests: [], answered: new Set(), early: [], opened: false, ended: false }
    // resumed again here: the client left the earlier connection, which would be checked no more
    const earlier = proxies.get(streamId)
    if (earlier !== undefined) yield* endProxy(ctx, earlier)
    proxies.set(streamId, proxy)
    // attached first, then the replay: an event is in one or the other (the body drops repeats by sequence)
    yield* attach(ctx, session, streamId, owner)
    const replay = yield* replayOf(ctx, session, lastEventId)
    const requests = yield* store.loadStream(streamId)
    if (Option.isSome(requests)) proxy.requests.push(...requests.value)
    if (Option.isNone(replay) && Option.isNone(requests)) {
      proxies.delete(streamId)
      return jsonRpcError(410, -32000, "Gone: the events after this Last-Event-ID are no longer held")
    }
    const replayed = Option.isSome(replay) ? replay.value.events.map((e) => received(proxy, e.id, e.data)) : []
    if (!(yield* store.alive(owner))) yield* failPending(ctx, proxy)
    return yield* openProxy(ctx, proxy, replayed)
  }).pipe(Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable())))

/** An event of the proxy's stream, its answer noted. */
const received = (proxy: Proxy, id: string | undefined, data: string): Event => {
  const answered = answeredIn(data)
  if (answered !== undefined) proxy.answered.add(answered)
  return eventOf(id, data)
}

/**
 * The proxy's connection, opened. What came before it opened goes in its head: the errors of an
 * owner found dead just now ended the stream, whose connection then takes no more events once open.
 */
const openProxy = (ctx: Ctx, proxy: Proxy, replayed: Array<Event>) =>
  Effect.gen(function*() {
    const { session, stream } = proxy
    const response = yield* ctx.streams.openSse(
      session,
      stream,
      replayed.concat(proxy.early.splice(0)),
      Effect.sync(() => {
        if (ctx.proxies.get(stream.id) === proxy) ctx.proxies.delete(stream.id)
      }),
      true
    )
    proxy.opened = true
    for (const event of proxy.early.splice(0)) stream.sink?.unsafeOffer(event)
    if (proxy.ended) yield* ctx.streams.endConnection(stream)
    return response
  })

const offer = (proxy: Proxy, event: Event) => {
  if (proxy.opened && proxy.stream.sink !== undefined) proxy.stream.sink.unsafeOffer(event)
  else proxy.early.push(event)
}

const endProxy = (ctx: Ctx, proxy: Proxy) =>
  Effect.suspend(() => {
    proxy.ended = true
    proxy.stream.done = true
    ctx.proxies.delete(proxy.stream.id)
    return proxy.opened ? ctx.streams.endConnection(proxy.stream) : Effect.void
  })

const event = (ctx: Ctx, message: StreamEvent): Effect.Effect<void> =>
  Effect.suspend(() => {
    const proxy = ctx.proxies.get(message.streamId)
    if (proxy === undefined || proxy.ended) return Effect.void
    if (message.end || message.data === undefined) return endProxy(ctx, proxy)
    offer(proxy, received(proxy, message.id, message.data))
    return Effect.void
  })

/** The owner died: each request not answered yet gets an error, stored (a later resumption sees it too). */
const failPending = (ctx: Ctx, proxy: Proxy) =>
  Effect.gen(function*() {
    for (const id of proxy.requests) {
      if (proxy.answered.has(id)) continue
      proxy.answered.add(id)
      const data = JSON.stringify(JsonRpc.failure(id, {
        code: JsonRpc.ErrorCode.InternalError,
        message: `The server instance that was handling this request (${proxy.owner}) stopped; the request was not completed`
      }))
      offer(proxy, eventOf(yield* storeError(ctx, proxy, data, id), data))
    }
    yield* endProxy(ctx, proxy)
  })

/** A stopped owner's error, stored: its id; undefined when there is no store or it failed (written without an id). */
const storeError = ({ events }: Ctx, proxy: Proxy, data: string, id: JsonRpc.RequestId) =>
  events === undefined ? Effect.succeed(undefined) : Effect.catchDefect(
    events.append(proxy.session.id, proxy.stream.id, data, id),
    (defect) => Effect.as(Effect.logWarning("a stopped instance's error could not be stored", defect), undefined)
  )

// the proxies of each tick: read when it runs (an array taken once, empty, was checked forever)
const checkOwners = (ctx: Ctx) =>
  Effect.suspend(() =>
    Effect.forEach(Array.from(ctx.proxies.values()), (proxy) =>
      Effect.flatMap(
        Effect.orElseSucceed(ctx.store.alive(proxy.owner), () => true),
        (alive) => alive || proxy.ended ? Effect.void : failPending(ctx, proxy)
      ), { discard: true })
  )

/** Another instance resumed one of this instance's streams. */
const attached = (ctx: Ctx, session: Session, streamId: string, instance: string) =>
  Effect.suspend(() => {
    const stream = session.streams.get(streamId)
    if (stream !== undefined && stream.kind === "standing") {
      // the standing stream is held there now
      session.streams.delete(streamId)
      if (session.standing === stream) session.standing = undefined
      return ctx.streams.endConnection(stream)
    }
    if (stream === undefined || stream.done) {
      return logged(
        ctx.store.publish(instance, { _tag: "StreamEvent", sessionId: session.id, streamId, id: undefined, data: undefined, end: true }),
        "stream end"
      )
    }
    stream.forward = instance
    stream.backlog.length = 0
    return ctx.streams.endConnection(stream)
  })
