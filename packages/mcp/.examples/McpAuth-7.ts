import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as Effect from "effect/Effect"

const auth = McpAuth.make({
  resource: "https://mcp.example.com/mcp",
  authorizationServers: ["https://auth.example.com"]
}) // Effect<McpAuthShape, never, TokenVerifier>
export {}
