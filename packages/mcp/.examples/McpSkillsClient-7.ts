import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Effect from "effect/Effect"

const loadByUri = (uri: string) => Effect.flatMap(McpSkillsClient.get(uri), (entry) => McpSkillsClient.load(entry))
export {}
