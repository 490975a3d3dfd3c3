import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.clientSupports({ elicitation: {} }, "elicitation/create", { mode: "form" }) // true
Lifecycle.clientSupports({ elicitation: {} }, "elicitation/create", { mode: "url" }) // false
export {}
