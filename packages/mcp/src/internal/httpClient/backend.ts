/**
 * What the streamable HTTP client needs of an HTTP client: one request, its
 * status and headers, its body as text or chunk by chunk. The portable
 * backend is `effect/http`'s `HttpClient` (`httpClientBackend`); a platform
 * may provide a cheaper one (`@effect-mcp/node` does, over undici) through
 * `StreamableHttpClient.HttpBackend`, and `fetchBackend` is `fetch` itself. Everything above it (headers, failures
 * in words, timeouts, sessions, resumption) is the same code for both.
 */
import type * as Effect from "effect/Effect"

/** One HTTP request of the transport. */
export interface BackendRequest {
  readonly method: "GET" | "POST" | "DELETE"
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  /** The body of a POST (JSON text). */
  readonly body: string | undefined
  /**
   * The exchange's own controller when the transport bounds it in time: the
   * transport aborts it when the time is up (before the headers or while the
   * body is read), and the backend may abort it too (on interruption). A
   * backend with `signals: false` is given none, and the transport bounds
   * the exchange itself.
   */
  readonly controller: AbortController | undefined
  /**
   * The exchange is sent and its answer read in a fiber that runs it alone
   * (a request's exchange, a GET stream): the backend may abort it when that
   * fiber ends rather than on each interruption (no canceler per wait).
   */
  readonly dedicated?: boolean | undefined
}

/** The answer to a request, from its headers on. */
export interface BackendResponse {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  /** The whole body as text. */
  readonly text: Effect.Effect<string, Error>
  /**
   * Hands the body's chunks to `f` until it returns false (the rest of the
   * body is dropped, which aborts the exchange) or the body ends.
   */
  readonly read: (f: (chunk: Uint8Array) => boolean) => Effect.Effect<void, Error>
  /** Ends an exchange whose body is of no use (read to its end when short, else dropped). */
  readonly discard: Effect.Effect<void>
}

export interface Backend {
  /** Sends a request; succeeds once the answer's headers arrived. Interruption aborts the exchange. */
  readonly request: (request: BackendRequest) => Effect.Effect<BackendResponse, Error>
  /** Whether `request` honours `controller` (then the transport's timeouts cost no fiber). */
  readonly signals: boolean
  /**
   * Waits until a connection whose answer was just read is back in the pool,
   * when the client frees it later than that (undici: one event-loop turn
   * after the response). The requests a session sends right after reading an
   * answer (`notifications/initialized`, the standing GET) wait for it, so that
   * they reuse that connection rather than open another.
   */
  readonly turn?: Effect.Effect<void> | undefined
}

/** A header's value (the first, when repeated). */
export const header = (response: BackendResponse, name: string): string | undefined => {
  const value = response.headers[name]
  return typeof value === "string" ? value : value?.[0]
}

/** Whether a body of this `content-length` is short enough to read to its end when it is of no use. */
export const shortBody = (length: string | ReadonlyArray<string> | undefined): boolean => {
  const n = typeof length === "string" ? Number(length) : NaN
  return Number.isFinite(n) && n <= 65_536
}
