import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as Stream from "effect/Stream"

const working = McpTasksClient.listTasks.pipe(Stream.filter((t) => t.status === "working"), Stream.runCollect)
export {}
