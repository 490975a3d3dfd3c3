/**
 * HTTP with the authorization server and the resource's metadata: `fetch`
 * (global or the user's) bounded by Effect's Clock, and `oauth4webapi`,
 * loaded on first use so that clients without authorization never load it.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import { OAuthError } from "./error.js"

export type Lib = typeof Oauth

let loaded: Promise<Lib> | undefined

/** `oauth4webapi`, imported once. */
export const lib: Effect.Effect<Lib> = Effect.promise(() => (loaded ??= import("oauth4webapi")))

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface Http {
  readonly fetch: Fetch
  readonly timeout: Duration.Duration
  /** Whether `url` may be plain http (loopback hosts, or when the user allows it). */
  readonly insecure: (url: URL) => boolean
}

const loopback = (host: string) => host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.startsWith("127.")

export const make = (options: {
  readonly fetch?: Fetch | undefined
  readonly timeout?: Duration.Input | undefined
  readonly allowHttp?: boolean | undefined
}): Http => ({
  fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  timeout: Duration.fromInputUnsafe(options.timeout ?? Duration.seconds(30)),
  insecure: (url) => options.allowHttp === true || (url.protocol === "http:" && loopback(url.hostname))
})

/** What went wrong, in one line (never a token: error bodies of OAuth endpoints carry none). */
export const describe = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const e = error as { message?: unknown; error?: unknown; error_description?: unknown; cause?: unknown }
  if (typeof e.error === "string") {
    return `${e.error}${typeof e.error_description === "string" ? `: ${e.error_description}` : ""}`
  }
  const message = typeof e.message === "string" ? e.message : String(error)
  // oauth4webapi's "not a conform response" errors carry the response: name its status
  if (e.cause instanceof Response) return `${message} (HTTP ${e.cause.status})`
  const cause = e.cause as { message?: unknown; code?: unknown } | undefined
  const inner = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined
  return inner === undefined || message.includes(inner) ? message : `${message} (${inner})`
}

/**
 * Runs a promise of an exchange with the authorization server: aborted when
 * interrupted, bounded by the timeout, its failure described.
 */
export const run = <A>(
  http: Http,
  reason: OAuthError["reason"],
  what: string,
  f: (signal: AbortSignal) => Promise<A>
): Effect.Effect<A, OAuthError> =>
  Effect.tryPromise({
    try: f,
    catch: (cause) => new OAuthError({ reason, message: `${what}: ${describe(cause)}`, cause })
  }).pipe(
    Effect.timeoutOrElse({
      duration: http.timeout,
      orElse: () =>
        Effect.fail(
          new OAuthError({ reason: "Timeout", message: `${what}: no answer within ${Duration.toMillis(http.timeout)} ms` })
        )
    })
  )

/** GETs JSON; `undefined` when the answer is a 4xx (the document is not there). */
export const getJson = (
  http: Http,
  reason: OAuthError["reason"],
  url: URL
): Effect.Effect<{ readonly status: number; readonly body: unknown } | undefined, OAuthError> =>
  run(http, reason, `GET ${url.href}`, async (signal) => {
    const response = await http.fetch(url, { headers: { accept: "application/json" }, signal })
    if (response.status >= 400 && response.status < 500) {
      await response.body?.cancel()
      return undefined
    }
    const text = await response.text()
    if (response.status !== 200) throw new Error(`answered HTTP ${response.status}`)
    try {
      return { status: response.status, body: JSON.parse(text) as unknown }
    } catch {
      throw new Error(`answered something that is not JSON: ${JSON.stringify(text.slice(0, 80))}`)
    }
  })
