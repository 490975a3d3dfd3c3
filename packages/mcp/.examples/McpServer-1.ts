import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

const Echo = McpServer.tool({
  name: "echo",
  description: "Echoes the text back",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const ServerLive = McpServer.register(Echo).pipe(
  Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" }))
)
// then serve it: McpServer.run with a Transport (stdio, HTTP, in-memory)
export {}
