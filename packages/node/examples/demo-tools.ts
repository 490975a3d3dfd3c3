/**
 * The demo's tool declarations, shared by its server (which gives them
 * handlers) and its client (which calls them typed): no server code here.
 */
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Schema from "effect/Schema"

export const Haiku = McpTool.make({
  name: "haiku",
  title: "Write a haiku",
  description: "Asks the client's model for a haiku about a topic, reporting progress",
  parameters: Schema.Struct({ topic: Schema.String.annotate({ description: "What the haiku is about" }) }),
  success: Schema.Struct({ topic: Schema.String, haiku: Schema.String })
})
