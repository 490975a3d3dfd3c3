import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Layer from "effect/Layer"

const ServerLive = McpTasks.layerMemory().pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1.0.0" })))
export {}
