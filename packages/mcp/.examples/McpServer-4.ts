import type * as McpServer from "@effect-mcp/mcp/McpServer"

const updated: McpServer.Announcement = { _tag: "ResourceUpdated", uri: "file:///notes.txt" }
export {}
