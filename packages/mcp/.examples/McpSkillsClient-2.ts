import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Effect from "effect/Effect"

const hasSkills = Effect.map(McpSkillsClient.declared, (d) => d !== undefined)
export {}
