/**
 * The streamable HTTP client transport over the Fetch API, for browsers,
 * workers, Deno, Bun and Node: `StreamableHttpClient`'s transport (the same
 * sessions, headers, resumption, failures in words, legacy fallback) with
 * its exchanges sent by `fetch` directly rather than through `effect/http`'s
 * `HttpClient`. A page that bundles it carries no `effect/http`: the
 * `HttpClient` is loaded on first use by what needs one (the 2024-11-05
 * HTTP+SSE fallback, a tracer that collects spans, `auth`).
 *
 * A cross-origin page reads the `Mcp-Session-Id` of the server's answer only
 * when the server exposes it (`Access-Control-Expose-Headers`: the `cors`
 * option of `StreamableHttpServer` and `LegacySseServer` does).
 *
 * @example
 * ```ts
 * import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Layer from "effect/Layer"
 *
 * const ClientLive = McpClient.layer({ name: "page", version: "1.0.0" }).pipe(
 *   Layer.provide(FetchStreamableHttpClient.layer({ url: "https://mcp.example.com/mcp" }))
 * )
 * ```
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as FetchBackend from "./internal/httpClient/fetchBackend.js"
import type * as FetchHttp from "./internal/httpClient/fetchHttpClient.js"
import * as HttpTransport from "./internal/httpClient/transport.js"
import type { StreamableHttpClientOptions } from "./StreamableHttpClient.js"
import { Transport, type TransportShape } from "./Transport.js"

/**
 * The options of the fetch transport: those of `StreamableHttpClient`, and
 * the `fetch` to send with.
 *
 * @since 0.1.0
 * @category models
 */
export interface FetchStreamableHttpClientOptions extends StreamableHttpClientOptions {
  /**
   * Sends the exchanges (default: `globalThis.fetch`). Give one to set fetch
   * options (`credentials: "include"`), to go through a proxy or a service
   * binding, or in a test.
   */
  readonly fetch?: ((input: URL, init: RequestInit) => Promise<Response>) | undefined
}

const load = () => import("./internal/httpClient/fetchHttpClient.js")

/**
 * Builds the transport. Nothing goes on the wire until the engine sends
 * `initialize`; closing the scope aborts every stream and DELETEs the session.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
 *
 * const transport = FetchStreamableHttpClient.make({ url: "https://mcp.example.com/mcp" })
 * // Effect<TransportShape, never, Scope>
 * ```
 */
export const make = (options: FetchStreamableHttpClientOptions): Effect.Effect<TransportShape, never, Scope.Scope> => {
  const given = options.fetch
  const url = new URL(options.url)
  const auth = options.auth
  if (auth !== undefined) {
    return Effect.flatMap(
      Effect.promise(load),
      (FetchHttp) => Effect.withFiber((fiber) => HttpTransport.make(fiber, options, url, FetchHttp.authorizedSources(given, auth, url)))
    )
  }
  return Effect.withFiber((fiber) => {
    // the HttpClient of this transport, made on first use
    let http: FetchHttp.Http | undefined
    const httpClient = Effect.suspend(() =>
      http !== undefined ? Effect.succeed(http) : Effect.map(Effect.promise(load), (FetchHttp) => (http ??= FetchHttp.make(given)))
    )
    // called as a function of its own (a browser's `fetch` refuses another `this`)
    const backend = FetchBackend.make(given ?? ((input, init) => globalThis.fetch(input, init)))
    return HttpTransport.make(fiber, options, url, {
      backend,
      traced: {
        signals: false,
        request: (request) => Effect.flatMap(httpClient, (h) => h.backend.request(request))
      },
      withHttpClient: (effect) => Effect.flatMap(httpClient, (h) => h.withHttpClient(effect)),
      // the legacy transport over the same fetch backend: no effect/http
      legacy: (legacyOptions) =>
        Effect.flatMap(Effect.promise(() => import("./internal/legacy/client.js")), (LegacyClient) => LegacyClient.make(legacyOptions, backend))
    })
  })
}

/**
 * The fetch transport as a Layer: nothing to provide.
 *
 * @since 0.1.0
 * @category layers
 * @example
 * ```ts
 * import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Layer from "effect/Layer"
 *
 * const ClientLive = McpClient.layer({ name: "page", version: "1.0.0" }).pipe(
 *   Layer.provide(FetchStreamableHttpClient.layer({
 *     url: "https://mcp.example.com/mcp",
 *     fetch: (input, init) => fetch(input, { ...init, credentials: "include" })
 *   }))
 * )
 * ```
 */
export const layer = (options: FetchStreamableHttpClientOptions): Layer.Layer<Transport> =>
  Layer.effect(Transport, make(options))
