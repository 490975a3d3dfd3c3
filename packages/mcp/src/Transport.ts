/**
 * The seam between the protocol engine and the wire. A transport is a
 * service with one way in and one way out: `run`, which the engine calls once
 * with a {@link Receiver} that the transport hands every read to, and `send`.
 * It is provided by a Layer (stdio, streamable HTTP, legacy SSE, in-memory),
 * and the engine never knows which one it runs on. `fromPull`, `fromFeed`,
 * `fromMailbox` (over a `Queue`) and `fromStream` make `run` from what a transport reads with;
 * `incoming` reads any transport as a `Stream`; `tap` wraps one (a wire log).
 *
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const pair = yield* Transport.makeMemoryPair()
 *   // provide pair.server to a server, pair.client to a client
 * })
 * ```
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { PrincipalInfo } from "./internal/auth/principal.js"
import { fed, type Pull, pulled } from "./internal/reading.js"
import * as JsonRpc from "./JsonRpc.js"
import { TransportError } from "./McpError.js"
import type { SessionStateAccess } from "./SessionStore.js"

/**
 * Where an outgoing message belongs. On streamable HTTP a server message that
 * relates to a forward request travels on that request's stream; others go to
 * the session's standing stream. stdio and in-memory ignore it.
 * @since 0.1.0
 * @category models
 */
export interface Route {
  readonly relatedRequestId?: JsonRpc.RequestId | undefined
  /**
   * Extra HTTP headers for this message (the `Mcp-Param-*` headers of a 2026
   * `tools/call`); the streamable HTTP client adds them to its POST, other
   * transports ignore them.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * What the transport knows of the session it carries.
 * @since 0.1.0
 * @category models
 */
export interface TransportInfo {
  /** `Mcp-Session-Id` on HTTP; undefined on stdio and in-memory. */
  readonly sessionId?: string | undefined
  /** The protocol version fixed by the transport (the HTTP header), when it has one. */
  readonly protocolVersion?: string | undefined
  /** With `McpAuth`: the authenticated principal of the session's latest request (handlers get it as `Principal`). */
  readonly principal?: (() => PrincipalInfo | undefined) | undefined
  /**
   * The protocol era the transport fixed, if it did: `"2026"` for the streamable HTTP server's
   * stateless 2026-07-28 requests (then a request without an envelope is a bad 2026 request,
   * not a 2025 one). Elsewhere the first request decides.
   */
  readonly era?: "2025" | "2026" | undefined
  /**
   * Prefix of the ids of the requests this side sends (a server's reverse
   * calls): with a `SessionStore`, the instance that waits for the answer,
   * so that an answer arriving on another instance reaches it.
   */
  readonly requestIdPrefix?: string | undefined
  /** The HTTP headers of the request this transport carries, when it carries one (a 2026 POST), names in lower case. */
  readonly headers?: { readonly [name: string]: string } | undefined
  /**
   * What the spans of the session's requests say of the network, as OpenTelemetry names it:
   * `network.transport` (`pipe` for stdio, `tcp` for HTTP), `network.protocol.name`,
   * `server.address` and `server.port` (a client's).
   */
  readonly attributes?: { readonly [key: string]: string | number } | undefined
}

/**
 * Where a transport hands what it reads: the engine's side of the seam, given
 * once to {@link TransportShape.run}. Its members are called as its methods
 * (`receiver.frames(read)`: the engine's receiver is a class instance).
 *
 * @since 0.1.0
 * @category models
 */
export interface Receiver {
  /**
   * One read's frames, in arrival order. Does at once what can be done at
   * once (a response settles its call, a request's handler is forked, a
   * request answered as it was made is sent by `sendNow`) and returns what is
   * left to run (a notification's handler, a reply), or undefined when nothing
   * is. The back-pressure: the transport runs that effect to its end before it
   * hands over the next read (buffering, or reading no more, meanwhile). May be
   * called outside any fiber (a Node stream's callback); one read at a time.
   */
  readonly frames: (frames: ReadonlyArray<JsonRpc.Frame>) => Effect.Effect<void> | undefined
  /**
   * The input ended: `None` when the peer closed, the error when the transport
   * failed; after every read handed before it. Told by a transport whose
   * `run` gave no effect (one that did ends or fails that effect instead).
   */
  readonly end: (error: Option.Option<TransportError>) => Effect.Effect<void>
}

/**
 * A transport: `run` reads (the engine calls it once), `send` writes, and the
 * optional members say what else the transport can do. Write one from this
 * type alone, or make `run` with {@link fromPull}, {@link fromFeed},
 * {@link fromMailbox} or {@link fromStream}.
 *
 * @since 0.1.0
 * @category models
 * @example
 * ```ts
 * import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 * import type * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 * import * as Queue from "effect/Queue"
 *
 * // frames in from a queue, messages out to a callback; the engine reads until the fiber is interrupted
 * const fromQueue = (
 *   frames: Queue.Dequeue<JsonRpc.Frame>,
 *   write: (message: JsonRpc.Outgoing) => void
 * ): Transport.TransportShape => ({
 *   run: (receiver) =>
 *     Effect.forever(Effect.flatMap(
 *       Queue.takeBetween(frames, 1, Number.POSITIVE_INFINITY),
 *       // what a read leaves to run is run before the next read is taken
 *       (read) => receiver.frames(read) ?? Effect.void
 *     )),
 *   send: (message) => Effect.sync(() => write(message))
 * })
 * ```
 */
export interface TransportShape {
  /**
   * The one way the engine reads: called once, with the receiver every read
   * goes to from then on. Returns the effect that reads, which the engine runs
   * in a fiber of its own (interrupted when the engine closes): it succeeds
   * when the peer closed and fails with the transport's failure. A transport
   * that hands its reads over from fibers or callbacks of its own (an HTTP
   * server session's POSTs) returns undefined and tells `receiver.end` when
   * its input ends: the engine then keeps no fiber for reading.
   */
  readonly run: (receiver: Receiver) => Effect.Effect<void, TransportError> | undefined
  /** Writes a message or a batch of responses. */
  readonly send: (message: JsonRpc.Outgoing, route?: Route) => Effect.Effect<void, TransportError>
  /**
   * A declared fast path of `send`, for a transport that knows at once
   * whether a message went (a stdio line queued for this tick's write, a
   * response its POST gathers): undefined when it did, else the effect to
   * wait for (room in the pipe, a failure). `sendNow(m) ?? Effect.void` does
   * what `send(m)` does. With it the engine sends its requests by it (one
   * effect per call less), and a server answers a request whose handler
   * answered at once by it, in the read's callback, outside any fiber;
   * without it, both go by `send`.
   */
  readonly sendNow?: ((message: JsonRpc.Outgoing, route?: Route) => Effect.Effect<void, TransportError> | undefined) | undefined
  readonly info?: TransportInfo | undefined
  /**
   * Ends the stream that carries a forward request's messages without ending
   * the request, so that the client reconnects and polls (SEP-1699). Only
   * streamable HTTP has such streams; elsewhere it is absent.
   */
  readonly closeRequestStream?: ((requestId: JsonRpc.RequestId) => Effect.Effect<void>) | undefined
  /**
   * Told by the engine that a forward request ended without an answer (it was
   * cancelled): nothing will be sent for it, so a transport that routes
   * answers (streamable HTTP) drops the request's route and ends its stream
   * if nothing else waits on it. Elsewhere it is absent.
   */
  readonly requestEnded?: ((requestId: JsonRpc.RequestId) => Effect.Effect<void>) | undefined
  /**
   * Told by the engine the protocol version `initialize` negotiated (streamable
   * HTTP sends it back as `MCP-Protocol-Version`). Elsewhere it is absent.
   */
  readonly negotiated?: ((protocolVersion: string) => void) | undefined
  /**
   * A transport whose server may forget the session (streamable HTTP, legacy
   * SSE) says so here; the engine then re-initializes (see {@link SessionLoss}).
   * Absent elsewhere, and when re-initialization is disabled.
   */
  readonly sessionLoss?: SessionLoss | undefined
  /**
   * Given by a server's engine the access to its session's state (version,
   * client, log level, subscriptions), for a transport that shares sessions
   * between instances (streamable HTTP with a `SessionStore`). Elsewhere it
   * is absent.
   */
  readonly sessionState?: ((access: SessionStateAccess) => void) | undefined
}

/**
 * How a transport reports that the server forgot the session. The transport
 * keeps carrying messages: a message the server refused for it fails with a
 * `TransportError` of reason `SessionLost` (it was not processed), and
 * `initialize` sent while the session is lost starts a new session, which
 * the transport adopts. The engine owns the rest: it initializes again (once
 * per loss, however many calls saw it), checks that the protocol version is
 * unchanged, sends `notifications/initialized`, and retries the failed call once.
 *
 * @since 0.1.0
 * @category models
 * @example
 * ```ts
 * import type * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Queue from "effect/Queue"
 * import * as Stream from "effect/Stream"
 *
 * // a transport that noticed the loss outside any call offers to `losses`
 * const sessionLoss = (lost: () => boolean, losses: Queue.Queue<void>): Transport.SessionLoss => ({
 *   isLost: lost,
 *   losses: Stream.fromQueue(losses)
 * })
 * ```
 */
export interface SessionLoss {
  /** Whether the session is lost and no new one is initialized yet. */
  readonly isLost: () => boolean
  /** A loss noticed outside any call (the standing stream's 404, a new legacy connection). */
  readonly losses: Stream.Stream<void>
}

/**
 * `run` from an effect that reads what arrived since the last read (waiting
 * while nothing did) and fails with `None` once the peer closed: the way to
 * build a transport on a reader of one's own (`NdJson.makeReader`'s `pull`,
 * say). Each read is handed to the receiver, and what it leaves runs before
 * the next read.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 * import * as Option from "effect/Option"
 *
 * // a reader that has nothing and ends at once
 * const { run } = Transport.fromPull(Effect.fail(Option.none()))
 * ```
 */
export const fromPull = (
  pull: Effect.Effect<ReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>>
): Pick<TransportShape, "run"> => ({ run: (receiver) => pulled(pull, receiver) })

/**
 * Where a source that reads in callbacks (a Node stream's `'data'` events)
 * hands its frames, outside any fiber (see {@link fromFeed}). `frames` does
 * what it can at once (a response settles its call there: no fiber is woken)
 * and leaves the rest to the reading fiber, in order; it returns false while
 * that fiber has a backlog, and the source then stops reading until its
 * `FeedControl.resume` is called. `end` is given how the input ended (an
 * effect failing with `None` when the peer closed, with the error otherwise),
 * run after every frame handed before it.
 *
 * @since 0.1.0
 * @category models
 */
export interface FeedTarget {
  readonly frames: (frames: ReadonlyArray<JsonRpc.Frame>) => boolean
  readonly end: (how: Effect.Effect<never, Option.Option<TransportError>>) => void
}

/**
 * What a fed source is told: read again, after `FeedTarget.frames` returned
 * false.
 *
 * @since 0.1.0
 * @category models
 */
export interface FeedControl {
  readonly resume: () => void
}

/**
 * A source that reads in callbacks, for {@link fromFeed}: called once, when
 * the engine starts reading, with the target its frames go to from then on.
 *
 * @since 0.1.0
 * @category models
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 * import * as Option from "effect/Option"
 *
 * // a source that has nothing and ends at once
 * const feed: Transport.Feed = (target) => {
 *   target.end(Effect.fail(Option.none()))
 *   return { resume: () => {} }
 * }
 * const { run } = Transport.fromFeed(feed)
 * ```
 */
export type Feed = (target: FeedTarget) => FeedControl

/**
 * `run` from a source that reads in callbacks (`NdJson.makeReader`'s `feed`
 * on a Node readable): each read is handled in the source's callback as far
 * as it can be (a response settles its call, a request's handler is forked:
 * no fiber is woken), and what it leaves runs in the reading fiber, in order,
 * with the reads that came meanwhile. While that fiber is 256 frames behind
 * the source is told to stop reading (`FeedTarget.frames` returns false), and
 * to read again (`FeedControl.resume`) once it caught up.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as NdJson from "@effect-mcp/node/NdJson"
 * import * as Effect from "effect/Effect"
 * import { PassThrough } from "node:stream"
 *
 * const transport = Effect.gen(function*() {
 *   const input = new PassThrough()
 *   const output = new PassThrough()
 *   const reader = yield* NdJson.makeReader(input)
 *   const writer = yield* NdJson.makeWriter(output)
 *   return {
 *     ...Transport.fromFeed(reader.feed),
 *     send: (message) => writer.send(message),
 *     sendNow: (message) => writer.sendNow(message)
 *   } satisfies Transport.TransportShape
 * })
 * ```
 */
export const fromFeed = (feed: Feed): Pick<TransportShape, "run"> => ({ run: (receiver) => fed(feed, receiver) })

/**
 * `run` over a queue of frames (what Effect 3 called a mailbox), for
 * transports that gather what they read in one: the queue ending
 * (`Queue.end`, a `Cause.Done`) is the peer closing, its failure the
 * transport's. The frames offered before the end are read first.
 *
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Cause from "effect/Cause"
 * import * as Effect from "effect/Effect"
 * import * as Queue from "effect/Queue"
 * import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 * import type { TransportError } from "@effect-mcp/mcp/McpError"
 *
 * const program = Effect.gen(function*() {
 *   const queue = yield* Queue.make<JsonRpc.Frame, TransportError | Cause.Done>()
 *   const { run } = Transport.fromMailbox(queue)
 *   yield* Queue.offer(queue, { jsonrpc: "2.0", method: "notifications/initialized" })
 *   yield* Queue.end(queue) // the peer closed: the engine reads this frame, then closes
 *   return run
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const fromMailbox = (
  queue: Queue.Dequeue<JsonRpc.Frame, TransportError | Cause.Done>
): Pick<TransportShape, "run"> => {
  const pull: Pull = Effect.mapError(
    Queue.takeAll(queue),
    (error): Option.Option<TransportError> => (Cause.isDone(error) ? Option.none() : Option.some(error))
  )
  return fromPull(pull)
}

/**
 * `run` over a `Stream` of frames: the stream ending is the peer closing, its
 * failure the transport's. Each chunk is a read. The same frames as a pull
 * would read give the engine the same messages, for the costs of a stream
 * (a channel's work per read): prefer {@link fromPull} or {@link fromFeed}
 * on a hot path.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 * import * as Stream from "effect/Stream"
 *
 * const frames: Stream.Stream<JsonRpc.Frame> = Stream.make(JsonRpc.notification("notifications/initialized"))
 * const transport: Transport.TransportShape = { ...Transport.fromStream(frames), send: () => Effect.void }
 * ```
 */
export const fromStream = (stream: Stream.Stream<JsonRpc.Frame, TransportError>): Pick<TransportShape, "run"> => ({
  run: (receiver) => Stream.runForEachArray(stream, (chunk) => receiver.frames(chunk) ?? Effect.void)
})

/** Frames `incoming` buffers ahead of its reader before the transport is made to wait. */
const INCOMING_BUFFER = 256

/**
 * A transport's frames as a `Stream`, read through its `run` (so not while an
 * engine reads it: a transport is read once): it ends when the peer closes,
 * fails with the transport's failure, and keeps the back-pressure (the
 * transport waits while 256 frames are not read).
 *
 * @since 0.1.0
 * @category destructors
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 * import * as Stream from "effect/Stream"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const pair = yield* Transport.makeMemoryPair()
 *   yield* pair.server.send({ jsonrpc: "2.0", method: "notifications/message" })
 *   return yield* Stream.runHead(Transport.incoming(pair.client)) // the notification
 * }))
 * ```
 */
export const incoming = (transport: TransportShape): Stream.Stream<JsonRpc.Frame, TransportError> =>
  Stream.unwrap(Effect.gen(function*() {
    const queue = yield* Queue.bounded<JsonRpc.Frame, TransportError | Cause.Done>(INCOMING_BUFFER)
    // once the stream is done with, what the transport still hands is dropped, not waited on
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))
    const reading = transport.run({
      frames: (frames) => {
        const left = Queue.offerAllUnsafe(queue, frames)
        return left.length === 0 ? undefined : Effect.asVoid(Queue.offerAll(queue, left))
      },
      end: (error) => Effect.asVoid(error._tag === "Some" ? Queue.fail(queue, error.value) : Queue.end(queue))
    })
    if (reading !== undefined) yield* Effect.forkScoped(Queue.into(reading, queue))
    return Stream.fromQueue(queue)
  }))

/**
 * A transport that runs `incoming` on every frame it reads and `outgoing` on
 * every message before it is sent: a wire log, metrics. With `outgoing` the
 * transport has no `sendNow` (everything goes by the tapped `send`).
 *
 * @since 0.1.0
 * @category combinators
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Console from "effect/Console"
 *
 * const logged = (transport: Transport.TransportShape) =>
 *   Transport.tap(transport, {
 *     incoming: (frame) => Console.log("in", frame),
 *     outgoing: (message) => Console.log("out", message)
 *   })
 * ```
 */
export const tap = (
  transport: TransportShape,
  f: {
    readonly incoming?: ((frame: JsonRpc.Frame) => Effect.Effect<void>) | undefined
    readonly outgoing?: ((message: JsonRpc.Outgoing, route: Route | undefined) => Effect.Effect<void>) | undefined
  }
): TransportShape => {
  const onIncoming = f.incoming
  const onOutgoing = f.outgoing
  // `run` is called as the transport's method (a class's keeps its `this`)
  const run = onIncoming === undefined
    ? (receiver: Receiver) => transport.run(receiver)
    : (receiver: Receiver) =>
      transport.run({
        frames: (frames) =>
          Effect.andThen(
            Effect.forEach(frames, onIncoming, { discard: true }),
            Effect.suspend(() => receiver.frames(frames) ?? Effect.void)
          ),
        end: (error) => receiver.end(error)
      })
  if (onOutgoing === undefined) return { ...transport, run }
  const send = (message: JsonRpc.Outgoing, route?: Route) =>
    Effect.andThen(onOutgoing(message, route), transport.send(message, route))
  return { ...transport, run, send, sendNow: undefined }
}

const FailureKey: unique symbol = Symbol.for("@effect-mcp/mcp/Transport/failure")

/**
 * The answer a transport makes up for a request of ours whose exchange failed
 * (the server could not be reached, answered a bare HTTP 500, …): handed to
 * `incoming` like any response, it fails that call with the `TransportError`
 * (a `ProtocolError` of reason `Transport` whose cause it is), not with an
 * `McpError` as if the peer had answered.
 *
 * @since 0.1.0
 * @category failures
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import { TransportError } from "@effect-mcp/mcp/McpError"
 *
 * const frame = Transport.exchangeFailed(1, new TransportError({ reason: "Connect", message: "refused" }))
 * ```
 */
export const exchangeFailed = (id: JsonRpc.RequestId, error: TransportError): JsonRpc.ErrorResponse => {
  const object = { code: -32000, message: error.message }
  // not enumerable: the marker never reaches JSON, only the engine
  Object.defineProperty(object, FailureKey, { value: error })
  return JsonRpc.failure(id, object)
}

/**
 * The `TransportError` of a response made by {@link exchangeFailed}, if it is one.
 *
 * @since 0.1.0
 * @category failures
 */
export const exchangeFailure = (response: JsonRpc.ErrorResponse): TransportError | undefined =>
  (response.error as { readonly [FailureKey]?: TransportError })[FailureKey]

/**
 * The transport a protocol engine runs on.
 *
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 *
 * // a transport that logs what it sends, over whatever transport is provided
 * const logged = Effect.gen(function*() {
 *   const transport = yield* Transport.Transport
 *   return Transport.layer({
 *     ...transport,
 *     send: (message, route) => Effect.andThen(Effect.logDebug("send", message), transport.send(message, route))
 *   })
 * })
 * ```
 * @since 0.1.0
 * @category tags
 */
export class Transport extends Context.Service<Transport, TransportShape>()("@effect-mcp/mcp/Transport") {}

/**
 * One line of a wire log: which way a message went and its JSON text.
 * @since 0.1.0
 * @category models
 */
export interface WireRecord {
  readonly from: "client" | "server"
  readonly json: string
}

/**
 * Two connected in-memory transports and what crossed between them.
 * @since 0.1.0
 * @category models
 */
export interface MemoryPair {
  readonly client: TransportShape
  readonly server: TransportShape
  /** Every message that crossed, in order, as JSON text. */
  readonly wire: ReadonlyArray<WireRecord>
  /** Sends raw text to one side as if its peer wrote it (for bad-input tests). */
  readonly injectRaw: (to: "client" | "server", text: string) => Effect.Effect<void>
  /** Closes one side's outgoing direction: the other side's incoming stream ends. */
  readonly disconnect: (from: "client" | "server") => Effect.Effect<void>
}

/**
 * Options of `makeMemoryPair`.
 * @since 0.1.0
 * @category models
 */
export interface MemoryOptions {
  /** Called for every message that crosses, after it was encoded. */
  readonly onWire?: ((record: WireRecord) => void) | undefined
  /** Keep the wire log in `MemoryPair.wire` (default true). */
  readonly record?: boolean | undefined
}

/**
 * Two connected in-memory transports for tests and demos. Every message is
 * encoded to JSON and parsed again on the other side, exactly as on a real
 * wire; closing the scope ends both incoming streams.
 *
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const pair = yield* Transport.makeMemoryPair()
 *   yield* pair.client.send({ jsonrpc: "2.0", id: 1, method: "ping" })
 *   return pair.wire // [{ from: "client", json: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }]
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryPair = (options?: MemoryOptions): Effect.Effect<MemoryPair, never, Scope.Scope> =>
  Effect.gen(function*() {
    const toServer = yield* Effect.acquireRelease(Queue.make<JsonRpc.Frame, Cause.Done>(), (q) => Queue.end(q))
    const toClient = yield* Effect.acquireRelease(Queue.make<JsonRpc.Frame, Cause.Done>(), (q) => Queue.end(q))
    const wire: Array<WireRecord> = []
    const record = options?.record !== false
    const onWire = options?.onWire
    const side = (
      from: "client" | "server",
      inbox: Queue.Queue<JsonRpc.Frame, Cause.Done>,
      outbox: Queue.Queue<JsonRpc.Frame, Cause.Done>
    ): TransportShape => ({
      ...fromMailbox(inbox),
      send: (message) =>
        Effect.suspend(() => {
          const json = JsonRpc.encode(message)
          const entry = { from, json }
          if (record) wire.push(entry)
          onWire?.(entry)
          return Queue.offer(outbox, JsonRpc.parse(json)).pipe(
            Effect.flatMap((open) =>
              open ? Effect.void : Effect.fail(new TransportError({ reason: "Closed", message: "peer closed" }))
            )
          )
        })
    })
    return {
      client: side("client", toClient, toServer),
      server: side("server", toServer, toClient),
      wire,
      injectRaw: (to, text) => Effect.asVoid(Queue.offer(to === "server" ? toServer : toClient, JsonRpc.parse(text))),
      disconnect: (from) => Effect.asVoid(Queue.end(from === "client" ? toServer : toClient))
    }
  })

/**
 * Provides one side of a transport from a `TransportShape` value.
 *
 * @example
 * ```ts
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const pair = yield* Transport.makeMemoryPair()
 *   const serverTransport = Transport.layer(pair.server) // give it to McpServer.run
 * }))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (shape: TransportShape): Layer.Layer<Transport> => Layer.succeed(Transport, shape)

/**
 * The in-memory pair as two Layers, for tests that build a server and a
 * client the Layer way: provide `server` to the server and `client` to the
 * client; `pair` keeps the wire log and the raw-input helpers.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const test = Effect.scoped(Effect.gen(function*() {
 *   const { client, server, pair } = yield* Transport.layerMemoryPair()
 *   // provide `server` to the server under test, then:
 *   const clientLayer = McpClient.layer({ name: "test", version: "0" }).pipe(Layer.provide(client))
 *   return pair.wire // what crossed, as JSON text
 * }))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerMemoryPair = (options?: MemoryOptions): Effect.Effect<
  { readonly client: Layer.Layer<Transport>; readonly server: Layer.Layer<Transport>; readonly pair: MemoryPair },
  never,
  Scope.Scope
> => Effect.map(makeMemoryPair(options), (pair) => ({ client: layer(pair.client), server: layer(pair.server), pair }))
