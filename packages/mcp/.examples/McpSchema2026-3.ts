import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
const result: { readonly resultType?: unknown } = JSON.parse(`{"content":[]}`)
McpSchema2026.resultTypeOf(result) // "complete"
export {}
