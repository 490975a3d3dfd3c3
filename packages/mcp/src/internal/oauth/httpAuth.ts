/**
 * The hook of authorization into the HTTP client transports: an `HttpClient`
 * that puts the credentials (a Bearer token, or a DPoP-bound token with a
 * fresh proof) on every exchange with the server and, when one is refused
 * (401, or 403 `insufficient_scope`), obtains new ones and sends the
 * exchange again (at most three times: a stored token refused, a new one,
 * and a DPoP nonce the server asks for). Request bodies are text: sending
 * one twice is safe.
 */
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ClientAuth } from "./authorizer.js"

const release = (response: HttpClientResponse.HttpClientResponse) =>
  response.stream.pipe(Stream.runDrain, Effect.timeout(Duration.seconds(1)), Effect.ignore)

/** `client` with the credentials of `auth` for the server at `server`. */
export const authorized = (client: HttpClient.HttpClient, auth: ClientAuth, server: URL): HttpClient.HttpClient =>
  HttpClient.transform(client, (_, request) => {
    const url = new URL(request.url)
    const attempt = (retries: number): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
      Effect.gen(function*() {
        const presented = yield* auth.present(server, request.method, url)
        const response = yield* client.execute(
          presented === undefined ? request : HttpClientRequest.setHeaders(request, presented.headers)
        )
        const { status } = response
        const nonce = response.headers["dpop-nonce"]
        if (status !== 401 && status !== 403) {
          if (status >= 200 && status < 300) auth.accepted(server, nonce)
          return response
        }
        if (retries === 0) return response
        const again = yield* auth.challenged(server, presented?.token, status, response.headers["www-authenticate"], nonce).pipe(
          Effect.mapError((error) =>
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({ request, cause: error, description: error.message })
            })
          )
        )
        if (!again) return response
        yield* release(response)
        return yield* attempt(retries - 1)
      })
    return attempt(3)
  })
