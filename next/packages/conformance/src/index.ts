/**
 * `@effect-mcp/conformance`: the fixture server for the official MCP
 * conformance suite and the benchmarks.
 * @since 0.1.0
 */
export * as Fixture from "./Fixture.js"
