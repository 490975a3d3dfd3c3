import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as Effect from "effect/Effect"

const resume = (taskId: string) => Effect.flatMap(McpTasksClient.attach(taskId), (handle) => handle.result)
export {}
