import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"

const entries = McpSkillsClient.listAll({ maxPages: 10 })
export {}
