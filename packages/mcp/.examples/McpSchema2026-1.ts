import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
McpSchema2026.PROTOCOL_VERSION // "2026-07-28"
export {}
