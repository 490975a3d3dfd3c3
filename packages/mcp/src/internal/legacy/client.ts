/**
 * The legacy HTTP+SSE client transport over any `Backend`: `LegacySseClient.make` gives it an
 * `HttpClient`'s, the fetch transport's fallback its `fetch` backend (so a page that falls back
 * loads no `effect/http`).
 */
import type * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Queue from "effect/Queue"
import * as Result from "effect/Result"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as JsonRpc from "../../JsonRpc.js"
import type { LegacySseClientOptions } from "../../LegacySseClient.js"
import { TransportError } from "../../McpError.js"
import { fromMailbox, type TransportShape } from "../../Transport.js"
import type { Backend } from "../httpClient/backend.js"
import { isOk } from "../httpClient/exchange.js"
import { statusError } from "../httpClient/failure.js"
import { toSchedule } from "../httpClient/reconnect.js"
import * as Telemetry from "../telemetry.js"
import * as LegacyConnection from "./connection.js"
import * as LegacyState from "./state.js"

export const make = (
  options: LegacySseClientOptions,
  backend: Backend
): Effect.Effect<TransportShape, TransportError, Scope.Scope> =>
  Effect.gen(function*() {
    const config: LegacyConnection.Config = {
      backend,
      headers: options.headers,
      requestTimeout: Duration.fromInputUnsafe(options.requestTimeout ?? Duration.seconds(30)),
      endpointTimeout: Duration.fromInputUnsafe(options.endpointTimeout ?? Duration.seconds(10)),
      policy: { schedule: toSchedule(options.reconnect), maxRetries: Math.max(0, options.maxRetries ?? 5) },
      resetAfterMs: Duration.toMillis(options.resetAfter ?? Duration.seconds(5)),
      parserOptions: options.maxEventSize === undefined ? undefined : { maxEventSize: options.maxEventSize }
    }

    // finalizers run in reverse: mark closing, interrupt exchanges, end incoming
    const mailbox = yield* Queue.make<JsonRpc.Frame, TransportError | Cause.Done>()
    yield* Effect.addFinalizer(() => Effect.asVoid(Queue.end(mailbox)))
    const state = yield* LegacyState.make(new URL(options.url), mailbox)
    const background = yield* FiberSet.make<unknown, never>()
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        state.closing = true
        return Deferred.fail(state.ready, new TransportError({ reason: "Closed", message: "The transport is closed" }))
      })
    )

    yield* Effect.forkScoped(LegacyConnection.supervise(config, state))
    // waits for the first endpoint (a failure of the first connection fails the layer)
    yield* Deferred.await(state.ready)

    const send: TransportShape["send"] = (message) =>
      Effect.suspend(() => {
        if (state.failure !== undefined) return Effect.fail(state.failure)
        if (state.closing) return Effect.fail(new TransportError({ reason: "Closed", message: "The transport is closed" }))
        const messages: ReadonlyArray<JsonRpc.Message> = Array.isArray(message) ? message : [message as JsonRpc.Message]
        const ids: Array<JsonRpc.RequestId> = []
        for (const m of messages) if (JsonRpc.isRequest(m)) ids.push(m.id)
        if (ids.length > 0) {
          // returns at once: the engine's timeout runs while the exchange does
          return FiberSet.run(background, sendRequest(config, state, message, ids)).pipe(Effect.asVoid)
        }
        return sendOther(config, state, message)
      })

    return {
      ...fromMailbox(mailbox),
      send,
      info: { attributes: Telemetry.httpClientAttributes(new URL(options.url)) },
      sessionLoss: { isLost: () => state.renewal !== undefined, losses: Stream.fromQueue(state.losses) }
    } satisfies TransportShape
  })

/** POSTs a request; its answer comes on the stream, or its failure is pushed to `incoming`. */
const sendRequest = (
  config: LegacyConnection.Config,
  state: LegacyState.LegacyState,
  message: JsonRpc.Outgoing,
  ids: ReadonlyArray<JsonRpc.RequestId>
): Effect.Effect<void> => {
  const attempt = (retried: boolean): Effect.Effect<void, TransportError> =>
    Effect.gen(function*() {
      const target = yield* LegacyState.target(state, message)
      for (const id of ids) state.pending.set(id, { connection: target.connection, accepted: false })
      const result = yield* Effect.result(LegacyConnection.post(config, target.url, message))
      if (Result.isFailure(result)) return yield* LegacyState.failIds(state, ids, result.failure)
      const { status, text } = result.success
      if (status === 404 && !retried && !LegacyState.isSessionStart(message)) {
        // the session is unknown: the request did not run; send it again to the next endpoint
        for (const id of ids) state.pending.delete(id)
        yield* LegacyState.abandon(state, target.connection)
        return yield* attempt(true)
      }
      if (status === 404) yield* LegacyState.abandon(state, target.connection)
      if (!isOk(status)) return yield* LegacyState.failIds(state, ids, statusError(status, text, "POST", target.url))
      // taken: the answer comes on the stream, unless that stream is gone already
      if (target.connection <= state.lostUpTo) return yield* LegacyState.failIds(state, ids, LegacyState.lostError(state))
      for (const id of ids) {
        const entry = state.pending.get(id)
        if (entry !== undefined) entry.accepted = true
      }
    })
  // a failed `ready` means the transport failed or closed: `incoming` tells the engine
  return Effect.catch(attempt(false), () => Effect.void)
}

/** POSTs a notification or responses and waits for the server to take it. */
const sendOther = (
  config: LegacyConnection.Config,
  state: LegacyState.LegacyState,
  message: JsonRpc.Outgoing,
  retried = false
): Effect.Effect<void, TransportError> =>
  Effect.gen(function*() {
    const target = yield* LegacyState.target(state, message)
    const { status, text } = yield* LegacyConnection.post(config, target.url, message)
    if (status === 404) {
      yield* LegacyState.abandon(state, target.connection)
      // an answer to a request of the old session means nothing to the new one
      const responses = (Array.isArray(message) ? message : [message]).every((m) => JsonRpc.isResponse(m))
      if (!retried && !responses && !LegacyState.isSessionStart(message)) return yield* sendOther(config, state, message, true)
    }
    if (!isOk(status)) return yield* statusError(status, text, "POST", target.url)
    if (LegacyState.isSessionStart(message)) {
      yield* LegacyState.initialized(state, target)
    }
  })

