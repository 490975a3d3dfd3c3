import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as Layer from "effect/Layer"

const Redirect = Layer.succeed(
  McpOAuth.AuthorizationRedirect,
  McpOAuth.makeHeadless({ redirectUri: "http://127.0.0.1:8976/callback" })
)
export {}
