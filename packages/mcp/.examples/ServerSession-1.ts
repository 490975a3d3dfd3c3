import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as Effect from "effect/Effect"

// inside a tool handler: start background work that reports later
const startJob = Effect.gen(function*() {
  const session = yield* ServerSession
  yield* Effect.forkDetach(
    Effect.sleep("1 second").pipe(Effect.andThen(session.log("info", "job finished")))
  )
})
export {}
