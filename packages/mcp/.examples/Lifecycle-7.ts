import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.clientCapabilityFor("elicitation/create", { mode: "url" }) // ["elicitation", "url"]
export {}
