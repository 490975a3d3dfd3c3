import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const test = Effect.scoped(Effect.gen(function*() {
  const { client, server, pair } = yield* Transport.layerMemoryPair()
  // provide `server` to the server under test, then:
  const clientLayer = McpClient.layer({ name: "test", version: "0" }).pipe(Layer.provide(client))
  return pair.wire // what crossed, as JSON text
}))
export {}
