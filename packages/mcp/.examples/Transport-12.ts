import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"

// a transport that logs what it sends, over whatever transport is provided
const logged = Effect.gen(function*() {
  const transport = yield* Transport.Transport
  return Transport.layer({
    ...transport,
    send: (message, route) => Effect.andThen(Effect.logDebug("send", message), transport.send(message, route))
  })
})
export {}
