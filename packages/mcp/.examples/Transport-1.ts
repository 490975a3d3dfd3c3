import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const pair = yield* Transport.makeMemoryPair()
  // provide pair.server to a server, pair.client to a client
})
export {}
