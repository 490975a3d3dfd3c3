import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as StoreContract from "@effect-mcp/mcp/StoreContract"
import * as Effect from "effect/Effect"

const rules = StoreContract.taskStore(Effect.succeed({
  make: McpTasks.makeMemoryStore,
  sleep: (millis: number) => Effect.sleep(millis),
  settle: Effect.yieldNow
}))
export {}
