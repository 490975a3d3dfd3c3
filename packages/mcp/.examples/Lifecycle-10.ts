import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"

Lifecycle.serverSupports({ tools: {} }, "tools/call") // true
Lifecycle.serverSupports({ tools: {} }, "prompts/get") // false
export {}
