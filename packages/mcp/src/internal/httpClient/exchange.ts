/**
 * One HTTP exchange of the streamable HTTP client: a POST of a message, a GET
 * of an SSE stream, the DELETE of a session, each with the headers it needs
 * and its failures described (`httpFailure`). Nothing here knows about
 * JSON-RPC ids or sessions beyond the headers it is handed.
 */
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as References from "effect/References"
import * as JsonRpc from "../../JsonRpc.js"
import type { TransportError } from "../../McpError.js"
import type * as Deadlines from "../deadlines.js"
import type { Backend, BackendRequest, BackendResponse } from "./backend.js"
import { timedOut, unreachable } from "./failure.js"
import { tracing } from "../tracing.js"

export const mediaType = (value: string | undefined): string =>
  // the two types the transport reads, as servers send them: no split
  value === "application/json" || value === "text/event-stream" ? value : (value ?? "").split(";")[0]!.trim().toLowerCase()

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
  Effect.withFiber((fiber) => tracing(fiber) ? effect : Effect.provideService(effect, References.TracerEnabled, false))

export const dedicatedUntraced = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.withFiber((fiber) => {
    if (tracing(fiber)) return effect
    // for the rest of this fiber (it runs this exchange only): nothing to restore
    fiber.setContext(Context.add(fiber.context, References.TracerEnabled, false))
    return effect
  })

/** Ends an exchange whose body is of no use, so the connection goes back to the pool. */
export const release = (response: BackendResponse): Effect.Effect<void> => response.discard

/** The body as text, or "" when it cannot be read (for error descriptions). */
export const textOrEmpty = (response: { readonly text: Effect.Effect<string, unknown> }) =>
  Effect.orElseSucceed(response.text, () => "")

export interface Exchange {
  readonly url: URL
  /**
   * Whether exchanges go through `effect/http`'s `HttpClient` (which
   * makes a span per exchange) when no tracer collects spans: only then is
   * `untraced` worth its cost (`References.TracerEnabled` provided). A platform's
   * backend makes none (and its exchanges go through the `HttpClient` only
   * under a tracer that collects them).
   */
  readonly viaHttpClient: boolean
  /**
   * POSTs a message with `headers`; `controller` comes from `bounded`.
   * `dedicated`: sent and read in a fiber that runs this exchange alone (`BackendRequest`).
   */
  readonly post: (
    message: JsonRpc.Outgoing,
    headers: Readonly<Record<string, string>>,
    controller?: AbortController | undefined,
    dedicated?: boolean
  ) => Effect.Effect<BackendResponse, TransportError>
  /**
   * Opens a GET stream, read in the fiber that opens it, which runs it alone;
   * its headers must come within the request timeout.
   */
  readonly get: (
    headers: Readonly<Record<string, string>>,
    lastEventId: string | undefined
  ) => Effect.Effect<BackendResponse, TransportError>
  /** DELETEs the session, bounded by `timeout`; failures are logged. */
  readonly del: (headers: Readonly<Record<string, string>>, timeout: Duration.Duration) => Effect.Effect<void>
  /**
   * Bounds `f` (an exchange and the reading of its answer) by the request
   * timeout: a `Timeout` `TransportError` naming `what` when it runs out.
   */
  readonly bounded: <A>(
    what: string,
    f: (controller: AbortController | undefined) => Effect.Effect<A, TransportError>
  ) => Effect.Effect<A, TransportError>
}

/**
 * `deadlines`, given with a backend that honours abort signals, bounds
 * exchanges with a set entry and an abort (no fiber); without, a bound is an
 * `Effect.timeoutOrElse` (a race of two fibers). `traced`, given with a
 * backend other than the `HttpClient`, is the `HttpClient` backend: under a
 * tracer that collects spans, exchanges go through it, so that they make
 * their `http.client` span and send its trace context.
 */
export const make = (
  backend: Backend,
  url: URL,
  requestTimeout: Duration.Duration,
  deadlines: Deadlines.Deadlines | undefined,
  traced?: Backend | undefined
): Exchange => {
  const timeoutMs = Duration.toMillis(requestTimeout)
  const postFailed = (cause: Error) => unreachable(cause, "POST", url, "Write")
  const getFailed = (cause: Error) => unreachable(cause, "GET", url, "Read")
  const within = <A, E>(
    ms: number,
    onTimeout: () => TransportError,
    f: (controller: AbortController | undefined) => Effect.Effect<A, E>
  ): Effect.Effect<A, E | TransportError> => {
    const race = () =>
      Effect.timeoutOrElse(f(undefined), { duration: Duration.millis(ms), orElse: () => Effect.fail(onTimeout()) })
    if (deadlines === undefined) return race()
    const deadline = Effect.suspend(() => {
      const controller = new AbortController()
      let fired = false
      const start = deadlines.now()
      const entry: Deadlines.Entry = {
        deadline: () => start + ms,
        expire: () => {
          fired = true
          controller.abort()
        }
      }
      deadlines.add(entry)
      // an interrupted exchange leaves its entry to expire: aborting a finished exchange does nothing
      return Effect.matchCauseEffect(f(controller), {
        onFailure: (cause): Effect.Effect<A, E | TransportError> => {
          deadlines.remove(entry)
          return fired ? Effect.fail(onTimeout()) : Effect.failCause(cause)
        },
        onSuccess: (a): Effect.Effect<A, E | TransportError> => {
          deadlines.remove(entry)
          return fired ? Effect.fail(onTimeout()) : Effect.succeed(a)
        }
      })
    })
    return traced === undefined ? deadline : Effect.withFiber<A, E | TransportError>((fiber) => tracing(fiber) ? race() : deadline)
  }
  const request = (
    method: BackendRequest["method"],
    headers: Readonly<Record<string, string>>,
    body: string | undefined,
    controller: AbortController | undefined,
    dedicated: boolean
  ): Effect.Effect<BackendResponse, Error> =>
    // a controller comes from `within`'s deadline, which it takes only when not tracing
    traced === undefined || controller !== undefined
      ? backend.request({ method, url, headers, body, controller, dedicated })
      : Effect.withFiber<BackendResponse, Error>((fiber) =>
        tracing(fiber)
          ? traced.request({ method, url, headers, body, controller: undefined })
          : backend.request({ method, url, headers, body, controller, dedicated })
      )
  return {
    url,
    viaHttpClient: traced === undefined,
    post: (message, headers, controller, dedicated = false) =>
      Effect.mapError(
        request(
          "POST",
          { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
          JsonRpc.encode(message),
          controller,
          dedicated
        ),
        postFailed
      ),
    get: (headers, lastEventId) =>
      within(
        timeoutMs,
        () => timedOut("GET", url, timeoutMs),
        (controller) =>
          Effect.mapError(
            request(
              "GET",
              lastEventId === undefined
                ? { ...headers, accept: "text/event-stream" }
                : { ...headers, accept: "text/event-stream", "last-event-id": lastEventId },
              undefined,
              controller,
              // without a controller, `within` races the exchange in a fiber of its own that ends with the headers
              controller !== undefined
            ),
            getFailed
          )
      ),
    // A scope closed by an interruption (Ctrl-C in `emcp`, a SIGTERM) still DELETEs the session: the
    // DELETE runs uninterruptibly, as finalizers do (made interruptible there, it was interrupted at
    // once). Its bound is then an abort (a deadline), or, for a backend without abort signals, the
    // race of `within`, which must interrupt: that one runs interruptibly in a fiber of its own, joined.
    del: (headers, timeout) => {
      const del = within(
        Duration.toMillis(timeout),
        () => timedOut("DELETE", url, Duration.toMillis(timeout)),
        (controller) => Effect.flatMap(request("DELETE", headers, undefined, controller, false), release)
      ).pipe(Effect.catchCause((cause) => Effect.logDebug("DELETE of the session failed", cause)))
      return deadlines !== undefined ? del : del.pipe(Effect.interruptible, Effect.forkDetach, Effect.flatMap(Fiber.join))
    },
    bounded: (what, f) => within(timeoutMs, () => timedOut(what, url, timeoutMs), f)
  }
}
