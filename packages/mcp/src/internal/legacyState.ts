/**
 * What the legacy HTTP+SSE client knows of its connections: the endpoint to
 * POST to (pending while it reconnects), the connection each request went
 * to, the session it replays (initialize request, protocol version), and
 * the mailbox behind `incoming`. One state object, written only here and in
 * `legacyConnection`.
 * @internal
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as JsonRpc from "../JsonRpc.js"
import { TransportError } from "../McpError.js"
import { exchangeFailed } from "../Transport.js"

/** Where messages go: the endpoint of an established connection. */
export interface Ready {
  readonly url: URL
  /** The number of the connection that announced it. */
  readonly connection: number
}

export interface LegacyState {
  readonly base: URL
  readonly mailbox: Mailbox.Mailbox<JsonRpc.Frame, TransportError>
  closing: boolean
  failure: TransportError | undefined
  /** The endpoint to POST to; pending while (re)connecting, failed when the transport failed. */
  ready: Deferred.Deferred<Ready, TransportError>
  /** The number of the latest connection, and how to abort it. */
  current: { readonly connection: number; readonly abort: Deferred.Deferred<void> } | undefined
  connections: number
  /** The server's last `retry:`, in ms. */
  retryMs: number | undefined
  /** The engine's initialize request, replayed on every new connection. */
  initializeRequest: JsonRpc.Request | undefined
  protocolVersion: string | undefined
  /** Whether the engine sent `notifications/initialized` (a new connection must then re-initialize). */
  initialized: boolean
  reinitializations: number
  /**
   * Requests POSTed whose answer has not arrived, with the connection they
   * went to and whether the server took them: their answer can only come on
   * that connection's stream.
   */
  readonly pending: Map<JsonRpc.RequestId, { readonly connection: number; accepted: boolean }>
  /** The latest connection known to be lost. */
  lostUpTo: number
  /** Answers kept here (re-initialization). */
  readonly intercepts: Map<JsonRpc.RequestId, Deferred.Deferred<JsonRpc.Response>>
}

export const make = (base: URL, mailbox: Mailbox.Mailbox<JsonRpc.Frame, TransportError>): Effect.Effect<LegacyState> =>
  Effect.map(Deferred.make<Ready, TransportError>(), (ready) => ({
    base,
    mailbox,
    closing: false,
    failure: undefined,
    ready,
    current: undefined,
    connections: 0,
    retryMs: undefined,
    initializeRequest: undefined,
    protocolVersion: undefined,
    initialized: false,
    reinitializations: 0,
    pending: new Map(),
    lostUpTo: 0,
    intercepts: new Map()
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
    if (JsonRpc.isResponse(item) && item.id !== null) {
      const waiter = state.intercepts.get(item.id)
      if (waiter !== undefined) {
        state.intercepts.delete(item.id)
        Deferred.unsafeDone(waiter, Exit.succeed(item))
        continue
      }
      state.pending.delete(item.id)
      if (item.id === state.initializeRequest?.id && "result" in item) {
        const version = item.result.protocolVersion
        if (typeof version === "string") state.protocolVersion = version
      }
    }
    out.push(item)
  }
  if (out.length === 0) return false
  state.mailbox.unsafeOffer(JsonRpc.isBatch(frame) ? out : out[0]!)
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
    state.mailbox.unsafeOffer(exchangeFailed(id, error))
  }
}

/** Fails the requests `ids` that still wait for an answer. */
export const failIds = (state: LegacyState, ids: ReadonlyArray<JsonRpc.RequestId>, error: TransportError) =>
  Effect.sync(() => {
    for (const id of ids) {
      if (state.pending.delete(id)) state.mailbox.unsafeOffer(exchangeFailed(id, error))
    }
  })

/** Fails `incoming`, so that the engine fails every pending call with `ConnectionClosed`. */
export const failTransport = (state: LegacyState, error: TransportError) =>
  Effect.suspend(() => {
    if (state.closing || state.failure !== undefined) return Effect.void
    state.failure = error
    return Deferred.fail(state.ready, error).pipe(Effect.zipRight(state.mailbox.fail(error)), Effect.asVoid)
  })

/** The stream is gone: later messages wait for the next endpoint; answers due on it will never come. */
export const lost = (state: LegacyState) =>
  Effect.gen(function*() {
    if (Option.isSome(yield* Deferred.poll(state.ready))) state.ready = yield* Deferred.make<Ready, TransportError>()
    state.lostUpTo = state.connections
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
    if (state.current?.connection === connection) yield* Deferred.succeed(state.current.abort, undefined)
  })
