/**
 * What `FetchStreamableHttpClient` loads on first use (a dynamic `import()`),
 * for what needs an `effect/http` `HttpClient` over the same `fetch`: the
 * legacy HTTP+SSE fallback, exchanges under a tracer that collects spans,
 * and `auth` (whose sign-in and retries wrap an `HttpClient`). A session
 * that needs none of them never loads `effect/http`.
 */
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as Effect from "effect/Effect"
import type { ClientAuth } from "../oauth/authorizer.js"
import { authorized } from "../oauth/httpAuth.js"
import * as LegacyClient from "../legacy/client.js"
import type * as Backend from "./backend.js"
import { fromHttpClient } from "./httpClientBackend.js"
import type { Fetch } from "./fetchBackend.js"
import type { Sources } from "./transport.js"

/** `effect/http`'s fetch `HttpClient`, over `fetch` when one is given. */
const fetchClient = (fetch: Fetch | undefined): HttpClient.HttpClient => {
  const client = Effect.runSync(Effect.provide(Effect.service(HttpClient.HttpClient), FetchHttpClient.layer))
  return fetch === undefined
    ? client
    : HttpClient.transformResponse(client, (effect) => Effect.provideService(effect, FetchHttpClient.Fetch, fetch))
}

/** The `HttpClient` of one transport: its backend for traced exchanges, and the provision of it. */
export interface Http {
  readonly backend: Backend.Backend
  readonly withHttpClient: Sources["withHttpClient"]
}

export const make = (fetch: Fetch | undefined): Http => {
  const client = fetchClient(fetch)
  return {
    backend: fromHttpClient(client),
    withHttpClient: (effect) => Effect.provideService(effect, HttpClient.HttpClient, client)
  }
}

/** With `auth`, every exchange goes through the authorized `HttpClient` (as `StreamableHttpClient.make` has it). */
export const authorizedSources = (fetch: Fetch | undefined, auth: ClientAuth, url: URL): Sources => {
  const client = authorized(fetchClient(fetch), auth, url)
  return {
    backend: fromHttpClient(client),
    traced: undefined,
    withHttpClient: (effect) => Effect.provideService(effect, HttpClient.HttpClient, client),
    legacy: (legacyOptions) => LegacyClient.make(legacyOptions, fromHttpClient(client))
  }
}
