import type { McpError } from "@effect-mcp/mcp/McpError"

const describe = (error: McpError) => `${error.method ?? "request"} failed: ${error.code} ${error.message}`
export {}
