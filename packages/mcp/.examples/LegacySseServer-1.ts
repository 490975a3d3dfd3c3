import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
import * as Effect from "effect/Effect"

const endpoints = Effect.gen(function*() {
  const legacy = yield* LegacySseServer.make({ messagesPath: "/messages" })
  // mount legacy.sse at GET /sse and legacy.messages at POST /messages
})
export {}
