import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Effect from "effect/Effect"

const withKeepAlive = (protocol: Protocol.Protocol) =>
  // ping every 30 s; after 3 unanswered pings in a row the connection closes
  Effect.forkScoped(Protocol.keepAlive(protocol, { interval: "30 seconds", maxMissed: 3 }))
export {}
