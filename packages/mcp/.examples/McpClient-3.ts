import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"

// the host's UI: a form for the schema, undefined when the user declines
declare const askUser: (
  message: string,
  schema: { readonly properties: object }
) => Effect.Effect<{ [field: string]: string | number | boolean } | undefined>
declare const openInBrowser: (url: string) => Effect.Effect<boolean>

const elicitation: McpClient.ElicitationHandlers = {
  form: (params) =>
    Effect.map(askUser(params.message, params.requestedSchema), (content) =>
      content === undefined ? { action: "decline" as const } : { action: "accept" as const, content }),
  url: (params) =>
    Effect.map(openInBrowser(params.url), (opened) => ({ action: opened ? "accept" as const : "cancel" as const }))
}

const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0", elicitation })
export {}
