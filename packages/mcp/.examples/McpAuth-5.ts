import * as McpAuth from "@effect-mcp/mcp/McpAuth"

const Verifier = McpAuth.layerIntrospectionVerifier({
  endpoint: "https://auth.example.com/introspect",
  clientId: "mcp-server",
  clientSecret: "…"
})
export {}
