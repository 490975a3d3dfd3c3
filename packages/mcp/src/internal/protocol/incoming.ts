/**
 * The engine's incoming side: one fiber per request in a map keyed by id, so
 * that `notifications/cancelled` interrupts exactly that fiber and no
 * response is sent for it. How a request is forked is this module's own
 * business: a handler gets what it needs (the request, a scope) as values.
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as JsonRpc from "../../JsonRpc.js"
import { ErrorResponse } from "../../McpError.js"
import type { IncomingRequest, ProtocolOptions, Result } from "../../Protocol.js"
import { tracing } from "../tracing.js"
import type { Engine } from "./engine.js"

/** Sends the answer to one request (undefined: nothing to send, as for an interrupted handler). */
export type Reply = (response: JsonRpc.Response | undefined) => Effect.Effect<void>

export interface Incoming {
  /** Forks the request's handler (answers `ping` at once); what is left to run is returned. */
  readonly onRequest: (req: JsonRpc.Request, reply: Reply) => Effect.Effect<void> | undefined
  /** Interrupts the handler a `notifications/cancelled` names. */
  readonly onCancelled: (params: JsonRpc.Params | undefined) => undefined
  /** Interrupts every running handler. */
  readonly interruptAll: Effect.Effect<void>
  readonly running: () => number
}

/** Whether params carry the 2026 envelope claim (as `ProtocolEra.hasEnvelopeClaim`, without loading the 2026 schemas). */
const hasEnvelopeClaim = (params: JsonRpc.Params | undefined): boolean => {
  const meta = params?._meta
  return typeof meta === "object" && meta !== null && "io.modelcontextprotocol/protocolVersion" in meta
}

/**
 * A fiber whose refs can be set directly, as `FiberRef.set` sets them (Effect's fiber runtime has the
 * method; `Fiber.RuntimeFiber` does not declare it).
 */
interface SettableFiber {
  readonly setFiberRef: <A>(fiberRef: FiberRef.FiberRef<A>, value: A) => void
}

const settable = <F extends object>(fiber: F): fiber is F & SettableFiber =>
  typeof (fiber as Partial<SettableFiber>).setFiberRef === "function"

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
class HandledRequest implements IncomingRequest {
  constructor(
    readonly request: JsonRpc.Request,
    readonly scope: Effect.Effect<Scope.Scope>,
    readonly isActive: () => boolean,
    readonly provide: IncomingRequest["provide"]
  ) {}
}

/**
 * The incoming side as methods: an engine keeps one for its life (an idle HTTP session too),
 * and closures made per engine were a part of each one's heap.
 */
class IncomingImpl implements Incoming {
  readonly handlers = new Map<JsonRpc.RequestId, Fiber.RuntimeFiber<void>>()
  readonly side: Engine["side"]
  readonly spanKind: "server" | "client"
  readonly sessionAttribute: { readonly "mcp.session.id"?: string }

  /**
   * The handler fiber's context with `base` merged over it, kept for the next request given the
   * same `base` on the same context (every handler fiber starts with the engine's; a span's
   * differs): a request then copies its services once, not twice.
   */
  readonly merged = new WeakMap<Context.Context<never>, { readonly over: Context.Context<never>; readonly merged: Context.Context<never> }>()

  constructor(
    readonly engine: Engine,
    readonly options: Pick<ProtocolOptions, "onRequest" | "sessionId">
  ) {
    this.side = engine.side
    this.spanKind = engine.side === "server" ? "server" : "client"
    this.sessionAttribute = options.sessionId === undefined ? {} : { "mcp.session.id": options.sessionId }
  }

  underneath(current: Context.Context<never>, base: Context.Context<never> | undefined): Context.Context<never> {
    if (base === undefined) return current
    const kept = this.merged.get(base)
    if (kept !== undefined && kept.over === current) return kept.merged
    const made = Context.merge(current, base)
    this.merged.set(base, { over: current, merged: made })
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
      : Cause.isInterruptedOnly(exit.cause)
      // an interrupted handler is answered by nobody; a batch still counts it
      ? reply(undefined)
      : Option.match(Cause.failureOption(exit.cause), {
        // a failure that is not an ErrorResponse got past the types (a cast): hidden like a defect
        onSome: (error) =>
          error instanceof ErrorResponse && !carriesInternals(error)
            ? reply(JsonRpc.failure(id, error.toObject()))
            : Effect.flatMap(this.diedResponse(id, exit.cause), reply),
        onNone: () => Effect.flatMap(this.diedResponse(id, exit.cause), reply)
      })
  }

  /** The handler's effect, in a span when someone collects spans; `start` is told its fiber. */
  traced(
    req: JsonRpc.Request,
    incoming: IncomingRequest,
    start: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => void
  ) {
    return Effect.withFiberRuntime<Result, ErrorResponse>((fiber) => {
      start(fiber)
      return tracing(fiber)
        ? Effect.withSpan(this.options.onRequest(incoming), req.method, {
          kind: this.spanKind,
          attributes: { "mcp.method": req.method, "mcp.request.id": req.id, "mcp.side": this.side, ...this.sessionAttribute },
          captureStackTrace: false
        })
        : this.options.onRequest(incoming)
    })
  }

  /** The handler of one request, then its answer; the request's scope closes in between. */
  handle(req: JsonRpc.Request, reply: Reply): Effect.Effect<void> {
    let active = true
    let scope: Scope.CloseableScope | undefined
    /** The fiber of the request, once it started. */
    let own: Fiber.RuntimeFiber<unknown, unknown> | undefined
    const incoming = new HandledRequest(
      req,
      Effect.suspend(() =>
        // asked for after the handler ended: what would run in it is interrupted, as it would have been
        !active
          ? Effect.interrupt
          : scope !== undefined
          ? Effect.succeed(scope)
          : Effect.map(Scope.make(), (made) => (scope = made))
      ),
      () => active,
      // the request's fiber is the engine's and ends with the handler (what follows, `finish`,
      // reads no service): its context is set once, not provided and restored (a dozen effects).
      // Called from any other fiber, it is `Effect.provide`.
      <A, E>(effect: Effect.Effect<A, E, any>, context: Context.Context<never>, base?: Context.Context<never>) =>
        Effect.withFiberRuntime<A, E>((fiber) => {
          if (fiber !== own) {
            return Effect.provide(effect as Effect.Effect<A, E>, base === undefined ? context : Context.merge(base, context))
          }
          const merged = Context.merge(this.underneath(fiber.currentContext, base), context)
          if (!settable(fiber)) return Effect.zipRight(FiberRef.set(FiberRef.currentContext, merged), effect as Effect.Effect<A, E>)
          // what `FiberRef.set` does, in the fiber at hand: two operations less per request
          fiber.setFiberRef(FiberRef.currentContext, merged)
          return effect as Effect.Effect<A, E>
        })
    )
    // the request's scope closes before the answer goes out, so that the
    // reverse calls it cancels are cancelled on the wire first
    const finish = (exit: Exit.Exit<Result, ErrorResponse>): Effect.Effect<void> => {
      active = false
      // the fiber is not this request's any more: nothing kept with the request (a handler context, a
      // Context in a dead pretenured object) keeps the fiber and all it holds
      own = undefined
      const answered = this.answer(req.id, exit, reply)
      return scope === undefined ? answered : Effect.zipRight(Scope.close(scope, exit), answered)
    }
    return Effect.uninterruptibleMask((restore) =>
      Effect.matchCauseEffect(restore(this.traced(req, incoming, (fiber) => (own = fiber))), {
        onSuccess: (result) => finish(Exit.succeed(result)),
        onFailure: (cause) => finish(Exit.failCause(cause))
      })
    )
  }

  onRequest(req: JsonRpc.Request, reply: Reply): Effect.Effect<void> | undefined {
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
    const fiber = Runtime.runFork(this.engine.runtime, this.handle(req, reply))
    handlers.set(id, fiber)
    fiber.addObserver(() => {
      if (handlers.get(id) === fiber) handlers.delete(id)
    })
    return undefined
  }

  onCancelled(params: JsonRpc.Params | undefined): undefined {
    const id = params?.requestId
    if (typeof id !== "string" && typeof id !== "number") return undefined
    // a message, not a wait: a handler with slow finalizers never stalls the read loop
    this.handlers.get(id)?.unsafeInterruptAsFork(FiberId.none)
    return undefined
  }

  get interruptAll(): Effect.Effect<void> {
    return Effect.suspend(() => Fiber.interruptAll(Array.from(this.handlers.values())))
  }

  running(): number {
    return this.handlers.size
  }
}

export const make = (
  engine: Engine,
  options: Pick<ProtocolOptions, "onRequest" | "sessionId">
): Incoming => new IncomingImpl(engine, options)
