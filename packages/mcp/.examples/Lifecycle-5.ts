import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.allowsElicitation("2025-03-26") // false
export {}
