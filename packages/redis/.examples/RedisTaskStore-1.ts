import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as RedisFleet from "@effect-mcp/redis/RedisFleet"
import * as Layer from "effect/Layer"

// RedisFleet's Layer provides the TaskStore
const Tasks = McpTasks.layer({ defaultTtl: "10 minutes" }).pipe(Layer.provide(RedisFleet.layerConfig()))
const Server = Tasks.pipe(Layer.provideMerge(McpServer.layer({ name: "tools", version: "1.0.0" })))
export {}
