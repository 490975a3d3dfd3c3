import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Layer from "effect/Layer"

const Tasks = McpTasks.layer().pipe(Layer.provide(McpTasks.layerMemoryStore))
const ServerLive = Tasks.pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1.0.0" })))
export {}
