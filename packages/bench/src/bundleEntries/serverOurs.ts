/**
 * The fetch-handler server measured by the bundle-size step (`src/bundleSize.ts`): one tool served
 * by `StreamableHttpServer.toFetchHandler` as a web `Request` → `Response` handler, as a Worker,
 * Deno or Bun module would export it.
 * @internal
 */
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const ServerLive = McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "worker", version: "1.0.0" })))

const mcp = StreamableHttpServer.toFetchHandler(ServerLive)

export default { fetch: mcp.fetch, close: mcp.close }
