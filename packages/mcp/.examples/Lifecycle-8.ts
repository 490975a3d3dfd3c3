import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.hasCapability({ resources: { subscribe: true } }, ["resources", "subscribe"]) // true
export {}
