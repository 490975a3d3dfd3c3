/**
 * Node.js transports for `@effect-mcp/mcp`.
 *
 * @since 0.1.0
 */
export * as NdJson from "./NdJson.js"
export * as NodeStdio from "./NodeStdio.js"
