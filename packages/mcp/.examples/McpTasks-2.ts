import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"

const count = Effect.flatMap(McpTasks.makeMemoryStore, (store) => store.size)
export {}
