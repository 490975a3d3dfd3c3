/**
 * The portable backend of the streamable HTTP client: an `effect/http`
 * `HttpClient` (a module of its own, so that a bundle of the fetch
 * transport does not reach `effect/http` through `backend`).
 */
import type * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { type Backend, type BackendResponse, shortBody } from "./backend.js"

const wrap = (response: HttpClientResponse.HttpClientResponse): BackendResponse => {
  // a getter that copies the headers on every read: read once
  const headers = response.headers
  return {
    status: response.status,
    headers,
    get text() {
      return response.text
    },
    read: (f) => Stream.runForEachWhile(response.stream, (bytes) => Effect.succeed(f(bytes))),
    discard: shortBody(headers["content-length"])
      // an empty body (a 202's) is over already: nothing to read, and no timer (a race of two fibers)
      ? headers["content-length"] === "0" ? Effect.void : Effect.ignore(response.text)
      : response.stream.pipe(Stream.runDrain, Effect.timeout(Duration.seconds(1)), Effect.ignore)
  }
}

/**
 * The portable backend: any `effect/http` `HttpClient`. An exchange is
 * aborted when interrupted before its headers, and when its body stream is
 * dropped; every body is read to its end or dropped (`HttpClient.withScope`
 * would abort even finished exchanges, and each abort builds errors with
 * stack traces).
 */
export const fromHttpClient = (client: HttpClient.HttpClient): Backend => {
  // the requests of one URL (a transport has one) share their parsed base
  let bases: { readonly url: URL; readonly post: HttpClientRequest.HttpClientRequest; readonly get: HttpClientRequest.HttpClientRequest } | undefined
  const base = (url: URL) => {
    if (bases?.url !== url) bases = { url, post: HttpClientRequest.post(url), get: HttpClientRequest.get(url) }
    return bases
  }
  return {
    signals: false,
    request: ({ body, headers, method, url }) => {
      const request = method === "POST"
        ? HttpClientRequest.bodyText(HttpClientRequest.setHeaders(base(url).post, headers), body ?? "", "application/json")
        : method === "GET"
        ? HttpClientRequest.setHeaders(base(url).get, headers)
        : HttpClientRequest.setHeaders(HttpClientRequest.delete(url), headers)
      return Effect.map(client.execute(request), wrap)
    }
  }
}
