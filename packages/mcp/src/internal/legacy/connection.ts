/**
 * The connections of the legacy HTTP+SSE client: the POST of a message to an
 * endpoint; one GET connection, from its opening through its `endpoint`
 * event (a later connection's session is the engine's to initialize) to its end; and
 * the supervisor that reopens a lost stream under the reconnection policy
 * shared with the streamable HTTP client.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"
import { type Backend, header } from "../httpClient/backend.js"
import { isOk, mediaType, release, textOrEmpty, userHeaders, type UserHeaders } from "../httpClient/exchange.js"
import { timedOut, unreachable } from "../httpClient/failure.js"
import * as LegacyState from "./state.js"
import { exhaustedMessage, type Policy, reconnecting } from "../httpClient/reconnect.js"
import * as Sse from "../httpClient/sse.js"

export interface Config {
  /** Sends the exchanges (an `HttpClient`'s, or `fetch` for the fetch transport's fallback); interruption aborts one. */
  readonly backend: Backend
  readonly headers: UserHeaders
  readonly requestTimeout: Duration.Duration
  readonly endpointTimeout: Duration.Duration
  readonly policy: Policy
  readonly resetAfterMs: number
  readonly parserOptions: { readonly maxEventSize: number } | undefined
}

/** POSTs a message; the body is read only when the server refused it. */
export const post = (config: Config, url: URL, message: JsonRpc.Outgoing) =>
  Effect.gen(function*() {
    const response = yield* config.backend.request({
      method: "POST",
      url,
      headers: { ...userHeaders(config.headers), "content-type": "application/json" },
      body: JsonRpc.encode(message),
      controller: undefined
    }).pipe(Effect.mapError((cause) => unreachable(cause, "POST", url, "Write")))
    if (isOk(response.status)) {
      yield* release(response)
      return { status: response.status, text: "" }
    }
    return { status: response.status, text: yield* textOrEmpty(response) }
  }).pipe(
    Effect.timeoutOrElse({
      duration: config.requestTimeout,
      orElse: () => Effect.fail(timedOut("POST", url, Duration.toMillis(config.requestTimeout)))
    })
  )

/** How a connection ended. */
interface Outcome {
  /** Whether it announced an endpoint. */
  readonly established: boolean
  /** Whether it delivered a message or stayed open for `resetAfter`. */
  readonly healthy: boolean
  readonly error: TransportError
}

/** The endpoint an `endpoint` event names, if it is on the origin of the SSE stream. */
const endpointOf = (base: URL, data: string): Exit.Exit<URL, TransportError> => {
  let target: URL
  try {
    target = new URL(data.trim(), base)
  } catch {
    return Exit.fail(new TransportError({ reason: "Protocol", message: `Invalid endpoint URL: ${data}` }))
  }
  return target.origin === base.origin ? Exit.succeed(target) : Exit.fail(
    new TransportError({
      reason: "Protocol",
      message: `The endpoint ${target.origin} is not on the origin of the SSE stream (${base.origin})`
    })
  )
}

/** Reads the SSE stream of a connection to its end: the endpoint goes to `found`, messages to `incoming`. */
const read = (
  config: Config,
  state: LegacyState.LegacyState,
  found: Deferred.Deferred<URL, TransportError>,
  progress: { delivered: boolean; established: boolean }
) =>
  Effect.gen(function*() {
    const base = state.base
    const response = yield* config.backend.request({
      method: "GET",
      url: base,
      headers: { ...userHeaders(config.headers), accept: "text/event-stream" },
      body: undefined,
      controller: undefined
    }).pipe(Effect.mapError((cause) => unreachable(cause, "GET", base, "Read")))
    const contentType = header(response, "content-type")
    if (!isOk(response.status) || mediaType(contentType) !== "text/event-stream") {
      yield* release(response)
      return yield* new TransportError({
        reason: isOk(response.status) ? "Protocol" : "HttpStatus",
        status: response.status,
        message: `The legacy SSE endpoint ${base.href} answered HTTP ${response.status} (${contentType ?? "no content type"})`
      })
    }
    const decoder = new TextDecoder()
    const parser = Sse.makeParser((event) => {
      if (event._tag === "Retry") state.retryMs = Duration.toMillis(event.duration)
      else if (event.event === "endpoint") Deferred.doneUnsafe(found, endpointOf(base, event.data))
      else if (event.event === "message" && event.data.trim() !== "" && LegacyState.deliver(state, JsonRpc.parse(event.data))) {
        progress.delivered = true
      }
    }, config.parserOptions)
    let broken: TransportError | undefined
    yield* response.read((bytes) => {
      const error = parser.feed(decoder.decode(bytes, { stream: true }))
      if (error === undefined) return true
      broken = new TransportError({ reason: "Read", message: error.message })
      return false
    }).pipe(Effect.mapError((cause) => unreachable(cause, "The SSE stream of", base, "Read")))
    if (broken !== undefined) return yield* broken
    return yield* new TransportError({
      reason: "Closed",
      message: progress.established ? "The SSE stream ended" : "The SSE stream ended before the endpoint event"
    })
  })

/** One GET connection, from its opening to its end (it always ends with an error). */
const connection = (config: Config, state: LegacyState.LegacyState, first: boolean): Effect.Effect<Outcome> =>
  Effect.gen(function*() {
    const number = ++state.connections
    const abort = yield* Deferred.make<void>()
    state.current = { connection: number, abort }
    const found = yield* Deferred.make<URL, TransportError>()
    const openedAt = yield* Clock.currentTimeMillis
    const progress = { delivered: false, established: false }

    // the endpoint, then (on a later connection) the engine initializes the new session, then messages may flow
    const establish = Deferred.await(found).pipe(
      Effect.timeoutOrElse({
        duration: config.endpointTimeout,
        orElse: () =>
          Effect.fail(new TransportError({ reason: "Protocol", message: "The legacy SSE server sent no endpoint event" }))
      }),
      Effect.flatMap((url) =>
        Effect.suspend(() => {
          progress.established = true
          return LegacyState.established(state, { url, connection: number }, first)
        })
      ),
      Effect.andThen(Effect.never)
    )

    const aborted = Deferred.await(abort).pipe(
      Effect.andThen(
        Effect.fail(new TransportError({ reason: "Closed", message: "The server no longer knows the session (HTTP 404)" }))
      )
    )

    const error = yield* Effect.raceFirst(read(config, state, found, progress), establish).pipe(
      Effect.raceFirst(aborted),
      Effect.flip
    )
    const lasted = (yield* Clock.currentTimeMillis) - openedAt
    return {
      established: progress.established,
      healthy: progress.delivered || (progress.established && lasted >= config.resetAfterMs),
      error
    }
  })

/**
 * Opens the first connection (its failure fails the transport), then reopens
 * every lost stream, until the attempts are spent.
 */
export const supervise = (config: Config, state: LegacyState.LegacyState): Effect.Effect<void> =>
  Effect.gen(function*() {
    const first = yield* connection(config, state, true)
    if (!first.established) return yield* LegacyState.failTransport(state, first.error)
    const afterLoss = (outcome: Outcome) =>
      Effect.andThen(LegacyState.lost(state), Effect.logDebug("the legacy SSE stream was lost", outcome.error.message))
    yield* afterLoss(first)
    const reconnect = Effect.flatMap(connection(config, state, false), (outcome) =>
      Effect.as(afterLoss(outcome), { _tag: "Lost", healthy: outcome.healthy, error: outcome.error } as const))
    yield* reconnecting(config.policy, () => state.retryMs, reconnect, (attempts, last) =>
      LegacyState.failTransport(
        state,
        new TransportError({
          reason: last?.reason === "Connect" ? "Connect" : "Read",
          message: exhaustedMessage("The legacy SSE stream", attempts, last),
          ...(last === undefined ? {} : { cause: last })
        })
      ), first.error)
  })
