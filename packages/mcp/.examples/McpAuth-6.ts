import { metadataUrlOf } from "@effect-mcp/mcp/McpAuth"

metadataUrlOf("https://mcp.example.com/mcp") // "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
export {}
