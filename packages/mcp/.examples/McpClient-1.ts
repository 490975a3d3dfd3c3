import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const tools = yield* client.listToolsAll()
  const result = yield* client.callTool("echo", { text: "hi" })
})
// program.pipe(Effect.provide(McpClient.layer({ name: "app", version: "1.0.0" })), Effect.provide(transportLayer))
export {}
