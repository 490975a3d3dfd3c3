/**
 * The streamable HTTP client's suites of `@effect-mcp/mcp` (resumption with
 * Last-Event-ID, re-initialization on 404, legacy fallback, failures named,
 * timeouts, tracing) run again over `NodeStreamableHttpClient`'s own backend
 * (undici without `@effect/platform`'s `HttpClient`), which the suites there
 * do not reach.
 */
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import { testHttp } from "../../mcp/test/utils/testHttp.js"

testHttp.layer = NodeStreamableHttpClient.layerHttpClient
await import("../../mcp/test/StreamableHttpClient.test.js")
await import("../../mcp/test/HttpClientFailures.test.js")
