/**
 * The hook of authorization into the HTTP client transports: an `HttpClient`
 * that puts the bearer token on every exchange with the server and, when one
 * is refused (401, or 403 `insufficient_scope`), obtains a new token and
 * sends the exchange again (at most twice). Request bodies are text: sending one twice
 * is safe.
 * @internal
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ClientAuth } from "./authorizer.js"

const release = (response: HttpClientResponse.HttpClientResponse) =>
  response.stream.pipe(Stream.runDrain, Effect.timeout(Duration.seconds(1)), Effect.ignore)

/** `client` with the bearer tokens of `auth` for the server at `server`. */
export const authorized = (client: HttpClient.HttpClient, auth: ClientAuth, server: URL): HttpClient.HttpClient =>
  HttpClient.transform(client, (_, request) => {
    const send = (token: string | undefined) =>
      client.execute(token === undefined ? request : HttpClientRequest.bearerToken(request, token))
    // a refused exchange is sent again with a new token; twice at most, as the first new token may
    // be one that was stored (or got by another exchange) and is refused too
    const attempt = (retries: number): Effect.Effect<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError> =>
      Effect.gen(function*() {
        const used = yield* auth.token(server)
        const response = yield* send(used)
        const { status } = response
        if (status !== 401 && status !== 403) {
          if (status >= 200 && status < 300) auth.accepted(server)
          return response
        }
        if (retries === 0) return response
        const again = yield* auth.challenged(server, used, status, response.headers["www-authenticate"]).pipe(
          Effect.mapError((error) =>
            new HttpClientError.RequestError({ request, reason: "Transport", cause: error, description: error.message })
          )
        )
        if (!again) return response
        yield* release(response)
        return yield* attempt(retries - 1)
      })
    return attempt(2)
  })
