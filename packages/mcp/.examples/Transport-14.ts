import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"

const program = Effect.scoped(Effect.gen(function*() {
  const pair = yield* Transport.makeMemoryPair()
  const serverTransport = Transport.layer(pair.server) // give it to McpServer.run
}))
export {}
