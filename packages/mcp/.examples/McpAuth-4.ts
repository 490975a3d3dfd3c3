import * as McpAuth from "@effect-mcp/mcp/McpAuth"

const Verifier = McpAuth.layerJwtVerifier({ issuer: "https://auth.example.com", typ: "at+jwt" })
export {}
