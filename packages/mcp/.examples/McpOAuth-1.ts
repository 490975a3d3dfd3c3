import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as Effect from "effect/Effect"

const transport = Effect.flatMap(McpOAuth.make({ scope: "mcp:tools" }), (auth) =>
  StreamableHttpClient.make({ url: "https://example.com/mcp", auth }))
export {}
