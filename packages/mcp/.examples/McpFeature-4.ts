import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"

const Readme = McpServer.resource({
  uri: "docs://readme",
  name: "readme",
  mimeType: "text/markdown",
  content: Effect.succeed("# Hello") // or bytes (sent as base64), or contents objects
})
export {}
