/**
 * `@effect-mcp/mcp`: the Model Context Protocol for Effect. Every module is
 * also a deep import (`@effect-mcp/mcp/McpServer`), which keeps bundles and
 * memory small.
 *
 * @example
 * ```ts
 * import { McpServer } from "@effect-mcp/mcp"
 * import * as Effect from "effect/Effect"
 *
 * const Ping = McpServer.tool({ name: "ping", description: "Answers pong", handler: () => Effect.succeed("pong") })
 * ```
 * @since 0.1.0
 */

/**
 * Resumable streamable HTTP: the events a server keeps so a client can reconnect with `Last-Event-ID`.
 * @since 0.1.0
 * @category modules
 */
export * as EventStore from "./EventStore.js"
/**
 * The streamable HTTP client transport over the Fetch API, without `effect/http` (browsers, workers).
 * @since 0.1.0
 * @category modules
 */
export * as FetchStreamableHttpClient from "./FetchStreamableHttpClient.js"
/**
 * What a handler gets while its request runs: progress, logging, sampling, elicitation, roots.
 * @since 0.1.0
 * @category modules
 */
export * as HandlerContext from "./HandlerContext.js"
/**
 * JSON-RPC 2.0 messages, error codes and the decoder.
 * @since 0.1.0
 * @category modules
 */
export * as JsonRpc from "./JsonRpc.js"
/**
 * The client transport of the deprecated HTTP+SSE transport (2024-11-05).
 * @since 0.1.0
 * @category modules
 */
export * as LegacySseClient from "./LegacySseClient.js"
/**
 * The server side of the deprecated HTTP+SSE transport (2024-11-05).
 * @since 0.1.0
 * @category modules
 */
export * as LegacySseServer from "./LegacySseServer.js"
/**
 * Version negotiation and the capability each method needs.
 * @since 0.1.0
 * @category modules
 */
export * as Lifecycle from "./Lifecycle.js"
/**
 * MCP Apps (`io.modelcontextprotocol/ui`), server side: publish an app's `ui://` page, link tools to it, a text fallback per client.
 * @since 0.1.0
 * @category modules
 */
export * as McpApps from "./McpApps.js"
/**
 * MCP Apps, host side: declare the extension, read a tool's app, wire an ext-apps `AppBridge` to the client.
 * @since 0.1.0
 * @category modules
 */
export * as McpAppsHost from "./McpAppsHost.js"
/**
 * Authorization for the HTTP transports, resource-server side: bearer tokens, Protected Resource Metadata, scopes.
 * @since 0.1.0
 * @category modules
 */
export * as McpAuth from "./McpAuth.js"
/**
 * Authorization for the HTTP client transports: OAuth 2.1 sign-in for MCP (discovery, registration, PKCE, refresh, step-up).
 * @since 0.1.0
 * @category modules
 */
export * as McpOAuth from "./McpOAuth.js"
/**
 * The MCP client: typed calls to a server, and the handlers a server can call back.
 * @since 0.1.0
 * @category modules
 */
export * as McpClient from "./McpClient.js"
/**
 * The errors of the SDK.
 * @since 0.1.0
 * @category modules
 */
export * as McpError from "./McpError.js"
/**
 * Every type and method of the 2025-11-25 spec as `effect/Schema`.
 * @since 0.1.0
 * @category modules
 */
export * as McpSchema from "./McpSchema.js"
/**
 * Spec revision 2026-07-28 (the stateless era) as `effect/Schema` schemas, beside `McpSchema`.
 * @since 0.1.0
 * @category modules
 */
export * as McpSchema2026 from "./McpSchema2026.js"
/**
 * The features a server offers, as values: tools, resources, resource templates and prompts.
 * @since 0.1.0
 * @category modules
 */
export * as McpFeature from "./McpFeature.js"
/**
 * The MCP server: tools, resources, resource templates, prompts and completions as Effects.
 * @since 0.1.0
 * @category modules
 */
export * as McpServer from "./McpServer.js"
/**
 * A client's `sampling` handler answered by an effect/ai `LanguageModel`.
 * @since 0.1.0
 * @category modules
 */
export * as McpSampling from "./McpSampling.js"
/**
 * The skills extension (SEP-2640), server side: publish Agent Skills with their digests.
 * @since 0.1.0
 * @category modules
 */
export * as McpSkills from "./McpSkills.js"
/**
 * The skills extension (SEP-2640), client side: list skills, load one when asked, verified.
 * @since 0.1.0
 * @category modules
 */
export * as McpSkillsClient from "./McpSkillsClient.js"
/**
 * Tasks (2025-11-25): tools called now, their results fetched later; the task store.
 * @since 0.1.0
 * @category modules
 */
export * as McpTasks from "./McpTasks.js"
/**
 * Tasks (2025-11-25), client side: a tool call as a task handle, run to its result, listed.
 * @since 0.1.0
 * @category modules
 */
export * as McpTasksClient from "./McpTasksClient.js"
/**
 * OpenTelemetry's MCP conventions: the duration metrics, the opt-in attributes that hold user data.
 * @since 0.1.0
 * @category modules
 */
export * as McpTelemetry from "./McpTelemetry.js"
/**
 * Testing a server Layer: a client of it over an in-memory transport, in either era.
 * @since 0.1.0
 * @category modules
 */
export * as McpTest from "./McpTest.js"
/**
 * A prompt's declaration apart from its content, shared by a server and its clients.
 * @since 0.1.0
 * @category modules
 */
export * as McpPrompt from "./McpPrompt.js"
/**
 * A tool's declaration apart from its handler, shared by a server and its clients.
 * @since 0.1.0
 * @category modules
 */
export * as McpTool from "./McpTool.js"
/**
 * MCP tools and effect/ai toolkits: a server's tools as a `Toolkit` for an agent, a `Toolkit` served as MCP tools.
 * @since 0.1.0
 * @category modules
 */
export * as McpToolkit from "./McpToolkit.js"
/**
 * The JSON-RPC engine both sides run on.
 * @since 0.1.0
 * @category modules
 */
export * as Protocol from "./Protocol.js"
/**
 * The two eras of the protocol (2025: sessions; 2026: stateless) and how a message tells which one it belongs to.
 * @since 0.1.0
 * @category modules
 */
export * as ProtocolEra from "./ProtocolEra.js"
/**
 * The session of the client being served.
 * @since 0.1.0
 * @category modules
 */
export * as ServerSession from "./ServerSession.js"
/**
 * The seam of a fleet: what a session holds that another instance of the
 * same logical server needs, and how instances reach each other.
 *
 * @since 0.1.0
 * @category modules
 */
export * as SessionStore from "./SessionStore.js"

/**
 * The contracts of the storage seams (SessionStore, EventStore, TaskStore)
 * as rules a backend is tested with.
 *
 * @since 0.1.0
 * @category modules
 */
export * as StoreContract from "./StoreContract.js"

/**
 * The streamable HTTP client transport.
 * @since 0.1.0
 * @category modules
 */
export * as StreamableHttpClient from "./StreamableHttpClient.js"
/**
 * The streamable HTTP server, platform-neutral (web `Request`/`Response`).
 * @since 0.1.0
 * @category modules
 */
export * as StreamableHttpServer from "./StreamableHttpServer.js"
/**
 * The seam between the engine and the wire, and an in-memory pair.
 * @since 0.1.0
 * @category modules
 */
export * as Transport from "./Transport.js"
/**
 * RFC 6570 URI templates: parse, expand, match.
 * @since 0.1.0
 * @category modules
 */
export * as UriTemplate from "./UriTemplate.js"
