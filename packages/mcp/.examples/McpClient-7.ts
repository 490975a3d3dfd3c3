import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  yield* client.setLogLevel("info")
  const tools = yield* client.listToolsAll()
  return tools.map((tool) => tool.name)
})
export {}
