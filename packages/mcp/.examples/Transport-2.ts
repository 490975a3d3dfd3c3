import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import type * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"

// frames in from a queue, messages out to a callback; the engine reads until the fiber is interrupted
const fromQueue = (
  frames: Queue.Dequeue<JsonRpc.Frame>,
  write: (message: JsonRpc.Outgoing) => void
): Transport.TransportShape => ({
  run: (receiver) =>
    Effect.forever(Effect.flatMap(
      Queue.takeBetween(frames, 1, Number.POSITIVE_INFINITY),
      // what a read leaves to run is run before the next read is taken
      (read) => receiver.frames(read) ?? Effect.void
    )),
  send: (message) => Effect.sync(() => write(message))
})
export {}
