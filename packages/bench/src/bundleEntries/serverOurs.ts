/**
 * The fetch-handler server measured by the bundle-size step (`src/bundleSize.ts`): one tool served
 * by `StreamableHttpServer` as a web `Request` → `Response` handler (`effect/http`'s
 * `HttpEffect.toWebHandlerLayer`), as a Worker, Deno or Bun module would export it.
 * @internal
 */
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"
import * as HttpEffect from "effect/http/HttpEffect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const ServerLive = McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "worker", version: "1.0.0" })))

const { dispose, handler } = HttpEffect.toWebHandlerLayer(
  Effect.flatMap(StreamableHttpServer.StreamableHttpServer, (endpoint) => endpoint.app),
  StreamableHttpServer.layer().pipe(Layer.provide(ServerLive))
)

export default { fetch: handler, close: dispose }
