import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"

// two endpoints in one process sharing their sessions (tests, or the shape of a fleet)
const pair = Effect.gen(function*() {
  const fleet = yield* SessionStore.makeMemoryFleet()
  const a = yield* StreamableHttpServer.make({ sessionStore: fleet.instance("a"), eventStore: fleet.events })
  const b = yield* StreamableHttpServer.make({ sessionStore: fleet.instance("b"), eventStore: fleet.events })
  return [a, b] as const
})
export {}
