import * as HandlerContext from "@effect-mcp/mcp/HandlerContext"
import type * as Protocol from "@effect-mcp/mcp/Protocol"
import type { ServerSessionShape } from "@effect-mcp/mcp/ServerSession"

declare const protocol: Protocol.Protocol
declare const session: ServerSessionShape
declare const incoming: Protocol.IncomingRequest

const ctx = HandlerContext.unsafeMake({ protocol, incoming, session })
export {}
