import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const program = Effect.scoped(Effect.gen(function*() {
  const pair = yield* Transport.makeMemoryPair()
  yield* pair.server.send({ jsonrpc: "2.0", method: "notifications/message" })
  return yield* Stream.runHead(Transport.incoming(pair.client)) // the notification
}))
export {}
