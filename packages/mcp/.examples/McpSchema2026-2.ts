import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
import * as Schema from "effect/Schema"
const outcome = Schema.decodeUnknownSync(McpSchema2026.ClientRequests["tools/call"].result)(
  { resultType: "complete", content: [] }
)
export {}
