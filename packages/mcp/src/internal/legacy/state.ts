/**
 * What the legacy HTTP+SSE client knows of its connections: the endpoint to
 * POST to (pending while it reconnects), the connection each request went
 * to, the endpoint of a new connection whose session the engine is
 * initializing, and the queue behind `incoming`. One state object, written only here and in
 * `legacy/connection`.
 */
import type * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"
import { exchangeFailed } from "../../Transport.js"

/** Where messages go: the endpoint of an established connection. */
export interface Ready {
  readonly url: URL
  /** The number of the connection that announced it. */
  readonly connection: number
}

export interface LegacyState {
  readonly base: URL
  /** Behind `incoming`: ended (`Cause.Done`) when the transport closes, failed when it fails. */
  readonly mailbox: Queue.Queue<JsonRpc.Frame, TransportError | Cause.Done>
  closing: boolean
  failure: TransportError | undefined
  /** The endpoint to POST to; pending while (re)connecting, failed when the transport failed. */
  ready: Deferred.Deferred<Ready, TransportError>
  /** The number of the latest connection, and how to abort it. */
  current: { readonly connection: number; readonly abort: Deferred.Deferred<void> } | undefined
  connections: number
  /** The server's last `retry:`, in ms. */
  retryMs: number | undefined
  /** Whether the engine sent `notifications/initialized` (a new connection must then be initialized again). */
  initialized: boolean
  /**
   * The endpoint of a new connection whose session is not initialized yet:
   * only the engine's `initialize` and `notifications/initialized` go there;
   * everything else waits for `ready`, which the latter resolves.
   */
  renewal: Ready | undefined
  /** Tells the engine that a new connection needs initializing (one pending signal is enough). */
  readonly losses: Queue.Queue<void>
  /**
   * Requests POSTed whose answer has not arrived, with the connection they
   * went to and whether the server took them: their answer can only come on
   * that connection's stream.
   */
  readonly pending: Map<JsonRpc.RequestId, { readonly connection: number; accepted: boolean }>
  /** The latest connection known to be lost. */
  lostUpTo: number
}

export const make = (
  base: URL,
  mailbox: Queue.Queue<JsonRpc.Frame, TransportError | Cause.Done>
): Effect.Effect<LegacyState> =>
  Effect.map(Effect.zip(Deferred.make<Ready, TransportError>(), Queue.sliding<void>(1)), ([ready, losses]) => ({
    base,
    mailbox,
    closing: false,
    failure: undefined,
    ready,
    current: undefined,
    connections: 0,
    retryMs: undefined,
    initialized: false,
    renewal: undefined,
    losses,
    pending: new Map(),
    lostUpTo: 0
  }))

/** Hands a frame to `incoming`; says whether anything reached the engine. */
export const deliver = (state: LegacyState, frame: JsonRpc.Frame): boolean => {
  const items = JsonRpc.isBatch(frame) ? frame : [frame]
  const out: Array<JsonRpc.Message | JsonRpc.Invalid> = []
  for (const item of items) {
    if (JsonRpc.isInvalid(item)) {
      if (!item.respond && item.id !== null && state.pending.delete(item.id)) {
        // a broken response to a request of ours: fail that call now rather than at its timeout
        out.push(JsonRpc.failure(item.id, item.error))
      } else {
        out.push(item)
      }
      continue
    }
    if (JsonRpc.isResponse(item) && item.id !== null) state.pending.delete(item.id)
    out.push(item)
  }
  if (out.length === 0) return false
  Queue.offerUnsafe(state.mailbox, JsonRpc.isBatch(frame) ? out : out[0]!)
  return true
}

export const lostError = (state: LegacyState) =>
  new TransportError({
    reason: "Read",
    message: `The connection to the server at ${state.base.href} was lost before the answer arrived; ` +
      "the request may or may not have run"
  })

/**
 * Fails every request the server took whose answer was due on a lost
 * stream. A POST still on its way is decided by its answer: taken (the
 * answer is lost too) or 404 (sent again to the next endpoint).
 */
const failPending = (state: LegacyState) => {
  const error = lostError(state)
  for (const [id, entry] of state.pending) {
    if (!entry.accepted || entry.connection > state.lostUpTo) continue
    state.pending.delete(id)
    Queue.offerUnsafe(state.mailbox, exchangeFailed(id, error))
  }
}

/** Fails the requests `ids` that still wait for an answer. */
export const failIds = (state: LegacyState, ids: ReadonlyArray<JsonRpc.RequestId>, error: TransportError) =>
  Effect.sync(() => {
    for (const id of ids) {
      if (state.pending.delete(id)) Queue.offerUnsafe(state.mailbox, exchangeFailed(id, error))
    }
  })

/** Fails `incoming`, so that the engine fails every pending call with `ConnectionClosed`. */
export const failTransport = (state: LegacyState, error: TransportError) =>
  Effect.suspend(() => {
    if (state.closing || state.failure !== undefined) return Effect.void
    state.failure = error
    return Deferred.fail(state.ready, error).pipe(Effect.andThen(Queue.fail(state.mailbox, error)), Effect.asVoid)
  })

/** The stream is gone: later messages wait for the next endpoint; answers due on it will never come. */
export const lost = (state: LegacyState) =>
  Effect.gen(function*() {
    if (Option.isSome(yield* Deferred.poll(state.ready))) state.ready = yield* Deferred.make<Ready, TransportError>()
    state.lostUpTo = state.connections
    state.renewal = undefined
    failPending(state)
  })

/**
 * The server no longer knows the session of connection `connection`: stop
 * sending there and drop that connection, which makes the supervisor
 * reconnect. Later messages wait for the new endpoint.
 */
export const abandon = (state: LegacyState, connection: number) =>
  Effect.gen(function*() {
    const now = yield* Deferred.poll(state.ready)
    if (Option.isSome(now)) {
      const exit = yield* now.value.pipe(Effect.exit)
      if (Exit.isSuccess(exit) && exit.value.connection === connection) {
        state.ready = yield* Deferred.make<Ready, TransportError>()
      }
    }
    if (state.renewal?.connection === connection) state.renewal = undefined
    if (state.current?.connection === connection) yield* Deferred.succeed(state.current.abort, undefined)
  })

/**
 * A new connection's endpoint: the first one (or one before the engine
 * initialized) is ready at once; a later one waits for the engine to
 * initialize its session.
 */
export const established = (state: LegacyState, endpoint: Ready, first: boolean) =>
  Effect.suspend(() => {
    if (first || !state.initialized) return Deferred.succeed(state.ready, endpoint)
    state.renewal = endpoint
    return Queue.offer(state.losses, undefined)
  })

/** The engine's `initialize` or `notifications/initialized`: what starts a session (never sent again elsewhere). */
export const isSessionStart = (message: JsonRpc.Outgoing): boolean => {
  if (Array.isArray(message)) return false
  const m = message as JsonRpc.Message
  return (JsonRpc.isRequest(m) && m.method === "initialize") ||
    (JsonRpc.isNotification(m) && m.method === "notifications/initialized")
}

/** Where a message goes: the engine's `initialize` and `initialized` to a new connection's endpoint, the rest when ready. */
export const target = (state: LegacyState, message: JsonRpc.Outgoing): Effect.Effect<Ready, TransportError> => {
  const renewal = state.renewal
  return renewal !== undefined && isSessionStart(message) ? Effect.succeed(renewal) : Deferred.await(state.ready)
}

/** `notifications/initialized` reached `endpoint`: its session is initialized, and every message may go there. */
export const initialized = (state: LegacyState, endpoint: Ready) =>
  Effect.suspend(() => {
    state.initialized = true
    if (state.renewal !== endpoint) return Effect.void
    state.renewal = undefined
    return Deferred.succeed(state.ready, endpoint)
  })
