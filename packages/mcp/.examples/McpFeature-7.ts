import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const Review = McpServer.prompt({
  name: "review",
  parameters: Schema.Struct({ file: Schema.String, depth: Schema.optional(Schema.NumberFromString) }),
  content: ({ depth, file }) => Effect.succeed(`Review ${file} to depth ${depth ?? 1}`)
})
export {}
