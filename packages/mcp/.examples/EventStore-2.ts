import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as Effect from "effect/Effect"

const program = Effect.scoped(Effect.gen(function*() {
  const store = yield* EventStore.makeMemory()
  const first = yield* store.append("session-1", "s1", '{"jsonrpc":"2.0","method":"a"}')
  yield* store.append("session-1", "s1", '{"jsonrpc":"2.0","method":"b"}')
  return yield* store.replayAfter("session-1", first) // the "b" event
}))
export {}
