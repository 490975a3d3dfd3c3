import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.isSupported("2025-06-18") // true
Lifecycle.isSupported("2026-01-01") // false
export {}
