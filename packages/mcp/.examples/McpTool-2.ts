import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Schema from "effect/Schema"

const Add = McpTool.make({
  name: "add",
  parameters: Schema.Struct({ a: Schema.Number, b: Schema.Number }),
  success: Schema.Number // sent as { result: number }
})
export {}
