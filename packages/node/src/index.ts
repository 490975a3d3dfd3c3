/**
 * Node.js for `@effect-mcp/mcp`: stdio transports (`NodeStdio`, `NdJson`
 * framing), the streamable HTTP server on `node:http`
 * (`NodeStreamableHttp`) and the client transport over undici
 * (`NodeStreamableHttpClient`). The `emcp` command line tool lives in `McpCli`
 * (and `cli/`), imported on its own so that the main entry does not load it.
 *
 * @since 0.1.0
 */
export * as NdJson from "./NdJson.js"
export * as NodeStdio from "./NodeStdio.js"
export * as NodeStreamableHttp from "./NodeStreamableHttp.js"
export * as NodeStreamableHttpClient from "./NodeStreamableHttpClient.js"
