import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const Report = McpServer.tool({
  name: "report",
  description: "Builds the monthly report (minutes)",
  execution: { taskSupport: "optional" },
  handler: () => Effect.as(Effect.sleep("2 minutes"), "report ready")
})

const ServerLive = Layer.mergeAll(McpServer.register(Report), McpTasks.layerMemory({ defaultTtl: "10 minutes" })).pipe(
  Layer.provideMerge(McpServer.layer({ name: "reports", version: "1.0.0" }))
)
export {}
