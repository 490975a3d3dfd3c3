import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as Effect from "effect/Effect"

// at most a minute, then the task is cancelled on the server
const report = McpTasksClient.run("report", { month: "May" }).pipe(Effect.timeout("1 minute"))
export {}
