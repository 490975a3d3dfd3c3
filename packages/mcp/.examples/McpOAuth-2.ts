import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as Layer from "effect/Layer"

const Tokens = Layer.succeed(McpOAuth.TokenStore, McpOAuth.makeMemoryStore())
export {}
