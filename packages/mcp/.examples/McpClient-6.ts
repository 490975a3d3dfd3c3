import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  yield* client.listen({ toolsListChanged: true, resources: ["file:///notes.md"] }).pipe(
    Stream.runForEach((n) => Effect.log(n.method))
  )
})
export {}
