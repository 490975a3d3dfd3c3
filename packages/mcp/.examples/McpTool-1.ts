import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Schema from "effect/Schema"

class TopicRejected extends Schema.TaggedError<TopicRejected>()("TopicRejected", { message: Schema.String }) {}

export const Haiku = McpTool.make({
  name: "haiku",
  description: "Asks the client's model for a haiku",
  parameters: Schema.Struct({ topic: Schema.String }),
  success: Schema.Struct({ haiku: Schema.String }),
  failure: TopicRejected
})
// server: McpServer.toolHandler(Haiku, ({ topic }) => ...)
// client: client.callTool(Haiku, { topic: "fibers" }) : Effect<{ haiku: string }, TopicRejected | ToolError | ...>
export {}
