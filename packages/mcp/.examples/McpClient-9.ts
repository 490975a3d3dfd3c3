import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

class Model extends Context.Service<Model, { readonly complete: (prompt: string) => Effect.Effect<string> }>()("Model") {}

const ClientLive = McpClient.layer({
  name: "app",
  version: "1.0.0",
  sampling: (params) =>
    Effect.gen(function*() {
      const model = yield* Model
      const text = yield* model.complete(JSON.stringify(params.messages))
      return { role: "assistant", model: "mine", content: { type: "text", text } }
    }),
  roots: [{ uri: "file:///home/me/project", name: "project" }]
})
// Layer<McpClient, ClientError, Transport | Model>: declares sampling and roots, not elicitation
export {}
