/**
 * The hook of authorization into the HTTP client transports: an `HttpClient`
 * that puts the bearer token on every exchange with the server and, when one
 * is refused (401, or 403 `insufficient_scope`), obtains a new token and
 * sends the exchange once more. Request bodies are text: sending one twice
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
    return Effect.gen(function*() {
      const used = yield* auth.token(server)
      const first = yield* send(used)
      const { status } = first
      if (status !== 401 && status !== 403) {
        if (status >= 200 && status < 300) auth.accepted(server)
        return first
      }
      const again = yield* auth.challenged(server, used, status, first.headers["www-authenticate"]).pipe(
        Effect.mapError((error) =>
          new HttpClientError.RequestError({ request, reason: "Transport", cause: error, description: error.message })
        )
      )
      if (!again) return first
      yield* release(first)
      return yield* send(yield* auth.token(server))
    })
  })
