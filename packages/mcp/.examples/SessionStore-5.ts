import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Effect from "effect/Effect"

// the records of one memory fleet with the bus of another
const mixed = Effect.gen(function*() {
  const records = (yield* SessionStore.makeMemoryFleet()).instance("a")
  const bus = (yield* SessionStore.makeMemoryFleet()).instance("a")
  return SessionStore.fromParts(records, bus)
})
export {}
