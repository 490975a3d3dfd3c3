import * as Transport from "@effect-mcp/mcp/Transport"
import * as NdJson from "@effect-mcp/node/NdJson"
import * as Effect from "effect/Effect"
import { PassThrough } from "node:stream"

const transport = Effect.gen(function*() {
  const input = new PassThrough()
  const output = new PassThrough()
  const reader = yield* NdJson.makeReader(input)
  const writer = yield* NdJson.makeWriter(output)
  return {
    ...Transport.fromFeed(reader.feed),
    send: (message) => writer.send(message),
    sendNow: (message) => writer.sendNow(message)
  } satisfies Transport.TransportShape
})
export {}
