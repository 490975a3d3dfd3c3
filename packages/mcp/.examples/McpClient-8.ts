import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"

const client = McpClient.make({
  name: "app",
  version: "1.0.0",
  elicitation: { form: () => Effect.succeed({ action: "decline" }) }
})
// Effect<McpClientShape, ClientError, Transport | Scope>
export {}
