import * as NdJson from "@effect-mcp/node/NdJson"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const writer = yield* NdJson.makeWriter(process.stdout)
  yield* writer.send(JsonRpc.notification("notifications/initialized"))
}).pipe(Effect.scoped)
export {}
