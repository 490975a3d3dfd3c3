/**
 * The streamable HTTP client transport over the Fetch API, for browsers,
 * workers, Deno, Bun and Node: `StreamableHttpClient`'s transport (the same
 * sessions, headers, resumption, failures in words, legacy fallback) with
 * its exchanges sent by `fetch` directly rather than through `effect/http`'s
 * `HttpClient`. A page that bundles it carries no `effect/http`: the
 * 2024-11-05 HTTP+SSE fallback (loaded when a server needs it), the spans of
 * a tracer that collects them, and `auth` run on the same `fetch`.
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
import type { Backend } from "./internal/httpClient/backend.js"
import * as FetchBackend from "./internal/httpClient/fetchBackend.js"
import { traced } from "./internal/httpClient/tracedBackend.js"
import * as HttpTransport from "./internal/httpClient/transport.js"
import type { TransportError } from "./McpError.js"
import type { LegacyFallbackContext, StreamableHttpClientOptions } from "./StreamableHttpClient.js"
import { Transport, type TransportShape } from "./Transport.js"

/**
 * The options of the fetch transport: those of `StreamableHttpClient`, the
 * `fetch` to send with, and a `legacyFallback` function that needs no
 * `HttpClient` (this transport has none).
 *
 * @since 0.1.0
 * @category models
 */
export interface FetchStreamableHttpClientOptions extends Omit<StreamableHttpClientOptions, "legacyFallback"> {
  /**
   * Sends the exchanges (default: `globalThis.fetch`). Give one to set fetch
   * options (`credentials: "include"`), to go through a proxy or a service
   * binding, or in a test.
   */
  readonly fetch?: ((input: URL, init: RequestInit) => Promise<Response>) | undefined
  /**
   * Fall back to the 2024-11-05 HTTP+SSE transport when the initialize POST
   * gets 400/404/405 (default true: the legacy client over the same `fetch`),
   * or the transport a function builds.
   */
  readonly legacyFallback?:
    | boolean
    | ((context: LegacyFallbackContext) => Effect.Effect<TransportShape, TransportError, Scope.Scope>)
    | undefined
}

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
  const url = new URL(options.url)
  // called as a function of its own (a browser's `fetch` refuses another `this`)
  const sent = FetchBackend.make(options.fetch ?? ((input, init) => globalThis.fetch(input, init)))
  const auth = options.auth
  // with `auth`, every exchange is signed (the legacy fallback's too), by code loaded then
  return auth === undefined
    ? build(options, url, sent)
    : Effect.flatMap(Effect.promise(loadExtras), (Extras) => build(options, url, Extras.authorizedBackend(sent, auth, url)))
}

const loadExtras = () => import("./internal/httpClient/fetchExtras.js")

const build = (options: FetchStreamableHttpClientOptions, url: URL, backend: Backend) =>
  Effect.withFiber((fiber) => {
    const fallback = options.legacyFallback
    return HttpTransport.make(fiber, options, url, {
      backend,
      // under a tracer that collects spans: a client span per exchange, its trace context sent
      traced: traced(backend),
      fallback: typeof fallback === "function" ? fallback : undefined,
      // the legacy transport over the same backend, loaded when a server needs it
      legacy: (legacyOptions) => Effect.flatMap(Effect.promise(loadExtras), (Extras) => Extras.legacyClient(legacyOptions, backend))
    })
  })

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
