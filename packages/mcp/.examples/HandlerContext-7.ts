import * as HandlerContext from "@effect-mcp/mcp/HandlerContext"
import type * as Protocol from "@effect-mcp/mcp/Protocol"
import type { ServerSessionShape } from "@effect-mcp/mcp/ServerSession"
import * as Effect from "effect/Effect"

declare const protocol: Protocol.Protocol
declare const session: ServerSessionShape

const onRequest = (incoming: Protocol.IncomingRequest) =>
  Effect.flatMap(HandlerContext.make({ protocol, incoming, session }), (ctx) => Effect.succeed({ method: ctx.method }))
export {}
