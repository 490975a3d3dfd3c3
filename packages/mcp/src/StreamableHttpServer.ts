/**
 * The streamable HTTP transport, server side (MCP 2025-11-25), as an
 * `@effect/platform` `HttpApp`: mount it at one path in any Effect HTTP server.
 *
 * - POST carries client messages: notifications and responses only → 202;
 *   requests → an SSE stream that carries everything related to them
 *   (progress, logs, reverse calls through their `HandlerContext`) and ends
 *   after the last response, or JSON when `jsonResponse` is set (a request
 *   whose handler sends a related message is switched to SSE, so nothing is
 *   lost).
 * - GET opens the session's standing stream for messages not related to a
 *   request; GET with `Last-Event-ID` resumes any stream of the session.
 * - DELETE ends the session and interrupts everything it owns.
 * - Sessions: a random `Mcp-Session-Id` issued on initialize, an idle timeout,
 *   a maximum count; or `stateless`, one short-lived session per POST.
 * - With an `EventStore` in context, every SSE event has an id unique in the
 *   session, each stream opens with a priming event (`id` + `retry`), and a
 *   client that lost a stream gets what it missed, once, within the store's
 *   budgets and grace period (see `EventStore`): an answer the store had to
 *   evict comes back as a JSON-RPC error with the request's id; a finished
 *   stream the store no longer holds is answered 410.
 * - DNS-rebinding protection (`Host` and `Origin` allow-lists) on by default
 *   for loopback names.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as HttpRouter from "@effect/platform/HttpRouter"
 * import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
 *
 * const router = Effect.gen(function*() {
 *   const mcp = yield* StreamableHttpServer.make({ jsonResponse: false })
 *   return HttpRouter.empty.pipe(HttpRouter.all("/mcp", mcp.app))
 * })
 * ```
 * @since 0.1.0
 */
import * as Headers from "@effect/platform/Headers"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as EventStore from "./EventStore.js"
import * as JsonRpc from "./JsonRpc.js"
import * as Deadlines from "./internal/deadlines.js"
import * as Once from "./internal/once.js"
import type { PrincipalInfo } from "./internal/auth/principal.js"
import { isPrincipal, McpAuth, type McpAuthShape } from "./internal/auth/service.js"
import * as Lifecycle from "./Lifecycle.js"
import {
  checkOrigin,
  type DnsRebindingProtection,
  type EndpointRequest,
  fromServerRequest,
  isParsed,
  jsonRpcError,
  randomSessionId,
  readJsonBody
} from "./internal/httpServer.js"
import * as MediaType from "./internal/mediaType.js"
import { McpServer } from "./McpServer.js"
import { type Route, type TransportShape, fromMailbox } from "./Transport.js"

/**
 * Options of the endpoint: response mode, sessions, limits, DNS-rebinding
 * protection, SSE timings.
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Answer requests with JSON instead of SSE (default false). */
  readonly jsonResponse?: boolean | undefined
  /** No sessions: every POST is served alone; GET and DELETE are 405 (default false). */
  readonly stateless?: boolean | undefined
  /** Largest accepted POST body (default 4 MiB); larger is 413, answered as soon as the limit is crossed. */
  readonly maxBodyBytes?: number | undefined
  /**
   * Deepest nesting of arrays and objects in a POST body (default
   * `JsonRpc.DEFAULT_MAX_DEPTH`, 1000); deeper is refused with 400 and -32700,
   * in time linear in the body's length, before it is parsed.
   */
  readonly maxJsonDepth?: number | undefined
  /** A session with no open stream and no activity for this long is closed (default 30 minutes). */
  readonly sessionIdleTimeout?: Duration.DurationInput | undefined
  /** Sessions open at once; one more initialize gets 503 (default 10 000). */
  readonly maxSessions?: number | undefined
  /**
   * `Host`/`Origin` allow-lists; a request outside them gets 403. Default:
   * loopback names only (`localhost`, `127.0.0.1`, `[::1]`, any port). `false`
   * turns the check off (behind a reverse proxy that checks instead).
   */
  readonly dnsRebindingProtection?: DnsRebindingProtection
  /** The reconnection delay advised to clients in each stream's priming event (default 1 s). */
  readonly retry?: Duration.DurationInput | undefined
  /** SSE comment sent on quiet streams to keep proxies from closing them (default 15 s). */
  readonly keepAlive?: Duration.DurationInput | undefined
  /** Events buffered per open stream before the sender waits for the reader (default 256). */
  readonly streamBuffer?: number | undefined
  /**
   * SSE mode: a request answered within this long, with nothing related sent
   * before, gets its whole event stream as one body (default 20 ms); later
   * answers stream, headers first.
   */
  readonly sseFastPath?: Duration.DurationInput | undefined
  /**
   * Bearer-token protection (see `McpAuth`); default: the `McpAuth` in
   * context, if any. Runs before anything else reads the request.
   */
  readonly auth?: McpAuthShape | undefined
}

/**
 * What the endpoint reads of an HTTP request: method, URL, headers and body.
 * @since 0.1.0
 * @category models
 */
export type { EndpointRequest }

/**
 * A running endpoint: the `HttpApp` to mount, and its sessions.
 * @since 0.1.0
 * @category models
 */
export interface StreamableHttpServerShape {
  /** The handler of the MCP endpoint. */
  readonly app: HttpApp.Default
  /**
   * The endpoint without `@effect/platform`'s request: what `app` runs, for a
   * listener that reads requests itself (see `NodeStreamableHttp`).
   */
  readonly respond: (request: EndpointRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** Sessions open now (stateless: the POSTs being served, each a session of its own). */
  readonly sessionCount: Effect.Effect<number>
  /** Ends a session as DELETE would. */
  readonly closeSession: (sessionId: string) => Effect.Effect<void>
}

/**
 * A running streamable HTTP endpoint for the `McpServer` in context.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Effect from "effect/Effect"
 *
 * const openSessions = Effect.flatMap(StreamableHttpServer.StreamableHttpServer, (endpoint) => endpoint.sessionCount)
 * ```
 * @since 0.1.0
 * @category tags
 */
export class StreamableHttpServer extends Context.Tag("@effect-mcp/mcp/StreamableHttpServer")<
  StreamableHttpServer,
  StreamableHttpServerShape
>() {}

// ----------------------------------------------------------------------------
// state
// ----------------------------------------------------------------------------

/** One live HTTP SSE response. Events carry their store sequence for de-duplication on resume. */
interface Sink {
  readonly mailbox: Mailbox.Mailbox<{ readonly seq: number; readonly text: string }>
}

/** A logical SSE stream: a POST's or the standing one; it may outlive its HTTP connections. */
interface SseStream {
  readonly id: string
  readonly kind: "post" | "standing"
  sink: Sink | undefined
  /** Requests of this POST still waiting for their response. */
  readonly pending: Set<JsonRpc.RequestId>
  /** Events written while no connection was open (kept only with an event store). */
  readonly backlog: Array<{ readonly seq: number; readonly text: string }>
  /** JSON mode: responses gathered, and how the POST will be answered. */
  json: { readonly responses: Array<JsonRpc.Message>; readonly decided: Once.Once<"json" | "sse", never> } | undefined
  done: boolean
  /** The handler closed the stream (SEP-1699) before it was opened: end the first connection after priming. */
  closeOnOpen: boolean
}

interface Session {
  readonly id: string
  readonly scope: Scope.CloseableScope
  readonly incoming: Mailbox.Mailbox<JsonRpc.Frame>
  readonly streams: Map<string, SseStream>
  readonly byRequest: Map<JsonRpc.RequestId, SseStream>
  standing: SseStream | undefined
  lastActivity: number
  version: string | undefined
  initializeId: JsonRpc.RequestId | undefined
  nextStream: number
  closed: boolean
  /** With `McpAuth`: who created the session (its owner), as of their latest request. */
  principal: PrincipalInfo | undefined
}

const encoder = new TextEncoder()

/** The UTF-8 length of a string, without encoding it. */
const utf8Length = (text: string): number => {
  let length = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) continue
    if (c < 0x800) length += 1
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      // a surrogate pair: 4 bytes for 2 code units
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2
        i++
      } else length += 2
    } else length += 2
  }
  return length
}

/**
 * A complete body kept as text with its length: node writes headers and text
 * in one `write` (an encoded body would be a second buffer, and a copy).
 */
const wholeBody = (text: string, contentType: string, headers: Record<string, string>) =>
  HttpServerResponse.raw(text, {
    contentType,
    contentLength: utf8Length(text),
    headers: headers as Headers.Headers
  })

/**
 * Builds the endpoint for the `McpServer` in context; uses the `EventStore`
 * in context when there is one. Closing the scope ends every session.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as HttpRouter from "@effect/platform/HttpRouter"
 * import * as Effect from "effect/Effect"
 *
 * // the endpoint for the McpServer in context, mounted in a router of your own
 * const router = Effect.gen(function*() {
 *   const mcp = yield* StreamableHttpServer.make({ sessionIdleTimeout: "10 minutes", maxSessions: 1000 })
 *   return HttpRouter.empty.pipe(HttpRouter.all("/mcp", mcp.app))
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = {}
): Effect.Effect<StreamableHttpServerShape, never, McpServer | Scope.Scope> =>
  Effect.gen(function*() {
    const server = yield* McpServer
    // time is the Clock's: the idle sweep and the fast path follow a TestClock
    const clock = yield* Effect.clock
    const now = () => clock.unsafeCurrentTimeMillis()
    const store = Option.getOrUndefined(yield* Effect.serviceOption(EventStore.EventStore))
    const auth = options.auth ?? Option.getOrUndefined(yield* Effect.serviceOption(McpAuth))
    const sessions = new Map<string, Session>()
    /** Every session not closed yet, stateless ones included. */
    const open = new Set<Session>()
    const jsonMode = options.jsonResponse === true
    const stateless = options.stateless === true
    const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024
    const maxDepth = options.maxJsonDepth ?? JsonRpc.DEFAULT_MAX_DEPTH
    const idleMs = Duration.toMillis(options.sessionIdleTimeout ?? Duration.minutes(30))
    const maxSessions = options.maxSessions ?? 10_000
    const retryMs = Math.round(Duration.toMillis(options.retry ?? Duration.seconds(1)))
    const keepAlive = Duration.decode(options.keepAlive ?? Duration.seconds(15))
    const bufferSize = options.streamBuffer ?? 256
    const sseFastPath = Duration.toMillis(options.sseFastPath ?? Duration.millis(20))
    // the fast path's deadlines: one sleeping fiber for every POST waiting, not a timer each
    const fastPath = Deadlines.make(clock, Runtime.runFork(yield* Effect.runtime<never>()))
    yield* Effect.addFinalizer(() => fastPath.stop)
    const protection = options.dnsRebindingProtection

    // ------------------------------------------------------------------------
    // writing events
    // ------------------------------------------------------------------------

    const eventText = (id: string | undefined, data: string) =>
      id === undefined ? `event: message\ndata: ${data}\n\n` : `id: ${id}\nevent: message\ndata: ${data}\n\n`

    /** The request a message answers: the store leaves a JSON-RPC error in its place if it must evict it. */
    const answerOf = (message: JsonRpc.Message): JsonRpc.RequestId | undefined =>
      JsonRpc.isResponse(message) && message.id !== null ? message.id : undefined

    /** Stores one event; its id and sequence. */
    const storeEvent = (store: EventStore.EventStoreShape, session: Session, stream: SseStream, message: JsonRpc.Message, data: string) =>
      Effect.map(store.append(session.id, stream.id, data, answerOf(message)), (id) => ({
        id,
        seq: Option.match(EventStore.parseEventId(id), { onNone: () => 0, onSome: (p) => p.seq })
      }))

    /** Writes one message to a logical stream: stored first, then to the open connection or the backlog. */
    const deliver = (session: Session, stream: SseStream, message: JsonRpc.Message): Effect.Effect<void> =>
      Effect.gen(function*() {
        const data = JSON.stringify(message)
        let seq = 0
        let id: string | undefined
        if (store !== undefined) {
          const stored = yield* storeEvent(store, session, stream, message, data)
          id = stored.id
          seq = stored.seq
        }
        const event = { seq, text: eventText(id, data) }
        const sink = stream.sink
        if (sink !== undefined) {
          const open = yield* sink.mailbox.offer(event)
          if (open) return
        }
        // no connection now: keep it for the next one (bounded; the store, if any, keeps it too)
        if (!stream.done && (store !== undefined || stream.kind === "post")) {
          stream.backlog.push(event)
          if (stream.backlog.length > bufferSize * 4) stream.backlog.shift()
        }
      })

    const finish = (session: Session, stream: SseStream) =>
      Effect.suspend(() => {
        stream.done = true
        session.streams.delete(stream.id)
        const sink = stream.sink
        stream.sink = undefined
        return sink === undefined ? Effect.void : Effect.asVoid(sink.mailbox.end)
      })

    /**
     * A request of `stream` is over: with its answer, or without one (cancelled). Its route goes,
     * and the stream ends (or its POST is answered) once nothing else waits on it.
     */
    const settle = (
      session: Session,
      stream: SseStream,
      id: JsonRpc.RequestId,
      answer: JsonRpc.Message | undefined
    ): Effect.Effect<void> => {
      session.byRequest.delete(id)
      stream.pending.delete(id)
      if (stream.json !== undefined) {
        if (answer !== undefined) stream.json.responses.push(answer)
        if (stream.pending.size === 0) stream.json.decided.complete(Exit.succeed("json"))
        return Effect.void
      }
      const last = stream.pending.size === 0 ? finish(session, stream) : Effect.void
      return answer === undefined ? last : Effect.zipRight(deliver(session, stream, answer), last)
    }

    /** Routes a server message of a session to the stream it belongs to. */
    const route = (session: Session, message: JsonRpc.Message, target: Route | undefined): Effect.Effect<void> => {
      if (JsonRpc.isResponse(message)) {
        const id = message.id
        if (id === null) return Effect.void
        if (id === session.initializeId && "result" in message) {
          const v = message.result.protocolVersion
          if (typeof v === "string") session.version = v
        }
        const stream = session.byRequest.get(id)
        if (stream === undefined) return Effect.logDebug("a response for a request no stream waits for")
        return settle(session, stream, id, message)
      }
      const related = target?.relatedRequestId
      const stream = related === undefined ? undefined : session.byRequest.get(related)
      if (stream !== undefined) {
        if (stream.json !== undefined) {
          // a handler that talks before answering: its POST is answered with a stream, whose
          // bounded sink exists from now on, so the handler waits for the reader instead of
          // anything being buffered without bound or dropped
          stream.json.decided.complete(Exit.succeed("sse"))
          return ensureSink(stream).pipe(
            Effect.zipRight(Effect.suspend(() => deliver(session, stream, message)))
          )
        }
        return deliver(session, stream, message)
      }
      if (session.standing === undefined) {
        if (store === undefined) return Effect.logDebug("no standing stream for a session message; dropped")
        session.standing = newStream(session, "standing")
      }
      return deliver(session, session.standing, message)
    }

    const ensureSink = (stream: SseStream): Effect.Effect<void> =>
      stream.sink !== undefined
        ? Effect.void
        : Effect.map(Mailbox.make<{ readonly seq: number; readonly text: string }>({ capacity: bufferSize }), (mailbox) => {
          if (stream.sink === undefined) stream.sink = { mailbox }
        })

    const newStream = (session: Session, kind: "post" | "standing"): SseStream => {
      const stream: SseStream = {
        id: `${session.id}-${session.nextStream++}`,
        kind,
        sink: undefined,
        pending: new Set(),
        backlog: [],
        json: undefined,
        done: false,
        closeOnOpen: false
      }
      session.streams.set(stream.id, stream)
      return stream
    }

    // ------------------------------------------------------------------------
    // sessions
    // ------------------------------------------------------------------------

    const closeSession = (session: Session): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (session.closed) return Effect.void
        session.closed = true
        sessions.delete(session.id)
        const streams = Array.from(session.streams.values())
        session.streams.clear()
        session.byRequest.clear()
        return Effect.forEach(
          streams,
          (s) => s.sink === undefined ? Effect.void : Effect.asVoid(s.sink.mailbox.end),
          { discard: true }
        ).pipe(
          // the session's events go at once: nothing can resume them any more
          Effect.zipRight(store === undefined ? Effect.void : store.dropSession(session.id)),
          Effect.zipRight(session.incoming.end),
          Effect.zipRight(Effect.suspend(() => {
            open.delete(session)
            return Scope.close(session.scope, Exit.void)
          }))
        )
      })

    const openSession = (id: string): Effect.Effect<Session> =>
      Effect.gen(function*() {
        const incoming = yield* Mailbox.make<JsonRpc.Frame>()
        // the session's own scope, closed by `closeSession`: its engine and whatever it started
        const scope = yield* Scope.make()
        const session: Session = {
          id,
          scope,
          incoming,
          streams: new Map(),
          byRequest: new Map(),
          standing: undefined,
          lastActivity: now(),
          version: undefined,
          initializeId: undefined,
          nextStream: 1,
          closed: false,
          principal: undefined
        }
        const transport: TransportShape = {
          ...fromMailbox(incoming),
          send: (message, target) =>
            Array.isArray(message)
              ? Effect.forEach(message, (m) => route(session, m, target), { discard: true })
              : route(session, message as JsonRpc.Message, target),
          info: { sessionId: stateless ? undefined : id, principal: () => session.principal },
          closeRequestStream: (requestId) =>
            Effect.suspend(() => {
              const stream = session.byRequest.get(requestId)
              // without a store the client could not get the rest: keep the stream open
              if (stream === undefined || store === undefined) return Effect.void
              if (stream.json !== undefined && !jsonMode) {
                // still gathering: answer with a stream now, primed, and end its connection at once
                stream.closeOnOpen = true
                stream.json.decided.complete(Exit.succeed("sse"))
                return Effect.void
              }
              if (stream.sink === undefined) return Effect.void
              const sink = stream.sink
              stream.sink = undefined
              return Effect.asVoid(sink.mailbox.end)
            }),
          requestEnded: (requestId) =>
            Effect.suspend(() => {
              const stream = session.byRequest.get(requestId)
              return stream === undefined ? Effect.void : settle(session, stream, requestId, undefined)
            })
        }
        if (!stateless) sessions.set(id, session)
        open.add(session)
        const connection = yield* server.connect(transport).pipe(Scope.extend(scope))
        // a connection that ends by itself (keep-alive gave up) ends its session; only then is a
        // fiber needed to notice
        if (server.options.keepAlive !== undefined) {
          yield* Effect.forkIn(Effect.zipRight(connection.closed, closeSession(session)), scope)
        }
        return session
      })

    // idle sessions: no open stream, nothing pending, no request for `idleMs`
    if (Number.isFinite(idleMs)) {
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.sleep(Duration.millis(Math.max(10, Math.min(idleMs / 2, 60_000)))).pipe(
            Effect.zipRight(Effect.suspend(() => {
              const at = now()
              // stateless sessions too: one whose POST never got to answer is not kept past this
              const idle = Array.from(open).filter((s) =>
                at - s.lastActivity >= idleMs && s.byRequest.size === 0 &&
                Array.from(s.streams.values()).every((st) => st.sink === undefined)
              )
              return Effect.forEach(idle, closeSession, { discard: true })
            }))
          )
        )
      )
    }
    yield* Effect.addFinalizer(() => Effect.forEach(Array.from(open), closeSession, { discard: true }))

    // one timer for every open stream: a comment on each keeps proxies from closing quiet streams
    const openSinks = new Set<Sink>()
    const keepAliveEvent = { seq: 0, text: ": keep-alive\n\n" }
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.sleep(keepAlive).pipe(
          Effect.zipRight(Effect.sync(() => {
            // a full buffer already has something to say: skip it rather than wait
            for (const sink of openSinks) sink.mailbox.unsafeOffer(keepAliveEvent)
          }))
        )
      )
    )

    // ------------------------------------------------------------------------
    // SSE responses
    // ------------------------------------------------------------------------

    const sseHeaders = (session: Session | undefined) =>
      Headers.fromInput({
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        ...(session !== undefined && !stateless ? { "mcp-session-id": session.id } : {})
      })

    /**
     * Opens a connection for a logical stream: the priming event (or a comment
     * that flushes the headers), `replay`, then live events not already replayed.
     */
    const openSse = (
      session: Session,
      stream: SseStream,
      replay: ReadonlyArray<{ readonly seq: number; readonly text: string }>,
      onEnd: Effect.Effect<void> = Effect.void,
      resumed = false
    ): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
      Effect.gen(function*() {
        const previous = stream.sink
        // a POST switching to a streamed answer already has its sink (see `ensureSink`); a resumed
        // stream replaces the connection it had
        const sink: Sink = previous !== undefined && !resumed
          ? previous
          : { mailbox: yield* Mailbox.make<{ readonly seq: number; readonly text: string }>({ capacity: bufferSize }) }
        const mailbox = sink.mailbox
        stream.sink = sink
        if (previous !== undefined && previous !== sink) yield* previous.mailbox.end
        const lastReplayed = replay.length > 0 ? replay[replay.length - 1]!.seq : 0
        const first = store !== undefined
          ? `id: ${EventStore.primingId(stream.id)}\nretry: ${retryMs}\ndata: \n\n`
          : `: stream open\n\n`
        // a resumed stream is not primed again: a second priming id would send the client back to the start
        const head = resumed && store !== undefined
          ? [`: resumed\nretry: ${retryMs}\n\n`, ...replay.map((e) => e.text)]
          : [first, ...replay.map((e) => e.text)]
        if (stream.done) yield* mailbox.end
        openSinks.add(sink)
        // one pull for the head, then one per batch of live events: a stream of streams would
        // cost a dozen channel executors per open connection, for the life of the connection
        let pending: ReadonlyArray<string> | undefined = head
        let finished = false
        const pull: Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<never>> = Effect.suspend(() => {
          if (pending !== undefined) {
            const texts = pending
            pending = undefined
            return Effect.succeed(Chunk.of(encoder.encode(texts.join(""))))
          }
          if (finished) return Effect.fail(Option.none())
          return Effect.flatMap(mailbox.takeAll, ([events, done]) => {
            let text = ""
            for (const e of events) if (e.seq === 0 || e.seq > lastReplayed) text += e.text
            if (done) finished = true
            if (text !== "") return Effect.succeed(Chunk.of(encoder.encode(text)))
            return done ? Effect.fail(Option.none()) : pull
          })
        })
        const body = Stream.repeatEffectChunkOption(pull).pipe(
          Stream.ensuring(Effect.suspend(() => {
            openSinks.delete(sink)
            if (stream.sink === sink) stream.sink = undefined
            session.lastActivity = now()
            // the connection is gone: a sender waiting on its full buffer goes on (to the backlog).
            // Read to its end, the stream's answers were all written: it stays resumable for the
            // store's grace period
            return Effect.zipRight(
              sink.mailbox.shutdown,
              finished && stream.done && store !== undefined
                ? Effect.zipRight(store.delivered(session.id, stream.id), onEnd)
                : onEnd
            )
          }))
        )
        return HttpServerResponse.stream(body, { contentType: "text/event-stream", headers: sseHeaders(session) })
      })

    // ------------------------------------------------------------------------
    // the endpoint
    // ------------------------------------------------------------------------

    const checkVersion = (headers: Headers.Headers): HttpServerResponse.HttpServerResponse | undefined => {
      const version = headers["mcp-protocol-version"]
      if (version === undefined || Lifecycle.isSupported(version)) return undefined
      return jsonRpcError(
        400,
        JsonRpc.ErrorCode.InvalidRequest,
        `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${Lifecycle.SUPPORTED_VERSIONS.join(", ")})`
      )
    }

    const accepts = (headers: Headers.Headers, type: string) => MediaType.accepts(headers["accept"], type)

    const findSession = (
      headers: Headers.Headers,
      principal: PrincipalInfo | undefined
    ): Session | HttpServerResponse.HttpServerResponse => {
      const id = headers["mcp-session-id"]
      if (id === undefined) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required")
      const session = sessions.get(id)
      // another principal's session is not theirs to know of
      if (session === undefined || (auth !== undefined && !auth.sameOwner(session.principal, principal))) {
        return jsonRpcError(404, -32001, "Session not found")
      }
      return session
    }
    const isResponse = (u: Session | HttpServerResponse.HttpServerResponse): u is HttpServerResponse.HttpServerResponse =>
      !("incoming" in u)

    const post = (request: EndpointRequest, principal: PrincipalInfo | undefined) =>
      Effect.gen(function*() {
        const headers = request.headers
        if (!MediaType.isJson(headers["content-type"])) {
          return jsonRpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json")
        }
        if (!accepts(headers, "application/json") || (!jsonMode && !accepts(headers, "text/event-stream"))) {
          return jsonRpcError(406, -32000, "Not Acceptable: Accept must include application/json and text/event-stream")
        }
        const read = yield* readJsonBody(request, maxBody, maxDepth)
        if (!isParsed(read)) return read
        const parsed = read.json
        const isBatch = Array.isArray(parsed)
        if (isBatch && (parsed as Array<unknown>).length === 0) {
          return jsonRpcError(400, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: empty batch")
        }
        const messages = (isBatch ? (parsed as Array<unknown>) : [parsed]).map(JsonRpc.decodeMessage)
        if (!isBatch && JsonRpc.isInvalid(messages[0]!)) {
          const invalid = messages[0] as JsonRpc.Invalid
          return jsonRpcError(400, invalid.error.code, invalid.error.message, invalid.id)
        }
        const initialize = messages.find((m): m is JsonRpc.Request => JsonRpc.isRequest(m) && m.method === "initialize")

        // with `McpAuth`: the 403 for scopes the token lacks, answered before anything runs (after
        // the 404 of a session that is not the principal's)
        const denied = auth === undefined || principal === undefined
          ? undefined
          : yield* auth.authorize(principal, messages.filter(JsonRpc.isRequest), server.requiredScopes)

        let session: Session
        if (stateless) {
          if (denied !== undefined) return denied
          // however this POST ends (its client may hang up at any point, interrupting it), its
          // session ends with it; a streamed answer hands that to the end of its stream
          const own = yield* openSession(randomSessionId())
          own.principal = principal
          return yield* answer(own, messages, isBatch).pipe(
            Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : closeSession(own))
          )
        } else if (initialize !== undefined) {
          if (headers["mcp-session-id"] !== undefined) {
            return jsonRpcError(400, JsonRpc.ErrorCode.InvalidRequest, "Bad Request: the session is already initialized")
          }
          if (isBatch) {
            return jsonRpcError(400, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: initialize must not be part of a batch")
          }
          if (denied !== undefined) return denied
          if (sessions.size >= maxSessions) {
            return jsonRpcError(503, -32000, "Service Unavailable: too many sessions")
          }
          session = yield* openSession(randomSessionId())
          session.initializeId = initialize.id
        } else {
          const versionError = checkVersion(headers)
          if (versionError !== undefined) return versionError
          const found = findSession(headers, principal)
          if (isResponse(found)) return found
          session = found
        }
        if (denied !== undefined) return denied
        // the owner's latest token: what handlers see as `Principal`
        session.principal = principal
        return yield* answer(session, messages, isBatch)
      })

    /** Serves the messages of one POST in its session: 202, or their answers as JSON or SSE. */
    const answer = (session: Session, messages: ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>, isBatch: boolean) =>
      Effect.gen(function*() {
        session.lastActivity = now()
        if (isBatch && !Lifecycle.allowsBatches(session.version)) {
          if (stateless) yield* closeSession(session)
          return jsonRpcError(
            400,
            JsonRpc.ErrorCode.InvalidRequest,
            "Invalid Request: JSON-RPC batches are not supported by the negotiated protocol version"
          )
        }

        const requests: Array<JsonRpc.Request> = []
        // an id already in flight in the session, or twice in this batch, is refused here, on this
        // POST: routing it would take the first request's route, and its answer with it
        const duplicates: Array<JsonRpc.Request> = []
        for (const m of messages) {
          if (!JsonRpc.isRequest(m)) continue
          if (session.byRequest.has(m.id) || requests.some((r) => r.id === m.id)) duplicates.push(m)
          else requests.push(m)
        }
        const invalids = messages.filter((m): m is JsonRpc.Invalid => JsonRpc.isInvalid(m) && m.respond)
        if (requests.length === 0 && invalids.length === 0 && duplicates.length === 0) {
          for (const m of messages) session.incoming.unsafeOffer(m)
          if (stateless) yield* closeSession(session)
          return HttpServerResponse.empty({ status: 202 })
        }

        const stream = newStream(session, "post")
        for (const r of requests) {
          session.byRequest.set(r.id, stream)
          stream.pending.add(r.id)
        }
        const done = stateless ? closeSession(session) : Effect.void
        // Gather the answers first. JSON mode answers with them; SSE mode answers with one
        // complete event-stream body when they come within `sseFastPath` (most calls), which
        // costs a fraction of a streamed response. A handler that sends a related message
        // first, or takes longer, gets a streamed answer: the headers go out at once.
        const decided = Once.make<"json" | "sse", never>()
        stream.json = { responses: [], decided }
        for (const invalid of invalids) stream.json.responses.push(JsonRpc.failure(invalid.id, invalid.error))
        for (const duplicate of duplicates) {
          stream.json.responses.push(JsonRpc.failure(duplicate.id, {
            code: JsonRpc.ErrorCode.InvalidRequest,
            message: "Invalid Request: a request with this id is already in progress"
          }))
        }
        if (requests.length === 0) decided.complete(Exit.succeed("json"))
        // the session's mailbox is unbounded: an offer never waits
        for (const m of messages) {
          if (!JsonRpc.isInvalid(m) && !(duplicates.length > 0 && duplicates.includes(m as JsonRpc.Request))) {
            session.incoming.unsafeOffer(m)
          }
        }
        let timer: Deadlines.Entry | undefined
        if (!jsonMode && !decided.isDone()) {
          const deadline = fastPath.now() + sseFastPath
          timer = { deadline: () => deadline, expire: () => decided.complete(Exit.succeed("sse")) }
          fastPath.add(timer)
        }
        const how = yield* decided.await
        if (timer !== undefined) fastPath.remove(timer)
        const gathered = stream.json.responses
        stream.json = undefined
        if (how === "json") {
          session.streams.delete(stream.id)
          yield* done
          const sessionHeader = stateless ? {} : { "mcp-session-id": session.id }
          // every request was cancelled: nothing to say
          if (gathered.length === 0 && jsonMode) return HttpServerResponse.empty({ status: 202, headers: Headers.fromInput(sessionHeader) })
          if (jsonMode) return wholeBody(JSON.stringify(isBatch ? gathered : gathered[0]), "application/json", sessionHeader)
          let body = store !== undefined ? `id: ${EventStore.primingId(stream.id)}\nretry: ${retryMs}\ndata: \n\n` : ""
          for (const m of gathered) {
            const data = JSON.stringify(m)
            body += eventText(store === undefined ? undefined : yield* store.append(session.id, stream.id, data, answerOf(m)), data)
          }
          // handed to the connection whole: delivered, resumable for the store's grace period
          if (store !== undefined) yield* store.delivered(session.id, stream.id)
          return wholeBody(body, "text/event-stream", { "cache-control": "no-cache, no-transform", ...sessionHeader })
        }
        // streamed: the related messages sent so far, then what was gathered
        const response = yield* openSse(session, stream, stream.backlog.splice(0, stream.backlog.length), done)
        yield* Effect.forEach(gathered, (m) => deliver(session, stream, m), { discard: true })
        if (stream.pending.size === 0) yield* finish(session, stream)
        else if (stream.closeOnOpen && stream.sink !== undefined) {
          const sink = stream.sink
          stream.sink = undefined
          yield* sink.mailbox.end
        }
        return response
      })

    const get = (request: EndpointRequest, principal: PrincipalInfo | undefined) =>
      Effect.gen(function*() {
        const headers = request.headers
        if (stateless) return jsonRpcError(405, -32000, "Method Not Allowed: stateless server", null, { allow: "POST" })
        if (!accepts(headers, "text/event-stream")) {
          return jsonRpcError(406, -32000, "Not Acceptable: Accept must include text/event-stream")
        }
        const versionError = checkVersion(headers)
        if (versionError !== undefined) return versionError
        const found = findSession(headers, principal)
        if (isResponse(found)) return found
        const session = found
        session.lastActivity = now()
        const lastEventId = headers["last-event-id"]
        if (lastEventId !== undefined && store !== undefined) {
          const parsed = EventStore.parseEventId(lastEventId)
          if (Option.isNone(parsed) || !parsed.value.streamId.startsWith(`${session.id}-`)) {
            return jsonRpcError(404, -32000, "Not Found: unknown Last-Event-ID for this session")
          }
          const streamId = parsed.value.streamId
          const active = session.streams.get(streamId)
          const replay = yield* store.replayAfter(session.id, lastEventId)
          // a finished stream the store no longer holds in full: say so rather than end it silently
          // (a response the store evicted has a stand-in, a JSON-RPC error with its id, in its place)
          if (active === undefined && (Option.isNone(replay) || !replay.value.complete)) {
            return jsonRpcError(410, -32000, "Gone: the events after this Last-Event-ID are no longer held")
          }
          const events = Option.isSome(replay) ? replay.value.events : []
          const replayed = events.map((e) => ({
            seq: Option.match(EventStore.parseEventId(e.id), { onNone: () => 0, onSome: (p) => p.seq }),
            text: eventText(e.id, e.data)
          }))
          if (active !== undefined) {
            // the store has everything the backlog has, in order
            active.backlog.length = 0
            return yield* openSse(session, active, replayed, Effect.void, true)
          }
          // a finished stream: what it missed, then the end
          const finished: SseStream = {
            id: streamId,
            kind: "post",
            sink: undefined,
            pending: new Set(),
            backlog: [],
            json: undefined,
            done: true,
            closeOnOpen: false
          }
          return yield* openSse(session, finished, replayed, Effect.void, true)
        }
        if (session.standing !== undefined && session.standing.sink !== undefined) {
          return jsonRpcError(409, -32000, "Conflict: only one standing SSE stream is allowed per session")
        }
        const standing = session.standing ?? newStream(session, "standing")
        session.standing = standing
        const backlog = standing.backlog.splice(0, standing.backlog.length)
        return yield* openSse(session, standing, backlog)
      })

    const del = (request: EndpointRequest, principal: PrincipalInfo | undefined) =>
      Effect.gen(function*() {
        if (stateless) return jsonRpcError(405, -32000, "Method Not Allowed: stateless server", null, { allow: "POST" })
        const found = findSession(request.headers, principal)
        if (isResponse(found)) return found
        yield* closeSession(found)
        return HttpServerResponse.empty({ status: 200 })
      })

    const respond = (request: EndpointRequest): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
      const rejected = checkOrigin(protection, request.headers)
      if (rejected !== undefined) return Effect.succeed(rejected)
      if (auth === undefined) return byMethod(request, undefined)
      return Effect.flatMap(
        auth.authenticate(request.headers),
        (checked) => isPrincipal(checked) ? byMethod(request, checked) : Effect.succeed(checked)
      )
    }

    const byMethod = (
      request: EndpointRequest,
      principal: PrincipalInfo | undefined
    ): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
      switch (request.method) {
        case "POST":
          return post(request, principal)
        case "GET":
          return get(request, principal)
        case "DELETE":
          return del(request, principal)
        default:
          return Effect.succeed(
            jsonRpcError(405, -32000, "Method Not Allowed", null, {
              allow: stateless ? "POST" : "GET, POST, DELETE"
            })
          )
      }
    }

    // bodies past the limit are drained here, after the 413 (see `fromServerRequest`)
    const serverScope = yield* Effect.scope
    return {
      app: Effect.flatMap(
        HttpServerRequest.HttpServerRequest,
        (request) => respond(fromServerRequest(request, maxBody, serverScope))
      ),
      respond,
      sessionCount: Effect.sync(() => (stateless ? open.size : sessions.size)),
      closeSession: (id) => Effect.suspend(() => {
        const session = sessions.get(id)
        return session === undefined ? Effect.void : closeSession(session)
      })
    } satisfies StreamableHttpServerShape
  })

/**
 * The endpoint as a Layer over the `McpServer` (and optional `EventStore`) in context.
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<StreamableHttpServer, never, McpServer> =>
  Layer.scoped(StreamableHttpServer, make(options))
