import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as Effect from "effect/Effect"

const started = Effect.map(McpTasksClient.callTool("report", {}), (handle) => handle.task.taskId)
export {}
