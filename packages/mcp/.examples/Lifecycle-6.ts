import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.serverCapabilityFor("resources/subscribe") // ["resources", "subscribe"]
Lifecycle.serverCapabilityFor("ping") // undefined
export {}
