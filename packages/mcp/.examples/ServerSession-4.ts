import * as ServerSession from "@effect-mcp/mcp/ServerSession"
import * as Effect from "effect/Effect"

const debugOnly = Effect.gen(function*() {
  const session = yield* ServerSession.ServerSession
  if (ServerSession.logs(session, "debug")) {
    // build the expensive debug payload only when someone reads it
  }
})
export {}
