import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Effect from "effect/Effect"
import * as Transport from "@effect-mcp/mcp/Transport"

// two engines over an in-memory pair: the "server" echoes params back
const program = Effect.scoped(Effect.gen(function*() {
  const pair = yield* Transport.makeMemoryPair()
  yield* Protocol.make(pair.server, {
    side: "server",
    onRequest: ({ request }) => Effect.succeed({ echo: request.params ?? {} }),
    onNotification: () => Effect.void
  })
  const client = yield* Protocol.make(pair.client, {
    side: "client",
    onRequest: () => Effect.succeed({}),
    onNotification: () => Effect.void
  })
  return yield* client.request("echo", { text: "hi" }, { timeout: "5 seconds" }) // { echo: { text: "hi" } }
}))
export {}
