/**
 * The one rule of a signed exchange with an MCP server, whatever sends it (`httpAuth`'s
 * `HttpClient`, the fetch transport's backend): the credentials of `auth` on the request; a
 * 401, or 403 `insufficient_scope`, asks `auth` for new ones and sends it again (at most three
 * times: a stored token refused, a new one, and a DPoP nonce the server asks for); a 2xx tells
 * `auth` the exchange was accepted. Request bodies are text: sending one twice is safe.
 */
import * as Effect from "effect/Effect"
import type { ClientAuth } from "./authorizer.js"
import type { OAuthError } from "./error.js"

/** What the loop reads of an answer, and how it drops one it sends again. */
export interface Answer {
  readonly status: number
  readonly header: (name: string) => string | undefined
  readonly release: Effect.Effect<void>
}

export const signed = <R extends Answer, E>(
  auth: ClientAuth,
  server: URL,
  method: string,
  url: URL,
  send: (headers: Readonly<Record<string, string>> | undefined) => Effect.Effect<R, E>,
  signInFailed: (error: OAuthError) => E
): Effect.Effect<R, E> => {
  const attempt = (retries: number): Effect.Effect<R, E> =>
    Effect.gen(function*() {
      const presented = yield* auth.present(server, method, url)
      const response = yield* send(presented?.headers)
      const { status } = response
      const nonce = response.header("dpop-nonce")
      if (status !== 401 && status !== 403) {
        if (status >= 200 && status < 300) auth.accepted(server, nonce)
        return response
      }
      if (retries === 0) return response
      const again = yield* auth.challenged(server, presented?.token, status, response.header("www-authenticate"), nonce).pipe(
        Effect.mapError(signInFailed)
      )
      if (!again) return response
      yield* response.release
      return yield* attempt(retries - 1)
    })
  return attempt(3)
}
