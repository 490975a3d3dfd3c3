import type { ProtocolError } from "@effect-mcp/mcp/McpError"

const retryable = (error: ProtocolError) => error.reason === "Timeout" || error.reason === "ConnectionClosed"
export {}
