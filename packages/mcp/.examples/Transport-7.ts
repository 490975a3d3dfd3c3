import * as Transport from "@effect-mcp/mcp/Transport"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import type { TransportError } from "@effect-mcp/mcp/McpError"

const program = Effect.gen(function*() {
  const queue = yield* Queue.make<JsonRpc.Frame, TransportError | Cause.Done>()
  const { run } = Transport.fromMailbox(queue)
  yield* Queue.offer(queue, { jsonrpc: "2.0", method: "notifications/initialized" })
  yield* Queue.end(queue) // the peer closed: the engine reads this frame, then closes
  return run
})
export {}
