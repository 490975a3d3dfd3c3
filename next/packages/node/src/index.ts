/**
 * Node.js for `@effect-mcp/mcp`: stdio transports (`NodeStdio`, `NdJson`
 * framing), the streamable HTTP server on `node:http`
 * (`NodeStreamableHttp`) and the client transport over undici
 * (`NodeStreamableHttpClient`). The `emcp` command line tool lives in `McpCli`
 * (and `cli/`), imported on its own so that the main entry does not load it.
 *
 * @since 0.1.0
 */

/**
 * Newline-delimited JSON framing for stdio.
 * @since 0.1.0
 * @category modules
 */
export * as NdJson from "./NdJson.js"
/**
 * The client's sign-in on Node: the loopback redirect and the file token store.
 * @since 0.1.0
 * @category modules
 */
export * as NodeOAuth from "./NodeOAuth.js"
/**
 * stdio transports: a server on the process's stdin/stdout, a client that spawns a server.
 * @since 0.1.0
 * @category modules
 */
export * as NodeStdio from "./NodeStdio.js"
/**
 * The streamable HTTP server on `node:http`.
 * @since 0.1.0
 * @category modules
 */
export * as NodeStreamableHttp from "./NodeStreamableHttp.js"
/**
 * The streamable HTTP client transport over undici.
 * @since 0.1.0
 * @category modules
 */
export * as NodeStreamableHttpClient from "./NodeStreamableHttpClient.js"
