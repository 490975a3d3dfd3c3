import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"

McpTasksClient.isTerminal("working") // false
export {}
