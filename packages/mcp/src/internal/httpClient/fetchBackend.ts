/**
 * The streamable HTTP client's backend over the Fetch API (a browser's, a
 * worker's, Deno's, Bun's, Node's): one `fetch` per exchange, its body read
 * with the stream's reader. No `effect/http` underneath, so a page that
 * bundles `FetchStreamableHttpClient` carries none of it.
 *
 * Every exchange has an `AbortController` (the transport's, when it bounds
 * the exchange in time): interruption before the headers aborts it, and so
 * does dropping a body that is of no use or interrupting its reading.
 */
import * as Effect from "effect/Effect"
import { type Backend, type BackendRequest, type BackendResponse, shortBody } from "./backend.js"

/** A `fetch` function (`globalThis.fetch` or one of a test, a proxy, a service binding). */
export type Fetch = (input: URL, init: RequestInit) => Promise<Response>

const toError = (cause: unknown): Error => cause instanceof Error ? cause : new Error(String(cause))

/** The headers, names in lower case (as the Fetch API gives them; repeated ones joined by it). */
const headersOf = (headers: Headers): Record<string, string> => {
  const record: Record<string, string> = {}
  headers.forEach((value, name) => {
    record[name] = value
  })
  return record
}

/** A promise as an effect: `abort` runs when the fiber is interrupted before it settles. */
const settle = <A>(promise: () => Promise<A>, abort: () => void): Effect.Effect<A, Error> =>
  Effect.callback<A, Error>((resume) => {
    let done = false
    let pending: Promise<A>
    try {
      pending = promise()
    } catch (cause) {
      resume(Effect.fail(toError(cause)))
      return
    }
    pending.then(
      (value) => {
        done = true
        resume(Effect.succeed(value))
      },
      (cause) => {
        done = true
        resume(Effect.fail(toError(cause)))
      }
    )
    return Effect.sync(() => {
      if (!done) abort()
    })
  })

const answer = (response: Response, controller: AbortController): BackendResponse => {
  const headers = headersOf(response.headers)
  const abort = () => controller.abort()
  return {
    status: response.status,
    headers,
    get text() {
      return settle(() => response.text(), abort)
    },
    read: (f) =>
      Effect.callback<void, Error>((resume) => {
        const body = response.body
        if (body === null) {
          resume(Effect.void)
          return
        }
        const reader = body.getReader()
        let done = false
        const finish = (effect: Effect.Effect<void, Error>) => {
          done = true
          resume(effect)
        }
        const pump = (): void => {
          reader.read().then(
            (chunk) => {
              if (done) return
              if (chunk.done) return finish(Effect.void)
              // the reader wants no more: the rest of the body is dropped
              if (!f(chunk.value)) {
                abort()
                return finish(Effect.void)
              }
              pump()
            },
            (cause) => {
              if (!done) finish(Effect.fail(toError(cause)))
            }
          )
        }
        pump()
        return Effect.sync(() => {
          if (done) return
          done = true
          abort()
        })
      }),
    discard: Effect.suspend(() => {
      if (response.body === null || headers["content-length"] === "0") return Effect.void
      // a short body (a 202's, chunked or not) is read to its end (the connection stays usable), a long one is dropped
      if (shortBody(headers["content-length"]) || response.status === 202) return Effect.ignore(settle(() => response.text(), abort))
      abort()
      return Effect.void
    })
  }
}

/**
 * The backend over `fetch`. Abort signals are honoured, so the transport's
 * time bounds are deadlines (one sleeper fiber), not a race per exchange.
 */
export const make = (fetch: Fetch): Backend => ({
  signals: true,
  request: (request: BackendRequest) =>
    Effect.suspend(() => {
      const controller = request.controller ?? new AbortController()
      const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal }
      if (request.body !== undefined) init.body = request.body
      return Effect.map(settle(() => fetch(request.url, init), () => controller.abort()), (response) => answer(response, controller))
    })
})
