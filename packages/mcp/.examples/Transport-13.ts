import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"

const program = Effect.scoped(Effect.gen(function*() {
  const pair = yield* Transport.makeMemoryPair()
  yield* pair.client.send({ jsonrpc: "2.0", id: 1, method: "ping" })
  return pair.wire // [{ from: "client", json: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }]
}))
export {}
