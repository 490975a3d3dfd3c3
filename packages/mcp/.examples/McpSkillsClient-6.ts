import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Stream from "effect/Stream"

const templates = Stream.runCollect(McpSkillsClient.readDirectory("skill://pdf-processing/templates"))
export {}
