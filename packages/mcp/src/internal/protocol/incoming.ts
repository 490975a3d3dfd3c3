/**
 * The engine's incoming side: one fiber per request in a map keyed by id, so
 * that `notifications/cancelled` interrupts exactly that fiber and no
 * response is sent for it. How a request is forked is this module's own
 * business: a handler gets what it needs (the request, a scope) as values.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import type * as Tracer from "effect/Tracer"
import * as JsonRpc from "../../JsonRpc.js"
import { ErrorResponse } from "../../McpError.js"
import type { Result } from "../../Protocol.js"
import * as Answered from "../answered.js"
import { hasEnvelopeClaim } from "../envelopeClaim.js"
import * as Telemetry from "../telemetry.js"
import { tracing, tracingIn } from "../tracing.js"
import type { Engine } from "./engine.js"
import type { EngineIncomingRequest, EngineOptions } from "./make.js"

/** Sends the answer to one request (undefined: nothing to send, as for an interrupted handler). */
export type Reply = (response: JsonRpc.Response | undefined) => Effect.Effect<void>

export interface Incoming {
  /**
   * Forks the request's handler (answers `ping` at once); what is left to run is returned.
   * `direct`: `reply` sends the response on its own (not a batch's), so an answer known at once
   * may go by the engine's `sendNow`.
   */
  readonly onRequest: (req: JsonRpc.Request, reply: Reply, direct: boolean) => Effect.Effect<void> | undefined
  /** Interrupts the handler a `notifications/cancelled` names. */
  readonly onCancelled: (params: JsonRpc.Params | undefined) => undefined
  /** Interrupts every running handler. */
  readonly interruptAll: Effect.Effect<void>
  readonly running: () => number
}

/**
 * How the engine's handler fibers start (`Effect.runForkWith`'s options): uninterruptible, so
 * that a handler fiber makes only its handler interruptible and its answer is always sent (what
 * `uninterruptibleMask` did, with no operation of its own). One object for every fork.
 */
const MASKED: Effect.RunOptions = { uninterruptible: true }

/** What `IncomingRequest.provide` was asked while the handler's effect was made before its fork. */
interface Provided {
  /** What it returned. */
  readonly wrapped: Effect.Effect<unknown, unknown>
  /** The effect it was given, and the services to give it. */
  readonly effect: Effect.Effect<unknown, unknown>
  readonly context: Context.Context<never>
  readonly base: Context.Context<never> | undefined
}

/** One request's state, shared by what its handler is given and its fiber. */
class RequestState {
  active = true
  scope: Scope.Closeable | undefined = undefined
  /** The fiber of the request, once it started. */
  own: Fiber.Fiber<unknown, unknown> | undefined = undefined
  /** The handler's effect is being made before the fork: what `provide` returned, and what it gives the fiber. */
  building = false
  provided: Provided | undefined = undefined
}

/** -32603 means "internal error, details hidden": one with a message or data of its own is not sent as it is. */
const carriesInternals = (error: ErrorResponse): boolean =>
  error.code === JsonRpc.ErrorCode.InternalError && (error.message !== "Internal error" || error.data !== undefined)

/**
 * One request's `IncomingRequest`. A class, not an object literal: V8 pretenures a literal's
 * allocation site once most of what it made survived a scavenge, and every later one is then made
 * in the old generation, where a dead one keeps what it points to (the request's frame, the
 * closures below and all they hold) alive through scavenges until the next full GC: the server
 * promoted ~6 MB per 10k sequential calls. What `new` makes has no allocation site.
 */
class HandledRequest implements EngineIncomingRequest {
  readonly #state: RequestState
  readonly #engine: IncomingImpl
  #scope: Effect.Effect<Scope.Scope> | undefined = undefined
  #provide: EngineIncomingRequest["provide"] | undefined = undefined

  constructor(readonly request: JsonRpc.Request, readonly isActive: () => boolean, state: RequestState, engine: IncomingImpl) {
    this.#state = state
    this.#engine = engine
  }

  // made on first use: a request answered as its handler was called reads neither
  get scope(): Effect.Effect<Scope.Scope> {
    return this.#scope ??= requestScope(this.#state)
  }

  get provide(): EngineIncomingRequest["provide"] {
    return this.#provide ??= this.#engine.provider(this.#state)
  }
}

/** The request's scope, made when first asked for. */
const requestScope = (state: RequestState): Effect.Effect<Scope.Scope> =>
  Effect.suspend(() =>
    // asked for after the handler ended: what would run in it is interrupted, as it would have been
    !state.active
      ? Effect.interrupt
      : state.scope !== undefined
      ? Effect.succeed(state.scope)
      : Effect.map(Scope.make(), (made) => (state.scope = made))
  )

/**
 * The incoming side as methods: an engine keeps one for its life (an idle HTTP session too),
 * and closures made per engine were a part of each one's heap.
 */
class IncomingImpl implements Incoming {
  readonly handlers = new Map<JsonRpc.RequestId, Fiber.Fiber<void>>()
  readonly side: Engine["side"]
  /** The spans of the requests running, by id, under a tracer that collects spans (a cancellation is their event). */
  spansById: Map<JsonRpc.RequestId, Tracer.Span> | undefined = undefined

  /**
   * The handler fiber's context with `base` merged over it, kept for the next request given the
   * same `base` on the same context (every handler fiber starts with the engine's; a span's
   * differs): a request then copies its services once, not twice. Made by the first request given
   * a `base` (a client's engine may never be given one).
   */
  merged: WeakMap<Context.Context<never>, { readonly over: Context.Context<never>; readonly merged: Context.Context<never> }> | undefined = undefined

  constructor(
    readonly engine: Engine,
    /** The engine's `onRequest`. */
    readonly handler: EngineOptions["onRequest"],
    /** What the spans of requests say of the session (`internal/telemetry`). */
    readonly facts: Telemetry.Facts
  ) {
    this.side = engine.side
    this.runMasked = Effect.runForkWith(engine.context)
    // known before the first request: an HTTP session's first (its initialize) then needs no fiber either
    this.spans = tracingIn(engine.context)
  }

  underneath(current: Context.Context<never>, base: Context.Context<never> | undefined): Context.Context<never> {
    if (base === undefined) return current
    const kept = this.merged?.get(base)
    if (kept !== undefined && kept.over === current) return kept.merged
    const made = Context.merge(current, base)
    ;(this.merged ??= new WeakMap()).set(base, { over: current, merged: made })
    return made
  }

  diedResponse(id: JsonRpc.RequestId, cause: Cause.Cause<unknown>) {
    return Effect.logError("request handler failed; answered -32603 without details", cause).pipe(
      Effect.annotateLogs({ side: this.side, id: String(id) }),
      Effect.as(JsonRpc.failure(id, { code: JsonRpc.ErrorCode.InternalError, message: "Internal error" }))
    )
  }

  /** The response a handler's exit makes: its result, its `ErrorResponse`, or -32603 for anything else. */
  answer(id: JsonRpc.RequestId, exit: Exit.Exit<Result, ErrorResponse>, reply: Reply): Effect.Effect<void> {
    return Exit.isSuccess(exit)
      ? reply(JsonRpc.success(id, exit.value))
      : Cause.hasInterruptsOnly(exit.cause)
      // an interrupted handler is answered by nobody; a batch still counts it
      ? reply(undefined)
      : Option.match(Cause.findErrorOption(exit.cause), {
        // a failure that is not an ErrorResponse got past the types (a cast): hidden like a defect
        onSome: (error) =>
          error instanceof ErrorResponse && !carriesInternals(error)
            ? reply(JsonRpc.failure(id, error.toObject()))
            : Effect.flatMap(this.diedResponse(id, exit.cause), reply),
        onNone: () => Effect.flatMap(this.diedResponse(id, exit.cause), reply)
      })
  }

  /**
   * Whether the handler fibers of this engine run under a tracer that collects spans, read off
   * the engine's context: every one starts with it, so the answer is the same for all.
   */
  spans: boolean

  /**
   * Starts a fiber with the engine's context (run with `MASKED`: uninterruptible, so that it makes
   * only its handler interruptible and its answer is always sent).
   */
  readonly runMasked: <A, E>(effect: Effect.Effect<A, E>, options?: Effect.RunOptions | undefined) => Fiber.Fiber<A, E>

  /**
   * The response a handler answered with when no effect is needed to make it (a result, an
   * `ErrorResponse` sent as it is); undefined for the rest (an interruption, a defect: logged first).
   */
  answerNow(id: JsonRpc.RequestId, exit: Answered.Answered<Result, ErrorResponse>): JsonRpc.Response | undefined {
    if (Exit.isSuccess(exit)) return JsonRpc.success(id, exit.value)
    // a Cause is flat on Effect 4: one failure and nothing else, or it is not sent as it is
    const reasons = exit.cause.reasons
    if (reasons.length !== 1) return undefined
    const reason = reasons[0]!
    if (!Cause.isFailReason(reason)) return undefined
    const error = reason.error
    return error instanceof ErrorResponse && !carriesInternals(error) ? JsonRpc.failure(id, error.toObject()) : undefined
  }

  /** The handler's effect, in a span when someone collects spans; `start` is told its fiber. */
  traced(
    req: JsonRpc.Request,
    incoming: EngineIncomingRequest,
    start: (fiber: Fiber.Fiber<unknown, unknown>) => void
  ) {
    return Effect.withFiber<Result, ErrorResponse>((fiber) => {
      start(fiber)
      const spans = this.spans = tracing(fiber)
      return spans
        ? Telemetry.handling(this.facts, req, fiber, this.handler(incoming), (span) => {
          ;(this.spansById ??= new Map()).set(req.id, span)
        })
        : this.handler(incoming)
    })
  }

  /**
   * Forks the handler of one request, then its answer; the request's scope closes in between.
   *
   * Without spans the handler's effect is made before the fork, outside any fiber: when what it
   * returns is the request's services provided over the rest (`IncomingRequest.provide`, as a
   * feature's handler is run), the fiber starts with those services as its context (one merge of
   * the context, and no operation to set it once it runs).
   */
  fork(req: JsonRpc.Request, reply: Reply, direct: boolean): Fiber.Fiber<void> | undefined {
    const state = new RequestState()
    const incoming = this.incomingOf(req, state)
    if (this.spans) {
      return this.runMasked(this.runner(req, reply, state)(this.traced(req, incoming, (fiber) => (state.own = fiber))), MASKED)
    }
    const handler = this.build(incoming, state)
    const matched = state.provided !== undefined && state.provided.wrapped === handler ? state.provided : undefined
    state.provided = undefined
    const body = matched === undefined ? handler : matched.effect as typeof handler
    // answered as it was made (no effect left to run: no scope asked for, nothing to interrupt):
    // the answer is sent at once, with no fiber
    if (direct && Answered.is(body) && this.engine.sendsNow) {
      const response = this.answerNow(req.id, body)
      if (response !== undefined) {
        state.active = false
        const waiting = this.engine.sendNow(response, { relatedRequestId: req.id })
        if (waiting === undefined) return undefined
        // queued with no room (wait for 'drain'), or the transport failed: in a fiber, as `reply` does
        return this.runMasked(
          Effect.catch(waiting, (error) =>
            Effect.logDebug("could not send a response", error).pipe(Effect.annotateLogs({ side: this.side }))
          ),
          MASKED
        )
      }
    }
    const started = this.runner(req, reply, state)(Effect.withFiber((fiber) => ((state.own = fiber), body)))
    if (matched === undefined) return this.runMasked(started, MASKED)
    const context = Context.merge(this.underneath(this.engine.context, matched.base), matched.context)
    return Effect.runForkWith(context)(started, MASKED)
  }

  /** The handler's effect made before its fork, outside any fiber (what `provide` is asked meanwhile is noted). */
  build(incoming: EngineIncomingRequest, state: RequestState): Effect.Effect<Result, ErrorResponse> {
    state.building = true
    try {
      return this.handler(incoming)
    } catch (defect) {
      // as a handler that throws while its effect is made inside the fiber: a defect
      return Effect.die(defect)
    } finally {
      state.building = false
    }
  }

  /** The request as its handler is given it. */
  incomingOf(req: JsonRpc.Request, state: RequestState): EngineIncomingRequest {
    return new HandledRequest(req, () => state.active, state, this)
  }

  /**
   * A request's `provide`. The request's fiber is the engine's and ends with the handler (what
   * follows, `finish`, reads no service): its context is set once (`fiber.setContext`, public on
   * Effect 4), not provided and restored (a dozen effects). Called from any other fiber, it is
   * `Effect.provide`.
   */
  provider(state: RequestState): EngineIncomingRequest["provide"] {
    return <A, E>(effect: Effect.Effect<A, E, any>, context: Context.Context<never>, base?: Context.Context<never>) => {
      const wrapped = Effect.withFiber<A, E>((fiber) => {
        if (fiber !== state.own) {
          return Effect.provide(effect as Effect.Effect<A, E>, base === undefined ? context : Context.merge(base, context))
        }
        // the fiber at hand is the request's, whose context nothing after the handler reads
        fiber.setContext(Context.merge(this.underneath(fiber.context, base), context))
        return effect as Effect.Effect<A, E>
      })
      // merged when the fiber is forked with it: an answer sent at once needs none
      if (state.building && state.provided === undefined) {
        state.provided = { wrapped, effect: effect as Effect.Effect<A, E>, context, base }
      }
      return wrapped
    }
  }

  /** Runs a request's handler (interruptible, in a fiber that starts uninterruptible), then its answer. */
  runner(req: JsonRpc.Request, reply: Reply, state: RequestState) {
    // the request's scope closes before the answer goes out, so that the
    // reverse calls it cancels are cancelled on the wire first
    const finish = (exit: Exit.Exit<Result, ErrorResponse>): Effect.Effect<void> => {
      state.active = false
      // the fiber is not this request's any more: nothing kept with the request (a handler context, a
      // Context in a dead pretenured object) keeps the fiber and all it holds
      state.own = undefined
      const answered = this.answer(req.id, exit, reply)
      const scope = state.scope
      return scope === undefined ? answered : Effect.andThen(Scope.close(scope, exit), answered)
    }
    return (handler: Effect.Effect<Result, ErrorResponse>): Effect.Effect<void> =>
      Effect.matchCauseEffect(Effect.interruptible(handler), {
        onSuccess: (result) => finish(Exit.succeed(result)),
        onFailure: (cause) => finish(Exit.failCause(cause))
      })
  }

  onRequest(req: JsonRpc.Request, reply: Reply, direct: boolean): Effect.Effect<void> | undefined {
    // a `ping` carrying a 2026 envelope goes to the server, which answers it -32601 (there is no
    // ping in that era)
    if (req.method === "ping" && !hasEnvelopeClaim(req.params)) return reply(JsonRpc.success(req.id, {}))
    const id = req.id
    const handlers = this.handlers
    if (handlers.has(id)) {
      return reply(
        JsonRpc.failure(id, {
          code: JsonRpc.ErrorCode.InvalidRequest,
          message: "Invalid Request: a request with this id is already in progress"
        })
      )
    }
    // forked here, when the read loop takes the request (from a fed transport's callback, with no
    // reader fiber woken for it); the fiber starts at once and runs until it first waits
    const fiber = this.fork(req, reply, direct)
    // answered already
    if (fiber === undefined) return undefined
    handlers.set(id, fiber)
    fiber.addObserver(() => {
      if (handlers.get(id) === fiber) handlers.delete(id)
      this.spansById?.delete(id)
    })
    return undefined
  }

  onCancelled(params: JsonRpc.Params | undefined): undefined {
    const id = params?.requestId
    if (typeof id !== "string" && typeof id !== "number") return undefined
    if (this.spansById !== undefined) {
      const reason = typeof params?.reason === "string" ? { reason: params.reason } : {}
      Telemetry.event(this.spansById.get(id), Context.get(this.engine.context, Clock.Clock), "notifications/cancelled", reason)
    }
    // a message, not a wait: a handler with slow finalizers never stalls the read loop
    this.handlers.get(id)?.interruptUnsafe()
    return undefined
  }

  get interruptAll(): Effect.Effect<void> {
    // none, most often (a client's engine closing): Fiber.interruptAll of nothing is ~5 operations
    return Effect.suspend(() => this.handlers.size === 0 ? Effect.void : Fiber.interruptAll(Array.from(this.handlers.values())))
  }

  running(): number {
    return this.handlers.size
  }
}

export const make = (
  engine: Engine,
  onRequest: EngineOptions["onRequest"],
  facts: Telemetry.Facts
): Incoming => new IncomingImpl(engine, onRequest, facts)
