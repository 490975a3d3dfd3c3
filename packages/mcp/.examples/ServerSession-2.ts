import * as ServerSession from "@effect-mcp/mcp/ServerSession"
import * as Effect from "effect/Effect"

const whoIsThere = Effect.gen(function*() {
  const session = yield* ServerSession.ServerSession
  const client = session.clientInfo()
  yield* session.log("debug", `serving ${client?.name ?? "an unknown client"} (${session.protocolVersion()})`)
})
export {}
