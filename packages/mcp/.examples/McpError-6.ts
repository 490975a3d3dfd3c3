import type { TransportError } from "@effect-mcp/mcp/McpError"

const refused = (error: TransportError) => error.reason === "Connect" && error.code === "ECONNREFUSED"
const portInUse = (error: TransportError) => error.reason === "Listen" && error.message.includes("EADDRINUSE")
export {}
