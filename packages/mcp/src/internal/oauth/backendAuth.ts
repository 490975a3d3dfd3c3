/**
 * Authorization on a streamable HTTP `Backend` (the fetch transport's): the rule of `signing`
 * over backend exchanges, so that a page signing in loads no `effect/http`. A sign-in that fails
 * fails the exchange with an error whose `cause` is the `OAuthError` (`httpClient/failure` names it).
 */
import * as Effect from "effect/Effect"
import { type Backend, header } from "../httpClient/backend.js"
import type { ClientAuth } from "./authorizer.js"
import { signed } from "./signing.js"

export const authorizedBackend = (backend: Backend, auth: ClientAuth, server: URL): Backend => ({
  signals: backend.signals,
  request: (request) =>
    Effect.map(
      signed(
        auth,
        server,
        request.method,
        request.url,
        (headers) =>
          Effect.map(
            backend.request(headers === undefined ? request : { ...request, headers: { ...request.headers, ...headers } }),
            (response) => ({ response, status: response.status, header: (name: string) => header(response, name), release: response.discard })
          ),
        (error) => new Error(`Signing in failed: ${error.message}`, { cause: error })
      ),
      (answer) => answer.response
    )
})
