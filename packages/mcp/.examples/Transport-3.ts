import type * as Transport from "@effect-mcp/mcp/Transport"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"

// a transport that noticed the loss outside any call offers to `losses`
const sessionLoss = (lost: () => boolean, losses: Queue.Queue<void>): Transport.SessionLoss => ({
  isLost: lost,
  losses: Stream.fromQueue(losses)
})
export {}
