import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

// a verifier of your own: static API keys
const ApiKeys = Layer.succeed(McpAuth.TokenVerifier, {
  verify: (token, resource) =>
    token === "k-123"
      ? Effect.succeed({ subject: "ci", clientId: undefined, issuer: undefined, scopes: ["mcp:tools"],
          audience: [resource], expiresAt: undefined, claims: {} })
      : Effect.fail(new McpAuth.AuthError({ reason: "Invalid", message: "unknown key" }))
})
export {}
