import * as Transport from "@effect-mcp/mcp/Transport"
import { TransportError } from "@effect-mcp/mcp/McpError"

const frame = Transport.exchangeFailed(1, new TransportError({ reason: "Connect", message: "refused" }))
export {}
