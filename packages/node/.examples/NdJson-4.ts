import * as NdJson from "@effect-mcp/node/NdJson"
import * as Effect from "effect/Effect"
import { PassThrough } from "node:stream"

const program = Effect.scoped(Effect.gen(function*() {
  const input = new PassThrough()
  const reader = yield* NdJson.makeReader(input)
  input.end('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
  return yield* reader.pull // [the notification]
}))
export {}
