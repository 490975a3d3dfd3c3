import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const Haiku = McpTool.make({
  name: "haiku",
  parameters: Schema.Struct({ topic: Schema.String }),
  success: Schema.Struct({ haiku: Schema.String })
})

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const { haiku } = yield* client.callTool(Haiku, { topic: "fibers" })
  const raw = yield* client.callTool("haiku", { topic: "fibers" })
})
export {}
