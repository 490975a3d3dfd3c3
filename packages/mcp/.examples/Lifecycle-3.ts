import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.negotiate("2024-11-05") // "2024-11-05"
Lifecycle.negotiate(undefined) // "2025-11-25"
export {}
