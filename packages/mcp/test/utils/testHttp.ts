/**
 * The HTTP client the streamable HTTP client's tests run over:
 * `@effect/platform-node`'s undici `HttpClient` here; `@effect-mcp/node`'s
 * tests run the same suites over its own backend (`NodeBackend.test.ts`),
 * setting `layer` before importing them.
 */
import type * as HttpClient from "effect/http/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as Layer from "effect/Layer"

export const testHttp: { layer: Layer.Layer<HttpClient.HttpClient> } = { layer: NodeHttpClient.layerUndici }
