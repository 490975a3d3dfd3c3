import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.negotiate("2025-06-18") // "2025-06-18"
Lifecycle.negotiate("1999-01-01") // "2025-11-25", our latest
export {}
