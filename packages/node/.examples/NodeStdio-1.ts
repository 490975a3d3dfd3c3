import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import { Transport } from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const transport = yield* Transport
  const engine = yield* Protocol.make(transport, {
    side: "client",
    onRequest: () => Effect.succeed({}),
    onNotification: () => Effect.void
  })
  yield* engine.request("ping")
}).pipe(Effect.scoped, Effect.provide(NodeStdio.layerClient({ command: "my-mcp-server" })))
export {}
