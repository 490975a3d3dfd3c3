/**
 * The streamable HTTP client transport itself, whatever HTTP client is
 * underneath: `StreamableHttpClient.make` (an `effect/http` `HttpClient`, a
 * platform's `HttpBackend`) and `FetchStreamableHttpClient.make` (`fetch`)
 * build it from their `Sources`. Nothing here imports `effect/http`, so a
 * bundle of the fetch transport carries none of it: the legacy transport and
 * a fallback function come through `Sources` ready to run.
 */
import type * as LegacySseClient from "../../LegacySseClient.js"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Scheduler from "effect/Scheduler"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { ListenedLoss } from "../client/sessionRecovery.js"
import * as Deadlines from "../deadlines.js"
import type * as Backend from "./backend.js"
import * as HttpExchange from "./exchange.js"
import * as HttpFibers from "./fibers.js"
import { Frames } from "./frames.js"
import * as HttpInbox from "./inbox.js"
import type { Build } from "./legacyFallback.js"
import { postOther, type Poster, startRequest } from "./post.js"
import type { Resumption } from "./resumption.js"
import * as HttpSession from "./session.js"
import { listen } from "./standingStream.js"
import { toSchedule } from "./reconnect.js"
import * as Sse from "./sse.js"
import * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"
import type { LegacyFallbackContext, StreamableHttpClientOptions } from "../../StreamableHttpClient.js"

/** The options the transport reads (the fallback's function comes through `Sources.fallback`). */
export type CoreOptions = Omit<StreamableHttpClientOptions, "legacyFallback"> & { readonly legacyFallback?: unknown }
import type { TransportShape } from "../../Transport.js"
import * as Telemetry from "../telemetry.js"

/** The HTTP client underneath one transport. */
export interface Sources {
  /** Every exchange goes to it. */
  readonly backend: Backend.Backend
  /**
   * Given with a backend other than an `HttpClient`'s: the `HttpClient` backend that exchanges
   * go through under a tracer that collects spans (their `http.client` span and trace context).
   */
  readonly traced: Backend.Backend | undefined
  /** The fallback of the options when it is a function, given what it needs (`StreamableHttpClient`'s: the `HttpClient`). */
  readonly fallback:
    | ((context: LegacyFallbackContext) => Effect.Effect<TransportShape, TransportError, Scope.Scope>)
    | undefined
  /**
   * Builds the legacy transport of the fallback, loading it then (a bundle does not carry it up
   * front): `LegacySseClient.make` over the `HttpClient`, or the legacy client over `fetch`.
   */
  readonly legacy: (options: LegacySseClient.LegacySseClientOptions) => Effect.Effect<TransportShape, TransportError, Scope.Scope>
}

const isId = (u: unknown): u is JsonRpc.RequestId => typeof u === "string" || typeof u === "number"

/** The builder of the legacy transport, or undefined when the fallback is disabled. */
const legacyBuilder = (
  options: CoreOptions,
  url: URL,
  requestTimeout: Duration.Duration,
  { fallback, legacy }: Sources
): Build | undefined => {
  if (options.legacyFallback === false) return undefined
  if (fallback !== undefined) return (status) => fallback({ url, status, headers: HttpExchange.userHeaders(options.headers) })
  const legacyOptions: LegacySseClient.LegacySseClientOptions = {
    url,
    headers: options.headers,
    requestTimeout,
    maxEventSize: options.maxEventSize,
    // the same reconnection policy on the legacy transport
    reconnect: options.reconnect,
    maxRetries: options.maxRetries,
    resetAfter: options.resetAfter
  }
  return () => legacy(legacyOptions)
}

/**
 * Builds the transport in `fiber` (the fiber of the caller's `make`: its context has the `Scope`).
 * Nothing goes on the wire until the engine sends `initialize`; closing the scope aborts every
 * stream and DELETEs the session.
 */
export const make = (
  fiber: Fiber.Fiber<unknown, unknown>,
  options: CoreOptions,
  url: URL,
  sources: Sources
): Effect.Effect<TransportShape> => {
  const { backend, traced } = sources
  const turn = backend.turn
  const scope = Context.get(fiber.context as Context.Context<Scope.Scope>, Scope.Scope)
  const requestTimeout = Duration.fromInputUnsafe(options.requestTimeout ?? Duration.seconds(30))
  const session = HttpSession.unsafeMake()
  const reinitialize = options.reinitializeOnSessionLoss !== false
  /** Where every message goes once the server turned out to be a legacy one. */
  const state: { legacy: TransportShape | undefined; listening: boolean } = { legacy: undefined, listening: false }

  // finalizers run in reverse: mark closing, interrupt exchanges, DELETE, end incoming
  // (`Scope.addFinalizer`: `Effect.addFinalizer` would keep a copy of this fiber's context each)
  // frames go to the engine from the exchange that read them (no reader fiber); what they leave to
  // run, in a fiber forked from this fiber's context (its services and references, as the engine's
  // own forks are), in this transport's scope: one still running when the session closes is interrupted
  const forkFrames = Effect.runForkWith(fiber.context)
  const frames = new Frames((effect) => Fiber.runIn(forkFrames(effect), scope))
  // with a backend that honours abort signals, the transport's bounds are deadlines on one sleeper
  // fiber (started on the first bounded exchange), not a race of two fibers each; the sessions over
  // one backend (one connection pool) share that sleeper
  // (forked with only the references a sleeping fiber uses, the Clock, the Scheduler and the fiber
  // metrics, not this session's context, which a shared sleeper would keep alive; as the engine's)
  const clock = fiber.getRef(Clock.Clock)
  const shared = backend.signals
    ? Deadlines.acquireShared(
      backend,
      clock,
      Effect.runForkWith(
        Context.make(Clock.Clock, clock).pipe(
          Context.add(Scheduler.Scheduler, fiber.getRef(Scheduler.Scheduler)),
          Context.add(Metric.FiberRuntimeMetrics, fiber.getRef(Metric.FiberRuntimeMetrics))
        )
      )
    )
    : undefined
  const deadlines = shared?.deadlines
  const exchange = HttpExchange.make(backend, url, requestTimeout, deadlines, traced)
  const deleteOnClose = options.deleteOnClose === false
    ? false
    : Duration.fromInputUnsafe(options.deleteOnClose ?? Duration.seconds(2))
  const deleteSession = Effect.suspend(() =>
    session.id === undefined || deleteOnClose === false || state.legacy !== undefined
      ? Effect.void
      : exchange.del(HttpSession.headers(session, HttpExchange.userHeaders(options.headers)), deleteOnClose)
  )
  const closeLast = Effect.ensuring(
    deleteSession,
    shared === undefined ? frames.end(Option.none()) : Effect.andThen(shared.release, frames.end(Option.none()))
  )
  const inbox = HttpInbox.make({
    frames,
    session,
    url,
    fibers: HttpFibers.make(),
    parserOptions: options.maxEventSize === undefined ? undefined : { maxEventSize: options.maxEventSize },
    wholeBodyLimit: options.maxEventSize ?? Sse.DEFAULT_MAX_EVENT_SIZE
  })
  // first: no exchange starts any more, those running are interrupted (the standing GET first)
  const closeFirst = Effect.suspend(() => {
    HttpInbox.close(inbox)
    // a notifications/cancelled being POSTed goes first, within the DELETE's bound (2 s without one)
    return HttpFibers.close(inbox.fibers, deleteOnClose === false ? Duration.seconds(2) : deleteOnClose)
  })

  const resumption: Resumption = {
    exchange,
    inbox,
    headers: options.headers,
    policy: { schedule: toSchedule(options.reconnect), maxRetries: options.maxRetries ?? 5 },
    resetAfterMs: Duration.toMillis(options.resetAfter ?? Duration.seconds(5))
  }
  const build = legacyBuilder(options, url, requestTimeout, sources)
  const poster: Poster = {
    exchange,
    inbox,
    resumption,
    headers: options.headers,
    requestTimeout,
    reinitialize,
    legacy: build === undefined ? undefined : {
      build,
      scope,
      adopt: (legacy) => {
        state.legacy = legacy
      }
    }
  }
  /** The session is initialized: the standing GET starts. */
  const initialized = (): Effect.Effect<void> => {
    HttpSession.initialized(session)
    if (options.listen === false || state.listening) return Effect.void
    state.listening = true
    const listening = listen(resumption, reinitialize, requestTimeout)
    const stream = turn === undefined ? listening : Effect.andThen(turn, listening)
    return HttpFibers.runBackground(inbox.fibers, exchange.viaHttpClient ? HttpExchange.dedicatedUntraced(stream) : stream)
  }

  const send: TransportShape["send"] = (message, route) =>
    Effect.suspend(() => {
      if (state.legacy !== undefined) return state.legacy.send(message, route)
      if (inbox.failure !== undefined) return Effect.fail(inbox.failure)
      if (inbox.closing) return Effect.fail(new TransportError({ reason: "Closed", message: "The transport is closed" }))
      const messages = Array.isArray(message) ? message : [message]
      const ids = messages.filter((m) => JsonRpc.isRequest(m)).map((m) => (m as JsonRpc.Request).id)
      if (ids.length > 0) {
        // returns at once: the engine's timeout runs while the exchange does
        return startRequest(poster, message, ids, route?.headers)
      }
      const single = Array.isArray(message) ? undefined : message as JsonRpc.Message
      if (single !== undefined && JsonRpc.isNotification(single)) {
        if (single.method === "notifications/cancelled") {
          // fire and forget, then release the cancelled request's stream
          const id = single.params?.requestId
          return HttpFibers.runCancellation(
            inbox.fibers,
            postOther(poster, single).pipe(
              Effect.catch((error) => Effect.logDebug("could not send notifications/cancelled", error.message)),
              Effect.ensuring(isId(id) ? HttpFibers.interruptRequest(inbox.fibers, id) : Effect.void)
            )
          )
        }
        if (single.method === "notifications/initialized") {
          // sent as the initialize answer was read: after the backend's turn, on that answer's connection
          const post = Effect.flatMap(postOther(poster, single), initialized)
          return turn === undefined ? post : Effect.andThen(turn, post)
        }
      }
      return postOther(poster, message)
    })

  // what the engine is told of losses (`ListenedLoss`: `listen` is not in the public type)
  const sessionLoss: ListenedLoss = {
    isLost: () => state.legacy !== undefined ? state.legacy.sessionLoss?.isLost() ?? false : session.lost,
    // an adopted legacy transport's losses are signalled on this session too (`httpClient/legacyFallback`)
    // made when read: the engine listens through `listen`
    get losses() {
      return Stream.callback<void>((queue) =>
        Effect.sync(() => HttpSession.listen(session, () => void Queue.offerUnsafe(queue, undefined)))
      )
    },
    listen: (onLoss) => HttpSession.listen(session, onLoss)
  }
  const shape: TransportShape = {
    run: (receiver) => frames.attach(receiver),
    send,
    negotiated: (version) => {
      if (state.legacy !== undefined) state.legacy.negotiated?.(version)
      else HttpSession.negotiated(session, version)
    },
    sessionLoss: reinitialize ? sessionLoss : undefined,
    info: {
      attributes: Telemetry.httpClientAttributes(url),
      get sessionId() {
        return session.id
      },
      get protocolVersion() {
        return session.protocolVersion
      }
    }
  }
  return Effect.as(Effect.andThen(Scope.addFinalizer(scope, closeLast), Scope.addFinalizer(scope, closeFirst)), shape)
}

