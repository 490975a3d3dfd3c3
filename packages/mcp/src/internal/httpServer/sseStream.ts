/**
 * The SSE streams of the streamable HTTP server and their binding to the
 * event store. A logical stream (a POST's, or the session's standing one)
 * may outlive its HTTP connections: each message is stored first (its event
 * id unique in the session), then written to the open connection, or kept in
 * a bounded backlog for the next. A connection opens with a priming event
 * (`id` + `retry`) or, resumed, with what the client missed; a stream read to
 * its end is marked delivered. One keep-alive ticker serves every open
 * connection. Routing a server message to its stream is here too: a response
 * settles the request it answers, a related message goes to its request's
 * stream, anything else to the standing stream.
 */
import * as Headers from "effect/http/Headers"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Pull from "effect/Pull"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as EventStore from "../../EventStore.js"
import * as JsonRpc from "../../JsonRpc.js"
import type { Route } from "../../Transport.js"
import type { Config } from "./config.js"
import { every } from "./registry.js"
import type { Session } from "./sessions.js"
import { type Event, Sink, type Writer } from "./sink.js"

export type { Event } from "./sink.js"
export { Sink } from "./sink.js"

/** A logical SSE stream: a POST's or the standing one; it may outlive its HTTP connections. */
export interface SseStream {
  readonly id: string
  readonly kind: "post" | "standing"
  sink: Sink | undefined
  /** Requests of this POST still waiting for their response. */
  readonly pending: Set<JsonRpc.RequestId>
  /** Events written while no connection was open (kept only with an event store). */
  readonly backlog: Array<Event>
  /** JSON mode: responses gathered, and how the POST will be answered. */
  json: { readonly responses: Array<JsonRpc.Message>; readonly decided: Decision } | undefined
  done: boolean
  /** The handler closed the stream (SEP-1699) before it was opened: end the first connection after priming. */
  closeOnOpen: boolean
  /**
   * A POST's stream an event of which could not be stored (the store failed: Redis unreachable):
   * it and the rest of the stream are written without ids (not each waiting for the store to fail
   * again), so that what is in flight still reaches the client on this stream; it cannot be resumed
   * past that point. The standing stream, which lives on, tries the store for each event.
   */
  unstored: boolean
  /** With a `SessionStore`: the instance that resumed this stream, to which its events go from now on. */
  forward?: string | undefined
}

/**
 * How a POST is answered, decided once: `"json"` (every answer came: one whole body) or `"sse"`
 * (a handler talked first, closed its stream, or the fast-path window passed: a stream). Awaited
 * by its POST at most once, and only when it was not decided while the engine took the POST.
 * `Once` for this one use, as a class: made on every call, its four closures and its `async`
 * were most of a POST's bookkeeping.
 */
export class Decision {
  private settled: "json" | "sse" | undefined = undefined
  private resume: ((answer: Effect.Effect<"json" | "sse">) => void) | undefined = undefined

  /** Decides, the first time only. */
  decide(how: "json" | "sse"): void {
    if (this.settled !== undefined) return
    this.settled = how
    if (this.resume !== undefined) this.resume(Effect.succeed(how))
  }

  /** The decision, if it was made. */
  poll(): "json" | "sse" | undefined {
    return this.settled
  }

  /**
   * Waits for the decision (at once when it came first). No canceler: an interrupted waiter's
   * callback ignores a later decision, as every async callback after its first call does.
   */
  get await(): Effect.Effect<"json" | "sse"> {
    return Effect.callback<"json" | "sse">((callback) => {
      if (this.settled !== undefined) return callback(Effect.succeed(this.settled))
      this.resume = callback
    })
  }
}

/** A stream record with nothing written yet (`done` for a finished stream that is only replayed). */
export const streamRecord = (id: string, kind: "post" | "standing", done = false): SseStream => ({
  id,
  kind,
  sink: undefined,
  pending: new Set(),
  backlog: [],
  json: undefined,
  done,
  closeOnOpen: false,
  unstored: false
})

/**
 * Where the streams hand over to other instances: given when the streams are made, with a
 * `SessionStore` (`fleet/handover.ts`); none without one.
 */
export interface Handover {
  /** A message for the standing stream, which is not held here. */
  readonly standing: (session: Session, message: JsonRpc.Message) => Effect.Effect<void>
  /** An event of a stream forwarded to instance `to` (stored as `id`), or its end (`data` undefined). */
  readonly forwarded: (
    to: string,
    session: Session,
    stream: SseStream,
    id: string | undefined,
    data: string | undefined
  ) => Effect.Effect<void>
}

export interface Streams {
  /**
   * A new stream of the session, listed in `session.streams` unless `listed` is false (a POST on a
   * 2026 connection without a store: listed only once it is answered with a stream, see `post`).
   */
  readonly newStream: (session: Session, kind: "post" | "standing", listed?: boolean) => SseStream
  /** Writes one message to a logical stream: stored first, then to the open connection or the backlog. */
  readonly deliver: (session: Session, stream: SseStream, message: JsonRpc.Message) => Effect.Effect<void>
  /** The stream has said everything: it leaves its session, its connection ends. */
  readonly finish: (session: Session, stream: SseStream) => Effect.Effect<void>
  /** Routes a server message of a session to the stream it belongs to. */
  readonly route: (session: Session, message: JsonRpc.Message, target: Route | undefined) => Effect.Effect<void>
  /**
   * `route` done at once when nothing is left to run (a response its POST gathers for one whole
   * body): undefined then, else `route`'s effect.
   */
  readonly routeNow: (session: Session, message: JsonRpc.Message, target: Route | undefined) => Effect.Effect<void> | undefined
  /** A request of the session is over without an answer (cancelled). */
  readonly requestEnded: (session: Session, requestId: JsonRpc.RequestId) => Effect.Effect<void>
  /** The handler closes its request's stream (SEP-1699): the client resumes it later. */
  readonly closeRequestStream: (session: Session, requestId: JsonRpc.RequestId) => Effect.Effect<void>
  /** Ends the stream's open connection, if any; the stream stays. */
  readonly endConnection: (stream: SseStream) => Effect.Effect<void>
  /**
   * Opens a connection for a logical stream: the priming event (or a comment
   * that flushes the headers), `replay`, then live events not already
   * replayed. `onEnd` runs when the connection is over.
   */
  readonly openSse: (
    session: Session,
    stream: SseStream,
    replay: ReadonlyArray<Event>,
    onEnd?: Effect.Effect<void>,
    resumed?: boolean
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** `openSse`, done now (it runs nothing): the response. */
  readonly openSseNow: (session: Session, stream: SseStream, replay: ReadonlyArray<Event>) => HttpServerResponse.HttpServerResponse
  /** The first event of a stream with a store: its priming id and the reconnection delay. */
  readonly priming: (streamId: string) => string
}

const encoder = new TextEncoder()

/** An event's text, with its id when it has one. */
export const eventText = (id: string | undefined, data: string): string =>
  id === undefined ? `event: message\ndata: ${data}\n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`

/** The request a message answers: the store leaves a JSON-RPC error in its place if it must evict it. */
export const answerOf = (message: JsonRpc.Message): JsonRpc.RequestId | undefined =>
  JsonRpc.isResponse(message) && message.id !== null ? message.id : undefined

const seqOf = (id: string): number => Option.match(EventStore.parseEventId(id), { onNone: () => 0, onSome: (p) => p.seq })

/** An event as a connection writes it: its sequence in the session (0 without an id) and its text. */
export const eventOf = (id: string | undefined, data: string): Event => ({
  seq: id === undefined ? 0 : seqOf(id),
  text: eventText(id, data)
})

/**
 * The event store a session's streams use: none for a 2026-07-28 POST's connection, whose stream
 * is never resumed (that revision has no `Last-Event-ID`, and no session to resume in), so it
 * needs no store and leaves nothing in one (with a fleet's store: served while Redis is down).
 */
export const storeOf = (config: Config, session: Session): EventStore.EventStoreShape | undefined =>
  session.era2026 ? undefined : config.store

/** What the stream functions share: the resolved options, the Clock, the open connections. */
interface Ctx {
  readonly config: Config
  readonly now: () => number
  /** Every open connection, for the keep-alive ticker. */
  readonly openSinks: Set<Sink>
  readonly handover: Handover | undefined
}

const KEEP_ALIVE: Event = { seq: 0, text: ": keep-alive\n\n" }

/**
 * The streams of every session, handing over to other instances through `handover` (with a
 * `SessionStore`); the keep-alive ticker runs for the life of the scope.
 */
export const make = (
  config: Config,
  now: () => number,
  handover: Handover | undefined
): Effect.Effect<Streams, never, Scope.Scope> =>
  Effect.gen(function*() {
    const ctx: Ctx = { config, now, openSinks: new Set(), handover }
    // one timer for every open connection: a comment on each keeps proxies from closing quiet streams
    yield* every(
      config.keepAlive,
      Effect.sync(() => {
        // a full buffer already has something to say: skip it rather than wait
        for (const sink of ctx.openSinks) sink.unsafeOffer(KEEP_ALIVE)
      })
    )
    return {
      newStream,
      deliver: (session, stream, message) => deliver(ctx, session, stream, message),
      finish: (session, stream) => finish(ctx, session, stream),
      route: (session, message, target) => route(ctx, session, message, target),
      routeNow: (session, message, target) => routeNow(ctx, session, message, target),
      requestEnded: (session, requestId) => requestEnded(ctx, session, requestId),
      closeRequestStream: (session, requestId) => closeRequestStream(ctx, session, requestId),
      endConnection,
      openSse: (session, stream, replay, onEnd, resumed) =>
        Effect.sync(() => openSseNow(ctx, session, stream, replay, onEnd, resumed)),
      openSseNow: (session, stream, replay) => openSseNow(ctx, session, stream, replay),
      priming: (streamId) => priming(config, streamId)
    }
  })

const priming = (config: Config, streamId: string) =>
  `id: ${EventStore.primingId(streamId)}\nretry: ${config.retryMs}\ndata: \n\n`

const deliver = (ctx: Ctx, session: Session, stream: SseStream, message: JsonRpc.Message): Effect.Effect<void> =>
  Effect.gen(function*() {
    const { bufferSize } = ctx.config
    const store = storeOf(ctx.config, session)
    const data = JSON.stringify(message)
    let event: Event
    let id: string | undefined
    if (store !== undefined && !stream.unstored) id = yield* append(store, session, stream, data, message)
    if (id !== undefined) {
      event = { seq: seqOf(id), text: eventText(id, data) }
    } else {
      event = { seq: 0, text: eventText(undefined, data) }
    }
    if (stream.forward !== undefined && ctx.handover !== undefined) {
      return yield* ctx.handover.forwarded(stream.forward, session, stream, id, data)
    }
    const sink = stream.sink
    if (sink !== undefined) {
      const open = yield* sink.offer(event)
      if (open) return
    }
    // no connection now: keep it for the next one (bounded; the store, if any, keeps it too)
    if (!stream.done && (store !== undefined || stream.kind === "post")) {
      stream.backlog.push(event)
      if (stream.backlog.length > bufferSize * 4) stream.backlog.shift()
    }
  })

/**
 * An event stored: its id; undefined when the store failed (a store over the network dies when it
 * cannot be reached): the stream goes on unstored (`SseStream.unstored`), so that every request in
 * flight on it still gets its answer, or its error, on it, before it ends.
 */
const append = (
  store: EventStore.EventStoreShape,
  session: Session,
  stream: SseStream,
  data: string,
  message: JsonRpc.Message
): Effect.Effect<string | undefined> =>
  Effect.catchDefect(store.append(session.id, stream.id, data, answerOf(message)), (defect) => {
    stream.unstored = stream.kind === "post"
    return Effect.as(
      Effect.logWarning(`an event of stream ${stream.id} could not be stored; the stream goes on without resumption`, defect),
      undefined
    )
  })

const endConnection = (stream: SseStream): Effect.Effect<void> =>
  Effect.suspend(() => {
    const sink = stream.sink
    stream.sink = undefined
    return sink === undefined ? Effect.void : sink.end()
  })

const finish = (ctx: Ctx, session: Session, stream: SseStream) =>
  Effect.suspend(() => {
    stream.done = true
    session.streams.delete(stream.id)
    const { handover } = ctx
    const to = stream.forward
    return to !== undefined && handover !== undefined
      ? Effect.andThen(endConnection(stream), handover.forwarded(to, session, stream, undefined, undefined))
      : endConnection(stream)
  })

/**
 * A request of `stream` is over: with its answer, or without one (cancelled). Its route goes,
 * and the stream ends (or its POST is answered) once nothing else waits on it.
 */
const settle = (
  ctx: Ctx,
  session: Session,
  stream: SseStream,
  id: JsonRpc.RequestId,
  answer: JsonRpc.Message | undefined
): Effect.Effect<void> => {
  session.byRequest.delete(id)
  if (stream.json !== undefined) {
    gather(stream, stream.json, id, answer)
    return Effect.void
  }
  const last = Effect.suspend(() => {
    stream.pending.delete(id)
    return stream.pending.size === 0 ? finish(ctx, session, stream) : Effect.void
  })
  // the request stays pending until its answer is stored and written: a store that answers
  // later (Redis) must not let the POST's fiber, finding nothing pending, end the stream first
  return answer === undefined ? last : Effect.ensuring(deliver(ctx, session, stream, answer), last)
}

/** `settle` for a POST whose answers gather for one whole body: nothing to run. */
const gather = (
  stream: SseStream,
  json: NonNullable<SseStream["json"]>,
  id: JsonRpc.RequestId,
  answer: JsonRpc.Message | undefined
): void => {
  stream.pending.delete(id)
  if (answer !== undefined) json.responses.push(answer)
  if (stream.pending.size === 0) json.decided.decide("json")
}

const ensureSink = (ctx: Ctx, stream: SseStream): Effect.Effect<void> =>
  stream.sink !== undefined
    ? Effect.void
    : Effect.sync(() => {
      if (stream.sink === undefined) stream.sink = new Sink(ctx.config.bufferSize, ctx.config.bufferBytes)
    })

const newStream = (session: Session, kind: "post" | "standing", listed = true): SseStream => {
  // with a fleet, `<session>-<instance>.<p|g><n>`: the instance that owns it, and whether it is the standing one
  const tag = session.streamPrefix === "" ? "" : `${session.streamPrefix}${kind === "standing" ? "g" : "p"}`
  const stream = streamRecord(`${session.id}-${tag}${session.nextStream++}`, kind)
  if (listed) session.streams.set(stream.id, stream)
  return stream
}

/** The session's negotiated version, read off its `initialize`'s answer. */
const noteVersion = (session: Session, id: JsonRpc.RequestId, message: JsonRpc.Response): void => {
  if (id === session.initializeId && "result" in message) {
    const v = message.result.protocolVersion
    if (typeof v === "string") session.version = v
  }
}

const routeNow = (
  ctx: Ctx,
  session: Session,
  message: JsonRpc.Message,
  target: Route | undefined
): Effect.Effect<void> | undefined => {
  if (JsonRpc.isResponse(message) && message.id !== null) {
    const id = message.id
    const stream = session.byRequest.get(id)
    if (stream?.json !== undefined) {
      noteVersion(session, id, message)
      session.byRequest.delete(id)
      gather(stream, stream.json, id, message)
      return undefined
    }
  }
  return route(ctx, session, message, target)
}

const route = (ctx: Ctx, session: Session, message: JsonRpc.Message, target: Route | undefined): Effect.Effect<void> => {
  if (JsonRpc.isResponse(message)) {
    const id = message.id
    if (id === null) return Effect.void
    noteVersion(session, id, message)
    const stream = session.byRequest.get(id)
    if (stream === undefined) return Effect.logDebug("a response for a request no stream waits for")
    return settle(ctx, session, stream, id, message)
  }
  const related = target?.relatedRequestId
  const stream = related === undefined ? undefined : session.byRequest.get(related)
  if (stream !== undefined) {
    if (stream.json !== undefined) {
      // a handler that talks before answering: its POST is answered with a stream, whose
      // bounded sink exists from now on, so the handler waits for the reader instead of
      // anything being buffered without bound or dropped
      stream.json.decided.decide("sse")
      return ensureSink(ctx, stream).pipe(
        Effect.andThen(Effect.suspend(() => deliver(ctx, session, stream, message)))
      )
    }
    return deliver(ctx, session, stream, message)
  }
  if (ctx.handover !== undefined && session.standing?.sink === undefined) {
    // the standing GET may be held by another instance
    return ctx.handover.standing(session, message)
  }
  if (session.standing === undefined) {
    if (storeOf(ctx.config, session) === undefined) return Effect.logDebug("no standing stream for a session message; dropped")
    session.standing = newStream(session, "standing")
  }
  return deliver(ctx, session, session.standing, message)
}

const requestEnded = (ctx: Ctx, session: Session, requestId: JsonRpc.RequestId) =>
  Effect.suspend(() => {
    const stream = session.byRequest.get(requestId)
    return stream === undefined ? Effect.void : settle(ctx, session, stream, requestId, undefined)
  })

const closeRequestStream = (ctx: Ctx, session: Session, requestId: JsonRpc.RequestId) =>
  Effect.suspend(() => {
    const stream = session.byRequest.get(requestId)
    // without a store the client could not get the rest: keep the stream open
    if (stream === undefined || storeOf(ctx.config, session) === undefined) return Effect.void
    if (stream.json !== undefined && !ctx.config.jsonMode) {
      // still gathering: answer with a stream now, primed, and end its connection at once
      stream.closeOnOpen = true
      stream.json.decided.decide("sse")
      return Effect.void
    }
    return endConnection(stream)
  })

const sseHeaders = (config: Config, session: Session) =>
  Headers.fromInput({
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
    // none without a session: one per request, or a 2026 connection (its engine's id is no session of the client's)
    ...(config.sessionPerRequest || session.era2026 ? {} : { "mcp-session-id": session.id })
  })

/**
 * The body of a connection: the head, then live events. Read as a `Stream` (one pull for the
 * head, then one per batch), or, by the node listener, written as they come (`BodyPull.push`).
 */
const body = (
  ctx: Ctx,
  session: Session,
  stream: SseStream,
  sink: Sink,
  head: ReadonlyArray<string>,
  onEnd: Effect.Effect<void>
): Stream.Stream<Uint8Array> => {
  const bodyPull = new SseBody(ctx, session, stream, sink, head, onEnd)
  // made when read as a stream (never, by the node listener)
  const read: Stream.Stream<Uint8Array> = Stream.suspend(() =>
    Stream.fromPull(Effect.succeed(bodyPull.next)).pipe(Stream.ensuring(bodyPull.release))
  )
  return Object.assign(read, { [BodyPullKey]: bodyPull })
}

/**
 * A connection's reader, as methods: a standing GET keeps it for the life of its session, and
 * its closures were a part of each idle session's heap. `pull` and `release` are made when read.
 */
class SseBody implements BodyPull {
  // a stream of streams would cost a dozen channel executors per open connection, for the
  // life of the connection
  private pending: ReadonlyArray<string> | undefined
  constructor(
    readonly ctx: Ctx,
    readonly session: Session,
    readonly stream: SseStream,
    readonly sink: Sink,
    head: ReadonlyArray<string>,
    readonly onEnd: Effect.Effect<void>
  ) {
    this.pending = head
  }

  /** The next chunk, as the `Stream` reads it (a `Pull`: `Cause.Done` at the end). */
  get next(): Pull.Pull<Arr.NonEmptyReadonlyArray<Uint8Array>> {
    return Effect.suspend(() => {
      const pending = this.pending
      if (pending !== undefined) {
        this.pending = undefined
        return Effect.succeed(Arr.of(encoder.encode(pending.join(""))))
      }
      if (this.sink.finished) return Cause.done()
      return Effect.flatMap(this.sink.takeAll(), ([events, done]): Pull.Pull<Arr.NonEmptyReadonlyArray<Uint8Array>> => {
        let text = ""
        for (const e of events) text += e.text
        if (text !== "") return Effect.succeed(Arr.of(encoder.encode(text)))
        return done ? Cause.done() : this.next
      })
    })
  }

  /** `next` as `DirectBody.pull` gives it: a chunk, `None` at the end. */
  get pull(): Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<never>> {
    return Effect.mapError(Effect.map(this.next, Chunk.fromIterable), () => Option.none())
  }

  get release(): Effect.Effect<void> {
    return Effect.suspend(() => {
      const { ctx, session, stream, sink } = this
      const store = storeOf(ctx.config, session)
      ctx.openSinks.delete(sink)
      if (stream.sink === sink) stream.sink = undefined
      session.lastActivity = ctx.now()
      const finished = sink.finished
      // the connection is gone: a sender waiting on its full buffer goes on (to the backlog).
      // Read to its end, the stream's answers were all written: it stays resumable for the
      // store's grace period
      sink.unsafeShutdown()
      return finished && stream.done && store !== undefined
        ? Effect.andThen(store.delivered(session.id, stream.id), this.onEnd)
        : this.onEnd
    })
  }

  push(writer: Writer): () => void {
    const texts = this.pending
    this.pending = undefined
    const sink = this.sink
    sink.attach(writer, texts === undefined ? "" : texts.join(""))
    return () => sink.drained()
  }
}

/**
 * What a listener writes an SSE body with by hand (`NodeStreamableHttp`, through
 * `StreamableHttpServer.directBody`): running the `Stream` instead keeps several channel executors
 * alive per open connection for its whole life, most of an idle session's heap. `pull` fails
 * with `None` at the end; `release` runs once, however the writing ends. Or, instead of `pull`,
 * `push`: every event is written with the writer as it comes, in its sender's fiber (no fiber
 * waits for the next one); it returns what the listener calls when the response's buffer drained
 * (after a `write` that said it is full), and the listener runs `release` once the response is
 * closed. A consumer that does not know it reads the stream, which does the same.
 */
export interface BodyPull {
  readonly pull: Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<never>>
  readonly release: Effect.Effect<void>
  readonly push: (writer: Writer) => () => void
}

const BodyPullKey: unique symbol = Symbol.for("@effect-mcp/mcp/StreamableHttpServer/bodyPull")

/** The reader an SSE body of this endpoint carries (`StreamableHttpServer.directBody`); undefined for any other stream. */
export const bodyPullOf = (stream: Stream.Stream<Uint8Array, unknown, unknown>): BodyPull | undefined =>
  (stream as { readonly [BodyPullKey]?: BodyPull })[BodyPullKey]

const openSseNow = (
  ctx: Ctx,
  session: Session,
  stream: SseStream,
  replay: ReadonlyArray<Event>,
  onEnd: Effect.Effect<void> = Effect.void,
  resumed = false
): HttpServerResponse.HttpServerResponse => {
  const { config } = ctx
  const previous = stream.sink
  // a POST switching to a streamed answer already has its sink (see `ensureSink`); a resumed
  // stream replaces the connection it had
  const sink: Sink = previous !== undefined && !resumed ? previous : new Sink(config.bufferSize, config.bufferBytes)
  stream.sink = sink
  // resumed here: nothing goes to another instance any more
  stream.forward = undefined
  if (previous !== undefined && previous !== sink) previous.unsafeEnd()
  sink.after = replay.length > 0 ? replay[replay.length - 1]!.seq : 0
  const store = storeOf(config, session)
  const first = store !== undefined ? priming(config, stream.id) : `: stream open\n\n`
  // a resumed stream is not primed again: a second priming id would send the client back to the start
  const head = resumed && store !== undefined
    ? [`: resumed\nretry: ${config.retryMs}\n\n`, ...replay.map((e) => e.text)]
    : [first, ...replay.map((e) => e.text)]
  if (stream.done) sink.unsafeEnd()
  ctx.openSinks.add(sink)
  return HttpServerResponse.stream(body(ctx, session, stream, sink, head, onEnd), {
    contentType: "text/event-stream",
    headers: sseHeaders(config, session)
  })
}
