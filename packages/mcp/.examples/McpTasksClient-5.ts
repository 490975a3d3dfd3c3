import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"

const result = McpTasksClient.callToolAsDeclared("report", { month: "May" })
export {}
