import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"

const entry = McpSkillsClient.get("skill://git-workflow/SKILL.md")
export {}
