import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Schema from "effect/Schema"

// a value is the plain JSON object that goes on the wire
const result: McpSchema.CallToolResult = { content: [{ type: "text", text: "hi" }] }
const decoded = Schema.decodeUnknownSync(McpSchema.CallToolResult)(JSON.parse(JSON.stringify(result)))

// the method tables give the params and result schema of every method
const { params } = McpSchema.ClientRequests["tools/call"]
const call = Schema.decodeUnknownSync(params)({ name: "echo", arguments: { text: "hi" } })
export {}
