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
 * @internal
 */
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import type { Protocol, ProtocolOptions } from "../../Protocol.js"
import type { TransportShape } from "../../Transport.js"
import * as Deadlines from "../deadlines.js"
import * as Engine from "./engine.js"
import * as Incoming from "./incoming.js"
import * as Outgoing from "./outgoing.js"
import * as Read from "./read.js"

/** What answers what arrives: made from the engine, they may use it. */
export type Handlers = Pick<ProtocolOptions, "onRequest" | "onNotification" | "batches">

/** The rest of the options: what the engine is before it has handlers. */
export type Options = Omit<ProtocolOptions, keyof Handlers>

/** What a maker makes of its engine: the handlers, and what it keeps of the rest (`value`). */
export interface Served<A> {
  readonly handlers: Handlers
  readonly value: A
}

const DEFAULT_TIMEOUT = Duration.seconds(60)
const DEFAULT_MAX_TIMEOUT = Duration.minutes(10)

/** The engine's runtimes: the read loop's and its handlers' (interruptible whatever the caller's flags are, as under `FiberMap.run`), and the shared sleeper's. */
const runtimes = (runtime: Runtime.Runtime<never>) => {
  const loop = Runtime.make({ context: runtime.context, fiberRefs: runtime.fiberRefs, runtimeFlags: Runtime.defaultRuntime.runtimeFlags })
  // forked on a runtime without this engine's context, which the shared sleeper would keep alive
  const sleeper = Runtime.make({ context: Context.empty(), fiberRefs: runtime.fiberRefs, runtimeFlags: loop.runtimeFlags })
  return { loop, sleeper }
}

/** Starts an engine on `transport`, its handlers made by `serve` from it before it reads. */
export const make = <A>(
  transport: TransportShape,
  options: Options,
  serve: (protocol: Protocol) => Served<A>
): Effect.Effect<A, never, Scope.Scope> =>
  Effect.gen(function*() {
    // the read loop, the timer and the fibers of incoming requests are forked from this fiber's runtime
    const { loop: loopRuntime, sleeper } = runtimes(yield* Effect.runtime<never>())
    const clock = yield* Effect.clock
    const engine = Engine.make(options.side, transport, loopRuntime)
    // timeouts: one fiber sleeps until the nearest deadline (a request costs a set entry, not a timer),
    // shared by the engines on this Clock
    const timers = Deadlines.acquireShared(clock, clock, Runtime.runFork(sleeper))
    const sessionAttribute = options.sessionId === undefined ? {} : { "mcp.session.id": options.sessionId }
    const outgoing = Outgoing.make(engine, timers.deadlines, {
      requestTimeout: options.requestTimeout ?? DEFAULT_TIMEOUT,
      maxRequestTimeout: options.maxRequestTimeout ?? DEFAULT_MAX_TIMEOUT,
      idPrefix: options.requestIdPrefix,
      // the fiber's tracer is looked at in the request's mask (`tracing`): no operation of its own
      traced: (method, call) =>
        Effect.withSpan(call, method, {
          kind: "client",
          attributes: { "mcp.method": method, "mcp.side": options.side, ...sessionAttribute },
          captureStackTrace: false
        })
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
        return signal === undefined ? incoming.interruptAll : Effect.zipRight(incoming.interruptAll, Deferred.succeed(signal, undefined))
      })
    const protocol: Protocol = {
      request: (method, params, requestOptions) => outgoing.request(method, params, requestOptions),
      notify: (method, params, route) => outgoing.notify(method, params, route),
      closed: Effect.suspend(() =>
        engine.closedReason !== undefined ? Effect.void : Deferred.await(closedSignal ??= Deferred.unsafeMake<void>(FiberId.none))
      ),
      close,
      pending: Effect.sync(() => outgoing.pending.size),
      running: Effect.sync(() => incoming.running()),
      runningNow: () => incoming.running()
    }
    const served = serve(protocol)
    const incoming = Incoming.make(engine, served.handlers.onRequest, options.sessionId)

    // handlers forked after an earlier `close` (the loop runs until the scope closes) end here too
    // (`Scope.addFinalizer`: `Effect.addFinalizer` would keep a copy of the caller's fiber refs for
    // the life of the connection)
    yield* Effect.scopeWith((scope) =>
      Scope.addFinalizerExit(
        scope,
        () => Effect.zipRight(close("the protocol engine was closed"), Effect.zipRight(incoming.interruptAll, timers.release))
      )
    )

    // forked from the runtime, not from this fiber: a child fiber keeps its parent fiber reachable
    // for as long as it runs, and the read loop runs as long as the connection (on HTTP the
    // parent is the POST that opened the session)
    // (none for a transport that hands its frames over as they come: an HTTP server's session)
    const loop = Read.readLoop(engine, transport, outgoing, incoming, served.handlers, close)
    if (loop !== undefined) {
      const reader = Runtime.runFork(loopRuntime)(loop)
      yield* Effect.addFinalizer(() => Fiber.interrupt(reader))
    }
    return served.value
  })
