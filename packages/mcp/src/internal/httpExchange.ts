/**
 * One HTTP exchange of the streamable HTTP client: a POST of a message, a GET
 * of an SSE stream, the DELETE of a session, each with the headers it needs
 * and its failures described (`httpFailure`). Nothing here knows about
 * JSON-RPC ids or sessions beyond the headers it is handed.
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Stream from "effect/Stream"
import * as JsonRpc from "../JsonRpc.js"
import type { TransportError } from "../McpError.js"
import { timedOut, unreachable } from "./httpFailure.js"
import { tracing } from "./tracing.js"

export const mediaType = (value: string | undefined): string => (value ?? "").split(";")[0]!.trim().toLowerCase()

export const isOk = (status: number) => status >= 200 && status < 300

export type UserHeaders = Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>) | undefined

export const userHeaders = (headers: UserHeaders): Readonly<Record<string, string>> =>
  typeof headers === "function" ? headers() : (headers ?? {})

/**
 * Under Effect's built-in tracer, exchanges make no HTTP client span: it
 * would cost more than the rest of the exchange and nobody reads it. The
 * engine's own span per request stays whenever a real tracer is installed.
 * `dedicatedUntraced` is for a fiber that runs this exchange only.
 */
export const untraced = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.withFiberRuntime((fiber) =>
    tracing(fiber) ? effect : Effect.locally(effect, FiberRef.currentTracerEnabled, false)
  )

export const dedicatedUntraced = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.withFiberRuntime((fiber) =>
    tracing(fiber) ? effect : Effect.zipRight(FiberRef.set(FiberRef.currentTracerEnabled, false), effect)
  )

/**
 * Ends an exchange whose body is of no use: read to its end (a bounded wait;
 * giving up destroys the body, which aborts the exchange), so the connection
 * goes back to the pool.
 */
export const release = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<void> =>
  // an empty body (a 202's) is over already: nothing to read, and no timer (a race of two fibers)
  response.headers["content-length"] === "0"
    ? Effect.void
    : response.stream.pipe(Stream.runDrain, Effect.timeout(Duration.seconds(1)), Effect.ignore)

/** The body as text, or "" when it cannot be read (for error descriptions). */
export const textOrEmpty = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.orElseSucceed(response.text, () => "")

export interface Exchange {
  readonly url: URL
  /** POSTs a message with `headers`. */
  readonly post: (
    message: JsonRpc.Outgoing,
    headers: Readonly<Record<string, string>>
  ) => Effect.Effect<HttpClientResponse.HttpClientResponse, TransportError>
  /** Opens a GET stream; its headers must come within the request timeout. */
  readonly get: (
    headers: Readonly<Record<string, string>>,
    lastEventId: string | undefined
  ) => Effect.Effect<HttpClientResponse.HttpClientResponse, TransportError>
  /** DELETEs the session, bounded by `timeout`; failures are logged. */
  readonly del: (headers: Readonly<Record<string, string>>, timeout: Duration.DurationInput) => Effect.Effect<void>
}

// an exchange is aborted when interrupted before its headers, and when its body stream is dropped;
// every body is read to its end or dropped (`HttpClient.withScope` would abort even finished
// exchanges, and each abort builds errors with stack traces)
export const make = (client: HttpClient.HttpClient, url: URL, requestTimeout: Duration.Duration): Exchange => {
  const postBase = HttpClientRequest.post(url)
  const getBase = HttpClientRequest.get(url)
  const timeoutMs = Duration.toMillis(requestTimeout)
  const postFailed = (cause: Error) => unreachable(cause, "POST", url, "Write")
  const getFailed = (cause: Error) => unreachable(cause, "GET", url, "Read")
  return {
    url,
    post: (message, headers) =>
      client.execute(
        HttpClientRequest.bodyText(
          HttpClientRequest.setHeaders(postBase, { ...headers, accept: "application/json, text/event-stream" }),
          JsonRpc.encode(message),
          "application/json"
        )
      ).pipe(Effect.mapError(postFailed)),
    get: (headers, lastEventId) =>
      client.execute(
        getBase.pipe(
          HttpClientRequest.setHeaders(headers),
          HttpClientRequest.setHeader("accept", "text/event-stream"),
          lastEventId === undefined ? (r) => r : HttpClientRequest.setHeader("last-event-id", lastEventId)
        )
      ).pipe(
        Effect.mapError(getFailed),
        Effect.timeoutFail({ duration: requestTimeout, onTimeout: () => timedOut("GET", url, timeoutMs) })
      ),
    del: (headers, timeout) =>
      Effect.scoped(client.execute(HttpClientRequest.del(url).pipe(HttpClientRequest.setHeaders(headers)))).pipe(
        Effect.interruptible,
        Effect.timeout(timeout),
        Effect.catchAllCause((cause) => Effect.logDebug("DELETE of the session failed", cause))
      )
  }
}
