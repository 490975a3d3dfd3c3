import * as Transport from "@effect-mcp/mcp/Transport"
import * as Console from "effect/Console"

const logged = (transport: Transport.TransportShape) =>
  Transport.tap(transport, {
    incoming: (frame) => Console.log("in", frame),
    outgoing: (message) => Console.log("out", message)
  })
export {}
