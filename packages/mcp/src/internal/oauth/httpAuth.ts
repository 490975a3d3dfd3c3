/**
 * The hook of authorization into the HTTP client transports: an `HttpClient`
 * that puts the credentials (a Bearer token, or a DPoP-bound token with a
 * fresh proof) on every exchange with the server and, when one is refused
 * (401, or 403 `insufficient_scope`), obtains new ones and sends the
 * exchange again (`signing`: the rule, shared with the fetch transport's
 * `backendAuth`).
 */
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ClientAuth } from "./authorizer.js"
import { signed } from "./signing.js"

const release = (response: HttpClientResponse.HttpClientResponse) =>
  response.stream.pipe(Stream.runDrain, Effect.timeout(Duration.seconds(1)), Effect.ignore)

/** `client` with the credentials of `auth` for the server at `server` (the rule: `signing`). */
export const authorized = (client: HttpClient.HttpClient, auth: ClientAuth, server: URL): HttpClient.HttpClient =>
  HttpClient.transform(client, (_, request) =>
    Effect.map(
      signed(
        auth,
        server,
        request.method,
        new URL(request.url),
        (headers) =>
          Effect.map(client.execute(headers === undefined ? request : HttpClientRequest.setHeaders(request, headers)), (response) => ({
            response,
            status: response.status,
            header: (name: string) => response.headers[name],
            release: release(response)
          })),
        (error) =>
          new HttpClientError.HttpClientError({
            reason: new HttpClientError.TransportError({ request, cause: error, description: error.message })
          })
      ),
      (answer) => answer.response
    ))
