/**
 * The engine's outgoing side: request ids, the pending calls awaiting their
 * response, their timeouts (on the Clock, through `internal/deadlines.ts`),
 * and `notifications/cancelled` sent when a caller is interrupted or times out.
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as JsonRpc from "../../JsonRpc.js"
import { McpError, ProtocolError } from "../../McpError.js"
import type { Protocol, ProgressParams, RequestOptions, Result } from "../../Protocol.js"
import { exchangeFailure, type Route } from "../../Transport.js"
import * as Once from "../once.js"
import type { Deadlines, Entry } from "../deadlines.js"
import type { Engine } from "./engine.js"

export interface Pending {
  readonly method: string
  /** Completes the call, once: later completions are ignored. */
  readonly settle: (exit: Exit.Exit<Result, McpError | ProtocolError>) => void
  /** Completes the call with its response: forgets it (pending entry, deadline) and settles it. */
  readonly respond: (exit: Exit.Exit<Result, McpError | ProtocolError>) => void
  readonly onProgress: ((progress: ProgressParams) => Effect.Effect<void>) | undefined
  /** Called on progress; restarts the idle timeout when enabled. */
  readonly touch: () => void
}

export interface Outgoing {
  readonly request: Protocol["request"]
  readonly notify: Protocol["notify"]
  /** The calls awaiting a response, by id. */
  readonly pending: Map<JsonRpc.RequestId, Pending>
  /** Settles the call a response answers; what is left to run (a log line) is returned. */
  readonly onResponse: (response: JsonRpc.Response) => Effect.Effect<void> | undefined
  /** Routes a progress notification to the call that asked for it. */
  readonly onProgress: (params: JsonRpc.Params | undefined) => Effect.Effect<void> | undefined
  /** Fails every pending call with `ConnectionClosed`. */
  readonly failAll: () => void
}

export interface OutgoingOptions {
  readonly requestTimeout: Duration.DurationInput
  readonly maxRequestTimeout: Duration.DurationInput
  readonly idPrefix?: string | undefined
}

const isParams = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

const timeoutError = (method: string, ms: number) =>
  new ProtocolError({ reason: "Timeout", method, message: `Request ${method} timed out after ${ms} ms` })

/**
 * The outgoing side as methods: an engine keeps one for its life (an idle HTTP session too),
 * and closures made per engine were a part of each one's heap.
 */
class OutgoingImpl implements Outgoing {
  readonly pending = new Map<JsonRpc.RequestId, Pending>()
  nextId = 0
  readonly idPrefix: string | undefined
  readonly defaultTimeout: number
  readonly defaultMaxTimeout: number

  constructor(readonly engine: Engine, readonly deadlines: Deadlines, options: OutgoingOptions) {
    this.idPrefix = options.idPrefix
    this.defaultTimeout = Duration.toMillis(options.requestTimeout)
    this.defaultMaxTimeout = Duration.toMillis(options.maxRequestTimeout)
  }

  notify(method: string, params?: JsonRpc.Params | undefined, route?: Route | undefined): Effect.Effect<void, ProtocolError> {
    return Effect.suspend(() =>
      this.engine.closedReason !== undefined
        ? Effect.fail(this.engine.connectionClosed(method))
        : this.engine.send(JsonRpc.notification(method, params), route).pipe(
          Effect.mapError((cause) => new ProtocolError({ reason: "Transport", method, message: cause.message, cause }))
        )
    )
  }

  sendCancelled(id: JsonRpc.RequestId, reason: string, route: Route | undefined) {
    return this.engine.send(JsonRpc.notification("notifications/cancelled", { requestId: id, reason }), route).pipe(
      Effect.ignore
    )
  }

  /** Whether a call that ended so is cancelled on the wire. */
  cancels(method: string, cause: Cause.Cause<McpError | ProtocolError>): boolean {
    return method !== "initialize" && this.engine.closedReason === undefined &&
      (Cause.isInterrupted(cause) ||
        Option.exists(Cause.failureOption(cause), (e) => e._tag === "ProtocolError" && e.reason === "Timeout"))
  }

  /** The deadline of a call: `timeout` after its last sign of life, `maxTimeout` after its start at the latest. */
  timed(
    method: string,
    settle: Pending["settle"],
    requestOptions: RequestOptions | undefined
  ): Entry & { readonly touch: () => void } {
    const deadlines = this.deadlines
    const timeoutMs = requestOptions?.timeout === undefined ? this.defaultTimeout : Duration.toMillis(requestOptions.timeout)
    const maxMs = requestOptions?.maxTimeout === undefined ? this.defaultMaxTimeout : Duration.toMillis(requestOptions.maxTimeout)
    const started = deadlines.now()
    let last = started
    return {
      deadline: () => Math.min(last + timeoutMs, started + maxMs),
      expire: () => settle(Exit.fail(timeoutError(method, deadlines.now() >= last + timeoutMs ? timeoutMs : maxMs))),
      touch: requestOptions?.resetTimeoutOnProgress === false ? () => {} : () => {
        last = deadlines.now()
      }
    }
  }

  // the mask's body is made when the mask runs (after its flags changed): no `suspend` of its own
  request(
    method: string,
    params?: JsonRpc.Params | undefined,
    requestOptions?: RequestOptions | undefined
  ): Effect.Effect<Result, McpError | ProtocolError> {
    const { engine, pending, deadlines } = this
    return Effect.uninterruptibleMask((restore) => {
      if (engine.closedReason !== undefined) return Effect.fail(engine.connectionClosed(method))
      const id: JsonRpc.RequestId = this.idPrefix === undefined ? this.nextId++ : `${this.idPrefix}${this.nextId++}`
      requestOptions?.onId?.(id)
      const completion = Once.make<Result, McpError | ProtocolError>()
      const onProgress = requestOptions?.onProgress
      const route = requestOptions?.route
      const timer = this.timed(method, completion.complete, requestOptions)
      const end = () => {
        pending.delete(id)
        deadlines.remove(timer)
      }
      // a response ends the call's bookkeeping where it is read, so that the caller's success
      // needs no continuation of its own; a failure (timeout, interruption, an error answer) ends
      // it in the caller, which may cancel on the wire
      const entry: Pending = {
        method,
        settle: completion.complete,
        respond: (exit) => {
          end()
          completion.complete(exit)
        },
        onProgress,
        touch: timer.touch
      }
      let sendParams = params
      if (onProgress !== undefined) {
        const meta = isParams(params?._meta) ? params._meta : {}
        sendParams = { ...params, _meta: { ...meta, progressToken: id } }
      }

      // one continuation per step: this runs for every call, so its number of effects is its cost
      // (on success a failure handler is skipped without an operation)
      const awaited = Effect.catchAllCause(restore(completion.await), (cause) => {
        end()
        return this.cancels(method, cause)
          ? Effect.zipRight(
            this.sendCancelled(id, Cause.isInterrupted(cause) ? "Request was cancelled" : "Request timed out", route),
            Effect.failCause(cause)
          )
          : Effect.failCause(cause)
      })

      pending.set(id, entry)
      return Effect.matchCauseEffect(engine.send(JsonRpc.request(id, method, sendParams), route), {
        onFailure: (cause) => {
          pending.delete(id)
          return Option.match(Cause.failureOption(cause), {
            onNone: () => Effect.failCause(cause as Cause.Cause<never>),
            onSome: (error) =>
              Effect.fail(new ProtocolError({ reason: "Transport", method, message: error.message, cause: error }))
          })
        },
        onSuccess: () => {
          deadlines.add(timer)
          return awaited
        }
      })
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
    return entry.onProgress(params as ProgressParams)
  }

  failAll(): void {
    const entries = Array.from(this.pending.values())
    this.pending.clear()
    for (const entry of entries) entry.settle(Exit.fail(this.engine.connectionClosed(entry.method)))
  }
}

export const make = (engine: Engine, deadlines: Deadlines, options: OutgoingOptions): Outgoing =>
  new OutgoingImpl(engine, deadlines, options)
