import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const Haiku = McpTool.make({
  name: "haiku",
  parameters: Schema.Struct({ topic: Schema.String }),
  success: Schema.Struct({ haiku: Schema.String })
})

const HaikuLive = McpServer.toolHandler(Haiku, ({ topic }) => Effect.succeed({ haiku: `${topic}, five seven five` }))
// McpServer.register(HaikuLive)
export {}
