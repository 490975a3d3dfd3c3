/**
 * The Redis backend for `@effect-mcp/mcp`: one logical MCP server across many processes.
 *
 * @since 0.1.0
 */
export {}
