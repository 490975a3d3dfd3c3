/**
 * The JSON-RPC engine both sides of MCP share.
 *
 * - Outgoing requests: ids allocated per engine, a `Ref`-backed pending map
 *   from id to the caller's completion, responses accepted in any order, a
 *   per-request timeout that progress may reset under a hard maximum, and
 *   `notifications/cancelled` sent to the peer when the caller is interrupted
 *   or times out.
 * - Incoming requests: one fiber per request in a map keyed by id, so
 *   `notifications/cancelled` interrupts exactly that fiber and no response is
 *   sent for it; an `ErrorResponse` failure is the JSON-RPC error sent, a
 *   defect is logged and answered `-32603` without internals. A peer's
 *   error answer completes the call as an `McpError` naming the method.
 * - Progress notifications routed to the caller that asked for them, `ping`
 *   answered here, batches processed or refused as the negotiated version says.
 *
 * The engine knows nothing of MCP methods beyond `ping`, `notifications/cancelled`
 * and `notifications/progress`; `McpServer` and `McpClient` give it handlers.
 *
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as JsonRpc from "./JsonRpc.js"
import { ErrorResponse, McpError, ProtocolError, type TransportError } from "./McpError.js"
import * as Deadlines from "./internal/deadlines.js"
import * as Once from "./internal/once.js"
import { tracing } from "./internal/tracing.js"
import { exchangeFailure, pullOf, type Route, type TransportShape } from "./Transport.js"

/**
 * The params of `notifications/progress`.
 * @since 0.1.0
 * @category models
 */
export interface ProgressParams {
  readonly progressToken: string | number
  readonly progress: number
  readonly total?: number
  readonly message?: string
  readonly [key: string]: unknown
}

/**
 * A JSON-RPC result object.
 * @since 0.1.0
 * @category models
 */
export type Result = { readonly [key: string]: unknown }

/**
 * Per-request options of `Protocol.request`.
 * @since 0.1.0
 * @category models
 */
export interface RequestOptions {
  /** Fails the request when no response (nor progress, see below) came for this long. Default: the engine's. */
  readonly timeout?: Duration.DurationInput | undefined
  /** A hard bound that progress never extends. Default: the engine's. */
  readonly maxTimeout?: Duration.DurationInput | undefined
  /** Whether a progress notification restarts `timeout` (default true). */
  readonly resetTimeoutOnProgress?: boolean | undefined
  /** Receives progress; setting it adds a `progressToken` to the request's `_meta`. */
  readonly onProgress?: ((progress: ProgressParams) => Effect.Effect<void>) | undefined
  /** Where the request travels (the forward request it belongs to). */
  readonly route?: Route | undefined
}

/**
 * What the engine hands to a request handler besides the request.
 * @since 0.1.0
 * @category models
 */
export interface IncomingRequest {
  readonly request: JsonRpc.Request
  /**
   * A scope closed when the handler ends, however it ends; reverse calls are
   * forked into it. Made on first use: most requests never need one.
   */
  readonly scope: Effect.Effect<Scope.Scope>
  /** Whether the handler is still running. */
  readonly isActive: () => boolean
}

/**
 * What an engine does with what arrives, and its defaults.
 * @since 0.1.0
 * @category models
 */
export interface ProtocolOptions {
  /** Which side this engine plays; names spans and logs. */
  readonly side: "client" | "server"
  /**
   * Answers a request (other than `ping`). An `ErrorResponse` failure is sent
   * as the JSON-RPC error; a defect is logged and answered `-32603`, which
   * never carries details (an `ErrorResponse` with code -32603 and a message
   * or data of its own is logged and answered the same). The effect runs in
   * a fiber of its own that ends with it, so it may set fiber-local state
   * (its context, say) without restoring it.
   */
  readonly onRequest: (incoming: IncomingRequest) => Effect.Effect<Result, ErrorResponse>
  /** Receives notifications (other than cancellation and progress), in arrival order. */
  readonly onNotification: (notification: JsonRpc.Notification) => Effect.Effect<void>
  /** Whether JSON-RPC batches are accepted (true only up to protocol 2025-03-26). */
  readonly batches?: (() => boolean) | undefined
  /** Default per-request timeout (60 s). */
  readonly requestTimeout?: Duration.DurationInput | undefined
  /** Default hard maximum for a request, progress included (10 min). */
  readonly maxRequestTimeout?: Duration.DurationInput | undefined
  /** Added to every span as `mcp.session.id`. */
  readonly sessionId?: string | undefined
}

/**
 * A running JSON-RPC engine over one transport: requests out (with timeouts,
 * progress and cancellation), handlers in.
 * @since 0.1.0
 * @category models
 */
export interface Protocol {
  /** Sends a request and waits for its result. Interrupting it cancels it on the wire. */
  readonly request: (
    method: string,
    params?: JsonRpc.Params | undefined,
    options?: RequestOptions | undefined
  ) => Effect.Effect<Result, McpError | ProtocolError>
  /** Sends a notification. */
  readonly notify: (
    method: string,
    params?: JsonRpc.Params | undefined,
    route?: Route | undefined
  ) => Effect.Effect<void, ProtocolError>
  /** Completes when the connection is over (the peer closed, the transport failed, or the engine was closed). */
  readonly closed: Effect.Effect<void>
  /** Ends the connection: pending calls fail with `ConnectionClosed` and handlers are interrupted. */
  readonly close: (reason: string) => Effect.Effect<void>
  /** Outgoing requests awaiting a response. */
  readonly pending: Effect.Effect<number>
  /** Incoming requests whose handler is running. */
  readonly running: Effect.Effect<number>
}

interface Pending {
  readonly method: string
  /** Completes the call, once: later completions are ignored. */
  readonly settle: (exit: Exit.Exit<Result, McpError | ProtocolError>) => void
  readonly onProgress: ((progress: ProgressParams) => Effect.Effect<void>) | undefined
  /** Called on progress; restarts the idle timer when enabled. */
  readonly touch: () => void
}

const DEFAULT_TIMEOUT = Duration.seconds(60)
const DEFAULT_MAX_TIMEOUT = Duration.minutes(10)
const isParams = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/** Runs `f` on every read of `pull` until it fails. */
const readEach = <A, E>(
  pull: Effect.Effect<A, E>,
  f: (a: A) => Effect.Effect<void>
): Effect.Effect<never, E> => {
  const loop: Effect.Effect<never, E> = Effect.flatMap(pull, (a) => Effect.zipRight(f(a), loop))
  return loop
}

/**
 * Starts an engine on a transport. The engine reads the transport until it
 * ends or the scope closes; closing the scope interrupts every handler and
 * fails every pending request.
 *
 * @example
 * ```ts
 * import * as Protocol from "@effect-mcp/mcp/Protocol"
 * import * as Effect from "effect/Effect"
 * import * as Transport from "@effect-mcp/mcp/Transport"
 *
 * // two engines over an in-memory pair: the "server" echoes params back
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const pair = yield* Transport.makeMemoryPair()
 *   yield* Protocol.make(pair.server, {
 *     side: "server",
 *     onRequest: ({ request }) => Effect.succeed({ echo: request.params ?? {} }),
 *     onNotification: () => Effect.void
 *   })
 *   const client = yield* Protocol.make(pair.client, {
 *     side: "client",
 *     onRequest: () => Effect.succeed({}),
 *     onNotification: () => Effect.void
 *   })
 *   return yield* client.request("echo", { text: "hi" }, { timeout: "5 seconds" }) // { echo: { text: "hi" } }
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  transport: TransportShape,
  options: ProtocolOptions
): Effect.Effect<Protocol, never, Scope.Scope> =>
  Effect.gen(function*() {
    // the read loop and the fibers of incoming requests are forked from this fiber's runtime, and
    // are interruptible whatever the caller's flags are, as under `FiberMap.run`
    const runtime = yield* Effect.runtime<never>()
    const loopRuntime = Runtime.make({
      context: runtime.context,
      fiberRefs: runtime.fiberRefs,
      runtimeFlags: Runtime.defaultRuntime.runtimeFlags
    })
    const pendingRef = yield* Ref.make(HashMap.empty<JsonRpc.RequestId, Pending>())
    // the fibers of incoming requests by id; each removes itself when it ends
    const handlers = new Map<JsonRpc.RequestId, Fiber.RuntimeFiber<void>>()
    const closedSignal = yield* Deferred.make<void>()
    let closedReason: string | undefined
    let nextId = 0
    const defaultTimeout = Duration.toMillis(options.requestTimeout ?? DEFAULT_TIMEOUT)
    const defaultMaxTimeout = Duration.toMillis(options.maxRequestTimeout ?? DEFAULT_MAX_TIMEOUT)
    // time is the Clock's: request timeouts follow a TestClock
    const clock = yield* Effect.clock
    const side = options.side
    const spanKind = side === "server" ? "server" : "client"
    const sessionAttribute = options.sessionId === undefined ? {} : { "mcp.session.id": options.sessionId }

    const connectionClosed = (method: string) =>
      new ProtocolError({ reason: "ConnectionClosed", method, message: `Connection closed: ${closedReason ?? "closed"}` })

    const send = (message: JsonRpc.Outgoing, route?: Route) => transport.send(message, route)

    // ------------------------------------------------------------------------
    // outgoing
    // ------------------------------------------------------------------------

    const notify: Protocol["notify"] = (method, params, route) =>
      Effect.suspend(() =>
        closedReason !== undefined
          ? Effect.fail(connectionClosed(method))
          : send(JsonRpc.notification(method, params), route).pipe(
            Effect.mapError((cause) => new ProtocolError({ reason: "Transport", method, message: cause.message, cause }))
          )
      )

    const sendCancelled = (id: JsonRpc.RequestId, reason: string, route: Route | undefined) =>
      send(JsonRpc.notification("notifications/cancelled", { requestId: id, reason }), route).pipe(Effect.ignore)

    // timeouts: one fiber per engine sleeps until the nearest deadline (a request costs a set entry, not a timer)
    const deadlines = Deadlines.make(clock, Runtime.runFork(loopRuntime))

    const removePending = (id: JsonRpc.RequestId) => Ref.update(pendingRef, (map) => HashMap.remove(map, id))

    const requestUntraced: Protocol["request"] = (method, params, requestOptions) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.suspend(() => {
          if (closedReason !== undefined) return Effect.fail(connectionClosed(method))
          const id: JsonRpc.RequestId = nextId++
          const completion = Once.make<Result, McpError | ProtocolError>()
          const settle = completion.complete
          const timeoutMs = requestOptions?.timeout === undefined ? defaultTimeout : Duration.toMillis(requestOptions.timeout)
          const maxMs = requestOptions?.maxTimeout === undefined ? defaultMaxTimeout : Duration.toMillis(requestOptions.maxTimeout)
          const resetOnProgress = requestOptions?.resetTimeoutOnProgress !== false
          const onProgress = requestOptions?.onProgress
          const route = requestOptions?.route

          let last = clock.unsafeCurrentTimeMillis()
          const started = last
          const timer: Deadlines.Entry | undefined = Number.isFinite(timeoutMs) || Number.isFinite(maxMs)
            ? {
              deadline: () => Math.min(last + timeoutMs, started + maxMs),
              expire: () => {
                const ms = last + timeoutMs <= clock.unsafeCurrentTimeMillis() ? timeoutMs : maxMs
                settle(
                  Exit.fail(
                    new ProtocolError({ reason: "Timeout", method, message: `Request ${method} timed out after ${ms} ms` })
                  )
                )
              }
            }
            : undefined
          const entry: Pending = {
            method,
            settle,
            onProgress,
            touch: resetOnProgress
              ? () => {
                last = clock.unsafeCurrentTimeMillis()
              }
              : () => {}
          }

          let sendParams = params
          if (onProgress !== undefined) {
            const meta = isParams(params?._meta) ? params._meta : {}
            sendParams = { ...params, _meta: { ...meta, progressToken: id } }
          }

          const stopTimer = () => {
            if (timer !== undefined) deadlines.remove(timer)
          }

          // one continuation per step: this runs for every call, so its number of effects is its cost
          const awaited = Effect.matchCauseEffect(restore(completion.await), {
            onSuccess: (result) => {
              stopTimer()
              return Ref.modify(pendingRef, (map) => [result, HashMap.remove(map, id)])
            },
            onFailure: (cause) => {
              stopTimer()
              const cancel = method !== "initialize" && closedReason === undefined &&
                (Cause.isInterrupted(cause) ||
                  Option.exists(Cause.failureOption(cause), (e) => e._tag === "ProtocolError" && e.reason === "Timeout"))
              const cleanup = cancel
                ? Effect.zipRight(
                  removePending(id),
                  sendCancelled(id, Cause.isInterrupted(cause) ? "Request was cancelled" : "Request timed out", route)
                )
                : removePending(id)
              return Effect.zipRight(cleanup, Effect.failCause(cause))
            }
          })

          return Effect.flatMap(Ref.update(pendingRef, (map) => HashMap.set(map, id, entry)), () =>
            Effect.matchCauseEffect(send(JsonRpc.request(id, method, sendParams), route), {
              onFailure: (cause) =>
                Effect.zipRight(
                  removePending(id),
                  Option.match(Cause.failureOption(cause), {
                    onNone: () => Effect.failCause(cause as Cause.Cause<never>),
                    onSome: (error) =>
                      Effect.fail(new ProtocolError({ reason: "Transport", method, message: error.message, cause: error }))
                  })
                ),
              onSuccess: () => {
                if (timer !== undefined) deadlines.add(timer)
                return awaited
              }
            }))
        })
      )

    const request: Protocol["request"] = (method, params, requestOptions) =>
      Effect.withFiberRuntime((fiber) =>
        tracing(fiber)
          ? Effect.withSpan(requestUntraced(method, params, requestOptions), method, {
            kind: "client",
            attributes: { "mcp.method": method, "mcp.side": side, ...sessionAttribute },
            captureStackTrace: false
          })
          : requestUntraced(method, params, requestOptions)
      )

    // ------------------------------------------------------------------------
    // incoming
    // ------------------------------------------------------------------------

    /** The frames of a read are handled against one reading of the pending map (`Pending`). */
    type PendingMap = HashMap.HashMap<JsonRpc.RequestId, Pending>

    const onResponse = (response: JsonRpc.Response, pending: PendingMap): Effect.Effect<void> | undefined => {
      const entry = HashMap.get(pending, response.id as JsonRpc.RequestId)
      if (Option.isNone(entry)) {
        return Effect.logDebug("response for an unknown request id").pipe(
          Effect.annotateLogs({ id: String(response.id), side })
        )
      }
      entry.value.settle(
        "error" in response
          ? Exit.fail(responseError(response, entry.value.method))
          : Exit.succeed(response.result)
      )
      return undefined
    }

    /** The peer's error, or the transport's when the exchange failed before the peer answered. */
    const responseError = (response: JsonRpc.ErrorResponse, method: string): McpError | ProtocolError => {
      const failed = exchangeFailure(response)
      return failed === undefined
        ? McpError.fromObject(response.error, method)
        : new ProtocolError({ reason: "Transport", method, message: failed.message, cause: failed })
    }

    const onProgress = (params: JsonRpc.Params | undefined, pending: PendingMap): Effect.Effect<void> | undefined => {
      const token = params?.progressToken
      if (typeof token !== "string" && typeof token !== "number") return undefined
      const entry = HashMap.get(pending, token)
      if (Option.isNone(entry) || entry.value.onProgress === undefined) return undefined
      entry.value.touch()
      return entry.value.onProgress(params as ProgressParams)
    }

    const onCancelled = (params: JsonRpc.Params | undefined): undefined => {
      const id = params?.requestId
      if (typeof id !== "string" && typeof id !== "number") return undefined
      // a message, not a wait: a handler with slow finalizers never stalls the read loop
      handlers.get(id)?.unsafeInterruptAsFork(FiberId.none)
      return undefined
    }

    type Reply = (response: JsonRpc.Response | undefined) => Effect.Effect<void>

    /** A request answered by nobody (cancelled): the transport may forget where its answer would have gone. */
    const unanswered = (id: JsonRpc.RequestId): Effect.Effect<void> =>
      transport.requestEnded === undefined ? Effect.void : transport.requestEnded(id)

    const replyDirect = (id: JsonRpc.RequestId): Reply => (response) =>
      response === undefined
        ? unanswered(id)
        : send(response, { relatedRequestId: id }).pipe(
          Effect.catchAll((error) =>
            Effect.logDebug("could not send a response", error).pipe(Effect.annotateLogs({ side }))
          )
        )

    /** -32603 means "internal error, details hidden": one with a message or data of its own is not sent as it is. */
    const carriesInternals = (error: ErrorResponse): boolean =>
      error.code === JsonRpc.ErrorCode.InternalError && (error.message !== "Internal error" || error.data !== undefined)

    const diedResponse = (id: JsonRpc.RequestId, cause: Cause.Cause<unknown>) =>
      Effect.logError("request handler failed; answered -32603 without details", cause).pipe(
        Effect.annotateLogs({ side, id: String(id) }),
        Effect.as(JsonRpc.failure(id, { code: JsonRpc.ErrorCode.InternalError, message: "Internal error" }))
      )

    const onRequest = (req: JsonRpc.Request, reply: Reply): Effect.Effect<void> | undefined => {
      if (req.method === "ping") return reply(JsonRpc.success(req.id, {}))
      const id = req.id
      if (handlers.has(id)) {
        return reply(
          JsonRpc.failure(id, {
            code: JsonRpc.ErrorCode.InvalidRequest,
            message: "Invalid Request: a request with this id is already in progress"
          })
        )
      }
      let active = true
      let scope: Scope.CloseableScope | undefined
      const incoming: IncomingRequest = {
        request: req,
        scope: Effect.suspend(() =>
          // asked for after the handler ended: what would run in it is interrupted, as it would have been
          !active
            ? Effect.interrupt
            : scope !== undefined
            ? Effect.succeed(scope)
            : Effect.map(Scope.make(), (made) => (scope = made))
        ),
        isActive: () => active
      }
      const handled = Effect.withFiberRuntime<Result, ErrorResponse>((fiber) =>
        tracing(fiber)
          ? Effect.withSpan(options.onRequest(incoming), req.method, {
            kind: spanKind,
            attributes: { "mcp.method": req.method, "mcp.request.id": id, "mcp.side": side, ...sessionAttribute },
            captureStackTrace: false
          })
          : options.onRequest(incoming)
      )
      // the request's scope closes before the answer goes out, so that the
      // reverse calls it cancels are cancelled on the wire first
      const finish = (exit: Exit.Exit<Result, ErrorResponse>): Effect.Effect<void> => {
        active = false
        const answer = Exit.isSuccess(exit)
          ? reply(JsonRpc.success(id, exit.value))
          : Cause.isInterruptedOnly(exit.cause)
          // an interrupted handler is answered by nobody; a batch still counts it
          ? reply(undefined)
          : Option.match(Cause.failureOption(exit.cause), {
            // a failure that is not an ErrorResponse got past the types (a cast): hidden like a defect
            onSome: (error) =>
              error instanceof ErrorResponse && !carriesInternals(error)
                ? reply(JsonRpc.failure(id, error.toObject()))
                : Effect.flatMap(diedResponse(id, exit.cause), reply),
            onNone: () => Effect.flatMap(diedResponse(id, exit.cause), reply)
          })
        return scope === undefined ? answer : Effect.zipRight(Scope.close(scope, exit), answer)
      }
      const handler = Effect.uninterruptibleMask((restore) =>
        Effect.matchCauseEffect(restore(handled), {
          onSuccess: (result) => finish(Exit.succeed(result)),
          onFailure: (cause) => finish(Exit.failCause(cause))
        })
      )
      // forked in an effect of its own rather than at once: 64 handlers started inside one
      // callback measured ~15% more server CPU (collector time) than one start per effect
      return Effect.sync(() => {
        const fiber = Runtime.runFork(loopRuntime)(handler)
        handlers.set(id, fiber)
        fiber.addObserver(() => {
          if (handlers.get(id) === fiber) handlers.delete(id)
        })
      })
    }

    const onNotification = (n: JsonRpc.Notification, pending: PendingMap): Effect.Effect<void> | undefined => {
      switch (n.method) {
        case "notifications/cancelled":
          return onCancelled(n.params)
        case "notifications/progress":
          return onProgress(n.params, pending)
        default:
          return options.onNotification(n)
      }
    }

    /**
     * Handles one message as far as can be done at once (a request forked, a
     * response settled, a cancellation sent to its fiber); what is left to run
     * (a notification's handler, a reply, a progress callback) is returned.
     */
    const onMessage = (
      message: JsonRpc.Message | JsonRpc.Invalid,
      pending: PendingMap,
      reply: (id: JsonRpc.RequestId) => Reply,
      replyInvalid: Reply
    ): Effect.Effect<void> | undefined => {
      if (JsonRpc.isInvalid(message)) {
        return message.respond ? replyInvalid(JsonRpc.failure(message.id, message.error)) : Effect.logDebug("dropped an invalid response", message.error.message)
      }
      if ("method" in message) {
        return "id" in message ? onRequest(message, reply(message.id)) : onNotification(message, pending)
      }
      return onResponse(message, pending)
    }

    const replyInvalidDirect: Reply = (response) => (response === undefined ? Effect.void : send(response).pipe(Effect.ignore))

    const onBatch = (batch: ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>): Effect.Effect<void> => {
      if (options.batches?.() !== true) {
        return replyInvalidDirect(
          JsonRpc.failure(null, {
            code: JsonRpc.ErrorCode.InvalidRequest,
            message: "Invalid Request: JSON-RPC batches are not supported by the negotiated protocol version"
          })
        )
      }
      let expected = 0
      for (const m of batch) {
        if (JsonRpc.isInvalid(m) ? m.respond : JsonRpc.isRequest(m)) expected++
      }
      const answers: Array<JsonRpc.Response> = []
      const collect: Reply = (response) =>
        Effect.suspend(() => {
          if (response !== undefined) answers.push(response)
          return --expected === 0 && answers.length > 0 ? send(answers).pipe(Effect.ignore) : Effect.void
        })
      const collectFor = (id: JsonRpc.RequestId): Reply => (response) =>
        response === undefined ? Effect.zipRight(unanswered(id), collect(response)) : collect(response)
      return Effect.forEach(
        batch,
        (m) => Effect.suspend(() => Effect.flatMap(Ref.get(pendingRef), (pending) => onMessage(m, pending, collectFor, collect) ?? Effect.void)),
        { discard: true }
      )
    }

    const onFrame = (frame: JsonRpc.Frame, pending: PendingMap): Effect.Effect<void> | undefined =>
      JsonRpc.isBatch(frame) ? onBatch(frame) : onMessage(frame, pending, replyDirect, replyInvalidDirect)

    /**
     * The frames of one read, in order: the synchronous part of each at once,
     * and whatever a frame leaves to run is run before the next frame is
     * looked at. A read of one request or one response costs two effects.
     */
    const onFrames = (frames: ReadonlyArray<JsonRpc.Frame>, from: number): Effect.Effect<void> =>
      Effect.flatMap(Ref.get(pendingRef), (pending) => {
        for (let i = from; i < frames.length; i++) {
          const rest = onFrame(frames[i]!, pending)
          if (rest !== undefined) {
            return i + 1 < frames.length ? Effect.zipRight(rest, onFrames(frames, i + 1)) : rest
          }
        }
        return Effect.void
      })

    // ------------------------------------------------------------------------
    // life
    // ------------------------------------------------------------------------

    const close = (reason: string) =>
      Effect.suspend(() => {
        if (closedReason !== undefined) return Effect.void
        closedReason = reason
        return Ref.getAndSet(pendingRef, HashMap.empty()).pipe(
          Effect.flatMap((map) =>
            Effect.sync(() => {
              for (const [, entry] of map) {
                entry.settle(Exit.fail(connectionClosed(entry.method)))
              }
            })
          ),
          Effect.zipRight(Effect.suspend(() => Fiber.interruptAll(Array.from(handlers.values())))),
          Effect.zipRight(Deferred.succeed(closedSignal, undefined))
        )
      })

    // handlers forked after an earlier `close` (the loop runs until the scope closes) end here too
    yield* Effect.addFinalizer(() =>
      Effect.zipRight(
        close("the protocol engine was closed").pipe(
          Effect.zipRight(deadlines.stop)
        ),
        Effect.suspend(() => Fiber.interruptAll(Array.from(handlers.values())))
      )
    )

    const pull = pullOf(transport.incoming)
    const read: Effect.Effect<void, TransportError> = pull === undefined
      ? Stream.runForEachChunk(transport.incoming, (chunk) => onFrames(Chunk.toReadonlyArray(chunk), 0))
      : Effect.catchAll(
        readEach(pull, (frames) => onFrames(frames, 0)),
        Option.match({ onNone: () => Effect.void, onSome: (error: TransportError) => Effect.fail(error) })
      )
    const loop = read.pipe(
      Effect.matchCauseEffect({
        onSuccess: () => close("the peer closed the connection"),
        onFailure: (cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.void
            : close(
              Option.match(Cause.failureOption(cause), {
                onNone: () => "the transport failed",
                onSome: (error: TransportError) => error.message
              })
            ).pipe(Effect.zipRight(Effect.logDebug("transport failed", cause)))
      })
    )
    // forked from the runtime, not from this fiber: a child fiber keeps its parent fiber reachable
    // for as long as it runs, and the read loop runs as long as the connection (on HTTP the
    // parent is the POST that opened the session)
    const reader = Runtime.runFork(loopRuntime)(loop)
    yield* Effect.addFinalizer(() => Fiber.interrupt(reader))

    return {
      request,
      notify,
      closed: Deferred.await(closedSignal),
      close,
      pending: Effect.map(Ref.get(pendingRef), HashMap.size),
      running: Effect.sync(() => handlers.size)
    } satisfies Protocol
  })

/**
 * Pings the peer every `interval`. A pong, or any JSON-RPC error (a peer that
 * answers -32601 to ping is alive), resets the count; after `maxMissed`
 * (default 3) pings in a row without an answer within `interval`, the
 * connection is closed and every pending call fails saying why.
 *
 * @example
 * ```ts
 * import * as Protocol from "@effect-mcp/mcp/Protocol"
 * import * as Effect from "effect/Effect"
 *
 * const withKeepAlive = (protocol: Protocol.Protocol) =>
 *   // ping every 30 s; after 3 unanswered pings in a row the connection closes
 *   Effect.forkScoped(Protocol.keepAlive(protocol, { interval: "30 seconds", maxMissed: 3 }))
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const keepAlive = (
  protocol: Protocol,
  options: { readonly interval: Duration.DurationInput; readonly maxMissed?: number | undefined }
): Effect.Effect<void, never, Scope.Scope> => {
  const interval = Duration.decode(options.interval)
  const maxMissed = options.maxMissed ?? 3
  const loop = (missed: number): Effect.Effect<void> =>
    Effect.sleep(interval).pipe(
      Effect.zipRight(protocol.request("ping", undefined, { timeout: interval, maxTimeout: interval })),
      Effect.as(0),
      Effect.catchAll((error) =>
        Effect.succeed(
          error._tag === "ProtocolError" && error.reason === "Timeout"
            ? missed + 1
            : error._tag === "ProtocolError" && error.reason === "ConnectionClosed"
            ? -1
            : 0
        )
      ),
      Effect.flatMap((missedNow) =>
        missedNow < 0
          ? Effect.void // the connection is over already: nothing to keep alive
          : missedNow >= maxMissed
          ? protocol.close(`the peer did not answer ${missedNow} keep-alive pings`)
          : loop(missedNow)
      )
    )
  return Effect.asVoid(Effect.forkScoped(loop(0)))
}
