import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import * as Effect from "effect/Effect"

const ClientLive = McpClient.layer({
  name: "my-host",
  version: "1.0.0",
  sampling: (params) =>
    params.maxTokens > 4096
      ? Effect.fail(new ErrorResponse({ code: -1, message: "too many tokens asked" }))
      : Effect.succeed({
        role: "assistant",
        content: { type: "text", text: "a reply from the host's model" },
        model: "my-model"
      })
})
export {}
