/**
 * The engine's outgoing side: request ids, the pending calls awaiting their
 * response, their timeouts (on the Clock, through `internal/deadlines.ts`),
 * and `notifications/cancelled` sent when a caller is interrupted or times out.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as Tracer from "effect/Tracer"
import * as JsonRpc from "../../JsonRpc.js"
import { McpError, ProtocolError, type TransportError } from "../../McpError.js"
import type { ProgressParams, Result as CallResult } from "../../Protocol.js"
import { exchangeFailure, type Route } from "../../Transport.js"
import type { Deadlines, Entry } from "../deadlines.js"
import * as Telemetry from "../telemetry.js"
import * as TraceContext from "../traceContext.js"
import { tracing } from "../tracing.js"
import type { Engine } from "./engine.js"
import type { EngineProtocol, EngineRequestOptions } from "./make.js"

export interface Pending {
  readonly method: string
  /** Completes the call, once: later completions are ignored. */
  readonly settle: (exit: Exit.Exit<CallResult, McpError | ProtocolError>) => void
  /** Completes the call with its response: forgets it (pending entry, deadline) and settles it. */
  readonly respond: (exit: Exit.Exit<CallResult, McpError | ProtocolError>) => void
  readonly onProgress: ((progress: ProgressParams) => Effect.Effect<void>) | undefined
  /** Called on progress; restarts the idle timeout when enabled. */
  readonly touch: () => void
}

export interface Outgoing {
  readonly request: EngineProtocol["request"]
  readonly notify: EngineProtocol["notify"]
  /** The calls awaiting a response. */
  readonly pending: { readonly size: number }
  /** Settles the call a response answers; what is left to run (a log line) is returned. */
  readonly onResponse: (response: JsonRpc.Response) => Effect.Effect<void> | undefined
  /** Routes a progress notification to the call that asked for it. */
  readonly onProgress: (params: JsonRpc.Params | undefined) => Effect.Effect<void> | undefined
  /** Fails every pending call with `ConnectionClosed`. */
  readonly failAll: () => void
}

export interface OutgoingOptions {
  readonly requestTimeout: Duration.Input
  readonly maxRequestTimeout: Duration.Input
  readonly idPrefix?: string | undefined
  /** What the spans of calls say of the session; none: no spans. Spans are made under a tracer that collects them (`tracing`). */
  readonly facts?: Telemetry.Facts | undefined
}

const isParams = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/** A progress notification as the attributes of its event on the call's span. */
const progressAttributes = (params: JsonRpc.Params | undefined): Record<string, unknown> => {
  const attributes: Record<string, unknown> = {}
  if (typeof params?.progress === "number") attributes["mcp.progress"] = params.progress
  if (typeof params?.total === "number") attributes["mcp.progress.total"] = params.total
  return attributes
}

const timeoutError = (method: string, ms: number) =>
  new ProtocolError({ reason: "Timeout", method, message: `Request ${method} timed out after ${ms} ms` })

type CallExit = Exit.Exit<CallResult, McpError | ProtocolError>

/**
 * One outgoing call: its pending entry, its deadline and its one-shot completion (what `Once`
 * does) in one object, made per call: a call's bookkeeping was a dozen closures and objects.
 * Its deadline is `timeout` after its last sign of life, `maxTimeout` after its start at the latest.
 */
class Call implements Pending {
  settled: CallExit | undefined = undefined
  resume: ((exit: CallExit) => void) | undefined = undefined
  readonly started: number
  last: number
  readonly timeoutMs: number
  readonly maxMs: number
  readonly resets: boolean
  readonly onProgress: ((progress: ProgressParams) => Effect.Effect<void>) | undefined
  readonly check: EngineRequestOptions["checkResult"]
  /** The call's span, under a tracer that collects spans (progress and cancellation are its events). */
  span: Tracer.Span | undefined = undefined
  /**
   * Waits for the completion (at once when it came first). No canceler (it would cost an
   * interruption handler per wait): an interrupted waiter's callback ignores a later completion,
   * as every async callback after its first call does.
   */
  readonly await: Effect.Effect<CallResult, McpError | ProtocolError>

  constructor(
    readonly owner: OutgoingImpl,
    readonly id: JsonRpc.RequestId,
    readonly method: string,
    requestOptions: EngineRequestOptions | undefined
  ) {
    this.started = this.last = owner.deadlines.now()
    this.timeoutMs = requestOptions?.timeout === undefined ? owner.defaultTimeout : Duration.toMillis(requestOptions.timeout)
    this.maxMs = requestOptions?.maxTimeout === undefined
      ? owner.defaultMaxTimeout
      : Duration.toMillis(requestOptions.maxTimeout)
    this.resets = requestOptions?.resetTimeoutOnProgress !== false
    this.onProgress = requestOptions?.onProgress
    this.check = requestOptions?.checkResult
    this.await = Effect.callback<CallResult, McpError | ProtocolError>((callback) => this.wait(callback))
  }

  wait(callback: (exit: CallExit) => void): void {
    if (this.settled !== undefined) callback(this.settled)
    else this.resume = callback
  }

  deadline(): number {
    return Math.min(this.last + this.timeoutMs, this.started + this.maxMs)
  }

  expire(): void {
    const timedOut = this.owner.deadlines.now() >= this.last + this.timeoutMs
    this.settle(Exit.fail(timeoutError(this.method, timedOut ? this.timeoutMs : this.maxMs)))
  }

  touch(): void {
    if (this.resets) this.last = this.owner.deadlines.now()
  }

  settle(exit: CallExit): void {
    if (this.settled !== undefined) return
    this.settled = exit
    const resume = this.resume
    if (resume !== undefined) resume(exit)
  }

  /** Forgets the call (its deadline goes with it: the engine's timer looks only at pending calls). */
  end(): void {
    this.owner.pending.delete(this.id)
  }

  // a response ends the call's bookkeeping where it is read, so that the caller's success needs no
  // continuation of its own (its result checked here too); a failure (timeout, interruption, an
  // error answer) ends it in the caller, which may cancel on the wire
  respond(exit: CallExit): void {
    this.end()
    this.settle(this.check === undefined || exit._tag === "Failure" ? exit : checked(this.check, exit))
  }
}

/** A result through the caller's check, where the response is read (a throwing check is a defect of the call). */
const checked = (check: NonNullable<EngineRequestOptions["checkResult"]>, exit: Exit.Success<CallResult, McpError | ProtocolError>): CallExit => {
  try {
    const outcome = check(exit.value)
    // a check that kept the result as it was (a wire schema's validation) keeps its exit too
    return Result.isFailure(outcome)
      ? Exit.fail(outcome.failure)
      : outcome.success === exit.value
      ? exit
      : Exit.succeed(outcome.success)
  } catch (defect) {
    return Exit.die(defect)
  }
}

/**
 * The calls awaiting a response, by id. A `Map` given an entry and rid of it per call reallocates
 * its table every call or few (V8 shrinks an emptied table, and rehashes one full of deleted
 * entries): a call made when none is pending is kept in a slot of its own, so that calls made one
 * at a time never touch the map. The slot's call is then the oldest: `values` keeps their order.
 */
class PendingCalls {
  private slot: Call | undefined = undefined
  private readonly rest = new Map<JsonRpc.RequestId, Call>()

  get size(): number {
    return (this.slot === undefined ? 0 : 1) + this.rest.size
  }

  get(id: JsonRpc.RequestId): Call | undefined {
    return this.slot !== undefined && this.slot.id === id ? this.slot : this.rest.get(id)
  }

  add(call: Call): void {
    if (this.slot === undefined && this.rest.size === 0) this.slot = call
    else this.rest.set(call.id, call)
  }

  delete(id: JsonRpc.RequestId): void {
    if (this.slot !== undefined && this.slot.id === id) this.slot = undefined
    else this.rest.delete(id)
  }

  /** The calls in the order they were made (a copy: what is done with each may forget it). */
  values(): Array<Call> {
    const calls = Array.from(this.rest.values())
    if (this.slot !== undefined) calls.unshift(this.slot)
    return calls
  }

  clear(): void {
    this.slot = undefined
    this.rest.clear()
  }
}

/**
 * The outgoing side as methods: an engine keeps one for its life (an idle HTTP session too),
 * and closures made per engine were a part of each one's heap.
 */
class OutgoingImpl implements Outgoing {
  readonly pending = new PendingCalls()
  nextId = 0
  readonly idPrefix: string | undefined
  readonly defaultTimeout: number
  readonly defaultMaxTimeout: number

  /** What a call's span says of the session (spans when the fiber's tracer collects them). */
  readonly facts: Telemetry.Facts | undefined

  constructor(readonly engine: Engine, readonly deadlines: Deadlines, options: OutgoingOptions) {
    this.idPrefix = options.idPrefix
    this.facts = options.facts
    this.defaultTimeout = Duration.toMillis(options.requestTimeout)
    this.defaultMaxTimeout = Duration.toMillis(options.maxRequestTimeout)
  }

  notify(method: string, params?: JsonRpc.Params | undefined, route?: Route | undefined): Effect.Effect<void, ProtocolError> {
    return Effect.suspend(() => {
      if (this.engine.closedReason !== undefined) return Effect.fail(this.engine.connectionClosed(method))
      const send = (p: JsonRpc.Params | undefined) =>
        this.engine.send(JsonRpc.notification(method, p), route).pipe(
          Effect.mapError((cause) => new ProtocolError({ reason: "Transport", method, message: cause.message, cause }))
        )
      return this.tracedNotification(method, params, send) ?? send(params)
    })
  }

  /**
   * A notification sent in a CLIENT span of its own, its trace context in its `_meta`, when the
   * current fiber's tracer collects spans (the conventions' span of a notification sent); else undefined.
   */
  tracedNotification<E>(
    method: string,
    params: JsonRpc.Params | undefined,
    send: (params: JsonRpc.Params | undefined) => Effect.Effect<void, E>
  ): Effect.Effect<void, E> | undefined {
    if (this.facts === undefined) return undefined
    const fiber = Fiber.getCurrent()
    if (fiber === undefined || !tracing(fiber)) return undefined
    return Telemetry.sending(this.facts, method, params, (span) => send(TraceContext.inject(params, span)), true)
  }

  sendCancelled(id: JsonRpc.RequestId, reason: string, route: Route | undefined) {
    const send = (params: JsonRpc.Params | undefined) =>
      this.engine.send(JsonRpc.notification("notifications/cancelled", params), route)
    const params = { requestId: id, reason }
    return Effect.suspend(() => this.tracedNotification("notifications/cancelled", params, send) ?? send(params)).pipe(Effect.ignore)
  }

  /** Whether a call that ended so is cancelled on the wire. */
  cancels(method: string, cause: Cause.Cause<McpError | ProtocolError>): boolean {
    return method !== "initialize" && this.engine.closedReason === undefined &&
      (Cause.hasInterrupts(cause) ||
        Option.exists(Cause.findErrorOption(cause), (e) => e._tag === "ProtocolError" && e.reason === "Timeout"))
  }

  // the mask's body is made when the mask runs (after its flags changed): no `suspend` of its own
  request(
    method: string,
    params?: JsonRpc.Params | undefined,
    requestOptions?: EngineRequestOptions | undefined
  ): Effect.Effect<CallResult, McpError | ProtocolError> {
    return Effect.uninterruptibleMask((restore) => {
      // the fiber that runs the mask is the current one: a span is wanted only under a tracer that collects them
      if (this.facts !== undefined) {
        const fiber = Fiber.getCurrent()
        if (fiber === undefined || tracing(fiber)) {
          return restore(
            Telemetry.sending(this.facts, method, params, (span) => this.requestInSpan(method, params, requestOptions, span))
          )
        }
      }
      return this.start(method, params, requestOptions, restore, undefined)
    })
  }

  requestInSpan(
    method: string,
    params: JsonRpc.Params | undefined,
    requestOptions: EngineRequestOptions | undefined,
    span: Tracer.Span
  ): Effect.Effect<CallResult, McpError | ProtocolError> {
    return Effect.uninterruptibleMask((restore) => this.start(method, params, requestOptions, restore, span))
  }

  /** The engine's clock, for the events of spans. */
  get clock(): Clock.Clock {
    return Context.get(this.engine.context, Clock.Clock)
  }

  /** The call, in the mask: registered, sent, then awaited (interruptibly, as the caller was). */
  start(
    method: string,
    params: JsonRpc.Params | undefined,
    requestOptions: EngineRequestOptions | undefined,
    restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>,
    span: Tracer.Span | undefined
  ): Effect.Effect<CallResult, McpError | ProtocolError> {
    const { engine, pending } = this
    if (engine.closedReason !== undefined) return Effect.fail(engine.connectionClosed(method))
    const id: JsonRpc.RequestId = this.idPrefix === undefined ? this.nextId++ : `${this.idPrefix}${this.nextId++}`
    requestOptions?.onId?.(id)
    const call = new Call(this, id, method, requestOptions)
    const route = requestOptions?.route
    let sendParams = params
    if (call.onProgress !== undefined) {
      const meta = isParams(params?._meta) ? params._meta : {}
      sendParams = { ...params, _meta: { ...meta, progressToken: id } }
    }
    if (span !== undefined) {
      // the call's trace context goes with it (`internal/traceContext`), and its id on its span
      call.span = span
      span.attribute("jsonrpc.request.id", String(id))
      sendParams = TraceContext.inject(sendParams, span)
    }

    // one continuation per step: this runs for every call, so its number of effects is its cost
    // (on success a failure handler is skipped without an operation)
    const awaited = Effect.catchCause(restore(call.await), (cause) => {
      call.end()
      if (!this.cancels(method, cause)) return Effect.failCause(cause)
      const reason = Cause.hasInterrupts(cause) ? "Request was cancelled" : "Request timed out"
      Telemetry.event(call.span, this.clock, "notifications/cancelled", { reason })
      return Effect.andThen(this.sendCancelled(id, reason, route), Effect.failCause(cause))
    })

    pending.add(call)
    let waiting: Effect.Effect<void, TransportError> | undefined
    try {
      waiting = engine.sendNow(JsonRpc.request(id, method, sendParams), route)
    } catch (defect) {
      pending.delete(id)
      return Effect.die(defect)
    }
    // sent at once (a stdio line queued): no effect to wait for
    if (waiting === undefined) {
      this.watch(call)
      return awaited
    }
    return Effect.matchCauseEffect(waiting, {
      onFailure: (cause) => {
        pending.delete(id)
        return Option.match(Cause.findErrorOption(cause), {
          onNone: () => Effect.failCause(cause as Cause.Cause<never>),
          onSome: (error) =>
            Effect.fail(new ProtocolError({ reason: "Transport", method, message: error.message, cause: error }))
        })
      },
      onSuccess: () => {
        this.watch(call)
        return awaited
      }
    })
  }

  /** The peer's error, or the transport's when the exchange failed before the peer answered. */
  responseError(response: JsonRpc.ErrorResponse, method: string): McpError | ProtocolError {
    const failed = exchangeFailure(response)
    return failed === undefined
      ? McpError.fromObject(response.error, method)
      : new ProtocolError({ reason: "Transport", method, message: failed.message, cause: failed })
  }

  onResponse(response: JsonRpc.Response): Effect.Effect<void> | undefined {
    const entry = this.pending.get(response.id as JsonRpc.RequestId)
    if (entry === undefined) {
      return Effect.logDebug("response for an unknown request id").pipe(
        Effect.annotateLogs({ id: String(response.id), side: this.engine.side })
      )
    }
    entry.respond("error" in response ? Exit.fail(this.responseError(response, entry.method)) : Exit.succeed(response.result))
    return undefined
  }

  onProgress(params: JsonRpc.Params | undefined): Effect.Effect<void> | undefined {
    const token = params?.progressToken
    if (typeof token !== "string" && typeof token !== "number") return undefined
    const entry = this.pending.get(token)
    if (entry === undefined || entry.onProgress === undefined) return undefined
    entry.touch()
    if (entry.span !== undefined) {
      Telemetry.event(entry.span, this.clock, "notifications/progress", progressAttributes(params))
    }
    return entry.onProgress(params as ProgressParams)
  }

  /**
   * The engine's one deadline entry for all its calls: a call costs no set entry of its own.
   * `wakeFor` is never later than any pending call's deadline (they only move later); when it
   * passes, the calls due expire and the entry is watched again for the nearest of the rest.
   */
  readonly timer: Entry = {
    deadline: () => this.wakeFor,
    expire: () => this.expireDue()
  }
  wakeFor = Infinity

  /** Watches a call's deadline: the engine's timer is (re)armed only when it is the nearest. */
  watch(call: Call): void {
    const deadline = call.deadline()
    if (deadline >= this.wakeFor) return
    this.wakeFor = deadline
    this.deadlines.add(this.timer)
  }

  expireDue(): void {
    const now = this.deadlines.now()
    let next = Infinity
    for (const call of this.pending.values()) {
      const deadline = call.deadline()
      if (deadline <= now) call.expire()
      else if (deadline < next) next = deadline
    }
    this.wakeFor = Infinity
    if (next !== Infinity) {
      this.wakeFor = next
      this.deadlines.add(this.timer)
    }
  }

  failAll(): void {
    this.deadlines.remove(this.timer)
    this.wakeFor = Infinity
    const entries = this.pending.values()
    this.pending.clear()
    for (const entry of entries) entry.settle(Exit.fail(this.engine.connectionClosed(entry.method)))
  }
}

export const make = (engine: Engine, deadlines: Deadlines, options: OutgoingOptions): Outgoing =>
  new OutgoingImpl(engine, deadlines, options)
