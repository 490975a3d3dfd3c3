/**
 * An engine made on a transport, in order: its outgoing side, the `Protocol`
 * its maker's handlers are made from (a server's handlers send reverse calls
 * and notifications through it), its incoming side with those handlers, then
 * its read loop. `Protocol.make` is this with handlers given beforehand.
 *
 * The engine is cut along its concerns, in this folder: `outgoing` (ids,
 * pending calls, their timeouts on the `Clock` through `internal/deadlines`,
 * cancellation), `incoming` (one fiber per request) and `read` (the read loop
 * and the dispatch of each message); this wires them together.
 *
 * The public types (`Protocol.ts`) leave out what only the SDK uses to go
 * faster: a result checked where its response is read (`checkResult`), a
 * handler's services merged once for many requests (`provide`'s `base`),
 * `running` read without an effect (`runningNow`). They are here, on
 * interfaces that extend the public ones.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import type * as Result from "effect/Result"
import * as Scheduler from "effect/Scheduler"
import * as Scope from "effect/Scope"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ErrorResponse, McpError, ProtocolError } from "../../McpError.js"
import type { IncomingRequest, Protocol, ProtocolOptions, RequestOptions, Result as CallResult } from "../../Protocol.js"
import type { TransportShape } from "../../Transport.js"
import type * as Answered from "../answered.js"
import * as Deadlines from "../deadlines.js"
import * as Telemetry from "../telemetry.js"
import { tracingIn } from "../tracing.js"
import * as Engine from "./engine.js"
import * as Incoming from "./incoming.js"
import * as Outgoing from "./outgoing.js"
import * as Read from "./read.js"

/** `RequestOptions` with what only the SDK's client passes. */
export interface EngineRequestOptions extends RequestOptions {
  /**
   * Checks (or decodes) the result where the response is read, before the
   * caller resumes: a `Failure` fails the call with it (the peer answered:
   * nothing is cancelled). Saves the caller a continuation of its own.
   */
  readonly checkResult?: ((result: CallResult) => Result.Result<CallResult, McpError | ProtocolError>) | undefined
}

/** `IncomingRequest` with what only the SDK's server passes to `provide`. */
export interface EngineIncomingRequest extends IncomingRequest {
  /**
   * `IncomingRequest.provide`; `base`, when given, goes under `context` (the services of
   * `context` win): services shared by many requests (a feature's, the session's), given as the
   * same object each time, so that the engine may keep what it made of them for the next request.
   */
  readonly provide: <A, E>(
    effect: Effect.Effect<A, E, any>,
    context: Context.Context<never>,
    base?: Context.Context<never>
  ) => Effect.Effect<A, E>
}

/**
 * `ProtocolOptions` whose handler is given the `EngineIncomingRequest`. A handler's answer that
 * is `Answered` is sent at once, outside any fiber, when the transport can (`incoming`).
 */
export interface EngineOptions extends Omit<ProtocolOptions, "onRequest"> {
  readonly onRequest: (incoming: EngineIncomingRequest) => Answered.Answer<CallResult, ErrorResponse>
  /** The negotiated protocol version, once known (for the spans' `mcp.protocol.version`). */
  readonly protocolVersion?: (() => string | undefined) | undefined
}

/** `Protocol` taking `EngineRequestOptions`, with `running` read without an effect. */
export interface EngineProtocol extends Protocol {
  readonly request: (
    method: string,
    params?: JsonRpc.Params | undefined,
    options?: EngineRequestOptions | undefined
  ) => Effect.Effect<CallResult, McpError | ProtocolError>
  /** `running` read without an effect (the HTTP server's 2026 connections, once per POST). */
  readonly runningNow: () => number
}

/** What answers what arrives: made from the engine, they may use it. */
export type Handlers = Pick<EngineOptions, "onRequest" | "onNotification" | "batches">

/** The rest of the options: what the engine is before it has handlers. */
export type Options = Omit<EngineOptions, keyof Handlers>

/** What a maker makes of its engine: the handlers, and what it keeps of the rest (`value`). */
export interface Served<A> {
  readonly handlers: Handlers
  readonly value: A
}

const noVersion = (): string | undefined => undefined

/** The reasons a session ends without an error: closed by this side or by the peer. */
const CLOSED_REASONS = new Set(["the protocol engine was closed", "the peer closed the connection"])

/** A session's `error.type`: none when it was closed (by either side), the transport's failure otherwise. */
const sessionError = (reason: string | undefined): string | undefined =>
  reason === undefined || CLOSED_REASONS.has(reason) ? undefined : "transport_error"

const DEFAULT_TIMEOUT = Duration.seconds(60)
const DEFAULT_MAX_TIMEOUT = Duration.minutes(10)

/**
 * What the shared sleeper is forked with: the references a sleeping fiber uses (the Clock, the
 * Scheduler, the fiber metrics that count it) and nothing else of the engine's context, which
 * the sleeper (shared by the engines on the Clock) would keep alive. On Effect 3 these came with
 * the fiber refs, apart from the services.
 */
const sleeperContext = (context: Context.Context<never>): Context.Context<never> =>
  Context.make(Clock.Clock, Context.get(context, Clock.Clock)).pipe(
    Context.add(Scheduler.Scheduler, Context.get(context, Scheduler.Scheduler)),
    Context.add(Metric.FiberRuntimeMetrics, Context.get(context, Metric.FiberRuntimeMetrics))
  )

/** Starts an engine on `transport`, its handlers made by `serve` from it before it reads. */
export const make = <A>(
  transport: TransportShape,
  options: Options,
  serve: (protocol: EngineProtocol) => Served<A>
): Effect.Effect<A, never, Scope.Scope> =>
  Effect.gen(function*() {
    // the read loop, the timer and the fibers of incoming requests are forked with this fiber's
    // context (`Effect.runForkWith`: interruptible whatever the caller's mask, as under `FiberMap.run`)
    const context = yield* Effect.context<never>()
    const clock = Context.get(context, Clock.Clock)
    const engine = Engine.make(options.side, transport, context)
    // timeouts: one fiber sleeps until the nearest deadline (a request costs a set entry, not a timer),
    // shared by the engines on this Clock
    const timers = Deadlines.acquireShared(clock, clock, Effect.runForkWith(sleeperContext(context)))
    // what the spans of this engine's requests say of its session (`internal/telemetry`)
    const facts: Telemetry.Facts = {
      side: options.side,
      info: transport.info,
      sessionId: options.sessionId,
      protocolVersion: options.protocolVersion ?? noVersion
    }
    const outgoing = Outgoing.make(engine, timers.deadlines, {
      requestTimeout: options.requestTimeout ?? DEFAULT_TIMEOUT,
      maxRequestTimeout: options.maxRequestTimeout ?? DEFAULT_MAX_TIMEOUT,
      idPrefix: options.requestIdPrefix,
      facts
    })
    // made when someone waits for the end (a client, a keep-alive): an idle HTTP session's engine
    // has none (a live Deferred was ~0.8 KiB of its heap: its spread literal gets a map of its own)
    let closedSignal: Deferred.Deferred<void> | undefined

    // `incoming` (below, made with the handlers made from `protocol`) is read only when these run:
    // they are the engine's, mutually recursive with its handlers
    const close = (reason: string) =>
      Effect.suspend(() => {
        if (engine.closedReason !== undefined) return Effect.void
        engine.closedReason = reason
        outgoing.failAll()
        const signal = closedSignal
        return signal === undefined ? incoming.interruptAll : Effect.andThen(incoming.interruptAll, Deferred.succeed(signal, undefined))
      })
    const protocol: EngineProtocol = {
      request: (method, params, requestOptions) => outgoing.request(method, params, requestOptions),
      notify: (method, params, route) => outgoing.notify(method, params, route),
      closed: Effect.suspend(() =>
        engine.closedReason !== undefined ? Effect.void : Deferred.await(closedSignal ??= Deferred.makeUnsafe<void>())
      ),
      close,
      pending: Effect.sync(() => outgoing.pending.size),
      running: Effect.sync(() => incoming.running()),
      runningNow: () => incoming.running()
    }
    const served = serve(protocol)
    const incoming = Incoming.make(engine, served.handlers.onRequest, facts)

    // handlers forked after an earlier `close` (the loop runs until the scope closes) end here too
    // (`Scope.addFinalizer` on the scope itself: `Effect.addFinalizer` would keep the caller's
    // context for the life of the connection)
    const scope = yield* Effect.scope
    // a session's duration (`mcp.*.session.duration`), under a tracer that collects spans only
    const opened = tracingIn(context) ? clock.currentTimeMillisUnsafe() : undefined
    yield* Scope.addFinalizer(
      scope,
      Effect.suspend(() => {
        // (nothing to run without a tracer: no operation of its own)
        if (opened !== undefined) {
          Telemetry.sessionEnded(facts, context, opened, clock.currentTimeMillisUnsafe(), sessionError(engine.closedReason))
        }
        return Effect.andThen(close("the protocol engine was closed"), Effect.andThen(incoming.interruptAll, timers.release))
      })
    )

    // forked with the context (`runForkWith`), not from this fiber: a child fiber keeps its parent fiber reachable
    // for as long as it runs, and the read loop runs as long as the connection (on HTTP the
    // parent is the POST that opened the session)
    // (none for a transport that hands its frames over as they come: an HTTP server's session)
    // received notifications get spans of their own under a tracer that collects spans (decided once)
    const loop = Read.readLoop(engine, transport, outgoing, incoming, served.handlers, close, opened !== undefined ? facts : undefined)
    if (loop !== undefined) {
      const reader = Effect.runForkWith(context)(loop)
      yield* Scope.addFinalizer(scope, Fiber.interrupt(reader))
    }
    return served.value
  })

/** Starts an engine on `transport` with handlers given beforehand (`Protocol.make`). */
export const start = (transport: TransportShape, options: EngineOptions): Effect.Effect<EngineProtocol, never, Scope.Scope> =>
  make(transport, options, (protocol) => ({ handlers: options, value: protocol }))
