import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.allowsBatches("2025-03-26") // true
Lifecycle.allowsBatches("2025-11-25") // false
export {}
