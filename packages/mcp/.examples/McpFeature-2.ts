import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const Add = McpServer.tool({
  name: "add",
  description: "Adds two integers",
  parameters: Schema.Struct({ a: Schema.Int, b: Schema.Int }),
  success: Schema.Struct({ sum: Schema.Int }), // outputSchema; sent as structuredContent
  annotations: { readOnlyHint: true },
  handler: ({ a, b }) => Effect.succeed({ sum: a + b })
})
export {}
