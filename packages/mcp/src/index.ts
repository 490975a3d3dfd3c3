/**
 * `@effect-mcp/mcp`: the Model Context Protocol for Effect. Every module is
 * also a deep import (`@effect-mcp/mcp/McpServer`), which keeps bundles and
 * memory small.
 * @since 0.1.0
 */
export * as EventStore from "./EventStore.js"
export * as HandlerContext from "./HandlerContext.js"
export * as JsonRpc from "./JsonRpc.js"
export * as LegacySseClient from "./LegacySseClient.js"
export * as LegacySseServer from "./LegacySseServer.js"
export * as Lifecycle from "./Lifecycle.js"
export * as McpAuth from "./McpAuth.js"
export * as McpClient from "./McpClient.js"
export * as McpError from "./McpError.js"
export * as McpSchema from "./McpSchema.js"
export * as McpSchema2026 from "./McpSchema2026.js"
export * as McpServer from "./McpServer.js"
export * as McpTool from "./McpTool.js"
export * as Protocol from "./Protocol.js"
export * as ProtocolEra from "./ProtocolEra.js"
export * as ServerSession from "./ServerSession.js"
export * as StreamableHttpClient from "./StreamableHttpClient.js"
export * as StreamableHttpServer from "./StreamableHttpServer.js"
export * as Transport from "./Transport.js"
export * as UriTemplate from "./UriTemplate.js"
