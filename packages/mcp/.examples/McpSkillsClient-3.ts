import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Stream from "effect/Stream"

const names = McpSkillsClient.list.pipe(Stream.map((entry) => entry.frontmatter.name), Stream.runCollect)
export {}
