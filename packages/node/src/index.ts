/**
 * Node.js for `@effect-mcp/mcp`: stdio transports (`NodeStdio`, `NdJson`
 * framing) and the streamable HTTP server on `node:http`
 * (`NodeStreamableHttp`). The `emcp` command line tool lives in `McpCli`,
 * imported on its own so that the main entry does not load `@effect/cli`.
 *
 * @since 0.1.0
 */
export * as NdJson from "./NdJson.js"
export * as NodeStdio from "./NodeStdio.js"
export * as NodeStreamableHttp from "./NodeStreamableHttp.js"
