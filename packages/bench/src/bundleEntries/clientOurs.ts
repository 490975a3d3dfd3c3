/**
 * The browser client measured by the bundle-size step (`src/bundleSize.ts`): `McpClient` over
 * `FetchStreamableHttpClient` (the streamable HTTP transport on `fetch`, no `effect/http`),
 * connecting, listing and calling a tool, as a page would.
 * @internal
 */
import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const ClientLive = McpClient.layer({ name: "page", version: "1.0.0" }).pipe(
  Layer.provide(FetchStreamableHttpClient.layer({ url: "http://127.0.0.1:3000/mcp" }))
)

export const run = (): Promise<unknown> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const client = yield* McpClient.McpClient
      yield* client.listToolsAll()
      return yield* client.callTool("echo", { text: "hi" })
    }).pipe(Effect.provide(ClientLive))
  )
