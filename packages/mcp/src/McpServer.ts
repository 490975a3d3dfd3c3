/**
 * An MCP server: a registry of tools, resources, resource templates and
 * prompts, and the server side of the lifecycle, serving any number of
 * sessions over any transport.
 *
 * Features are values (`McpServer.tool`, `McpServer.resource`,
 * `McpServer.resourceTemplate`, `McpServer.prompt`, defined in `McpFeature`)
 * registered through Layers
 * (`McpServer.register`), so a server is assembled the Effect way, one Layer
 * per feature group, and the services a handler needs come from the Layer's
 * context. Handlers may also use `HandlerContext` (progress, logs, reverse
 * calls) and `ServerSession` (the session's push channel).
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 * import * as Schema from "effect/Schema"
 *
 * const Echo = McpServer.tool({
 *   name: "echo",
 *   description: "Echoes the text back",
 *   parameters: Schema.Struct({ text: Schema.String }),
 *   handler: ({ text }) => Effect.succeed(text)
 * })
 *
 * const ServerLive = McpServer.register(Echo).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" }))
 * )
 * // then serve it: McpServer.run with a Transport (stdio, HTTP, in-memory)
 * ```
 * @since 0.1.0
 */
import type * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Announce from "./internal/server/announce.js"
import * as Completion from "./internal/server/completion.js"
import { connect as connectSession } from "./internal/server/connect.js"
import * as Dispatch from "./internal/server/dispatch.js"
import * as InputRequired from "./internal/server/inputRequired.js"
import * as Extensions from "./internal/server/extensions.js"
import * as Lifecycle from "./internal/server/lifecycle.js"
import * as Logging from "./internal/server/logging.js"
import * as Pagination from "./internal/server/pagination.js"
import * as Prompts from "./internal/server/prompts.js"
import * as Registry from "./internal/server/registry.js"
import * as RequestState from "./internal/server/requestState.js"
import * as Resources from "./internal/server/resources.js"
import * as Sessions from "./internal/server/sessions.js"
import * as Era2026 from "./internal/server/era2026.js"
import * as Tools from "./internal/server/tools.js"
import type * as JsonRpc from "./JsonRpc.js"
import type { ErrorResponse } from "./McpError.js"
import type * as Protocol from "./Protocol.js"
import type * as Schema from "effect/Schema"
import type { CacheHint, Feature } from "./McpFeature.js"
import type * as McpSchema from "./McpSchema.js"
import * as ProtocolEra from "./ProtocolEra.js"
import type * as Principal from "./McpAuth.js"
import type { ReverseCall } from "./HandlerContext.js"
import type { ServerSessionShape } from "./ServerSession.js"
import { Transport, type TransportShape } from "./Transport.js"

// ============================================================================
// features (defined in McpFeature)
// ============================================================================

/**
 * The constructors of the features a server registers, defined in
 * `McpFeature` (see there for each one's documentation and example):
 * `McpServer.tool` is `McpFeature.tool`.
 * @since 0.1.0
 * @category features
 */
export { prompt, resource, resourceTemplate, tool } from "./McpFeature.js"

/**
 * Gives a tool declaration (`McpTool.make`) its handler; see `McpFeature.toolHandler`.
 * @since 0.1.0
 * @category features
 */
export { toolHandler } from "./McpFeature.js"

/**
 * Gives a prompt declaration (`McpPrompt.make`) its content; see `McpFeature.promptHandler`.
 * @since 0.1.0
 * @category features
 */
export { promptHandler } from "./McpFeature.js"

/**
 * The feature types, defined in `McpFeature`.
 * @since 0.1.0
 * @category features
 */
export type {
  Completer,
  Feature,
  HandlerServices,
  Prompt,
  PromptContent,
  Resource,
  ResourceContent,
  ResourceTemplate,
  Tool,
  ToolContent
} from "./McpFeature.js"

/**
 * The typed feature helpers, defined in `McpFeature`.
 * @since 0.1.0
 * @category features
 */
export type { PromptArguments, ToolHandlerError } from "./McpFeature.js"

type FeatureContext<F> = F extends Feature<infer R> ? R : never

// ============================================================================
// the server
// ============================================================================

/**
 * The server's identity (sent in the initialize result) and its limits.
 * @since 0.1.0
 * @category models
 */
export interface ServerOptions {
  readonly name: string
  readonly version: string
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly websiteUrl?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  /** Sent in the initialize result. */
  readonly instructions?: string | undefined
  /** Items per page on every list method (default 100). */
  readonly pageSize?: number | undefined
  /** Default timeout of reverse calls (default 60 s); progress resets it. */
  readonly requestTimeout?: Duration.Input | undefined
  readonly maxRequestTimeout?: Duration.Input | undefined
  /** Ping the client every `interval`; close the session after `maxMissed` (default 3) unanswered pings. */
  readonly keepAlive?: { readonly interval: Duration.Input; readonly maxMissed?: number | undefined } | undefined
  /**
   * The protocol eras served (default `"both"`): `"2025"` (sessions opened by `initialize`,
   * 2024-11-05 … 2025-11-25) and `"2026"` (stateless 2026-07-28 requests carrying their `_meta`
   * envelope, and `server/discover`), chosen per request. With `"2025"` an envelope is ignored
   * and `server/discover` is -32601; with `"2026"` an `initialize` or a request without an
   * envelope is answered -32022 naming the versions served.
   */
  readonly eras?: "both" | "2025" | "2026" | undefined
  /**
   * Caching hints (2026-07-28: `ttlMs`, `cacheScope`) of the cacheable results, by method:
   * `server/discover`, `tools/list`, `prompts/list`, `resources/list`,
   * `resources/templates/list`, `resources/read`. Default for each: `{ ttlMs: 0, cacheScope:
   * "private" }` (not to be reused). A resource or template's own `cacheHint` wins for its reads.
   */
  readonly cacheHints?: { readonly [method in CacheableMethod]?: CacheHint | undefined } | undefined
  /**
   * How the `requestState` of 2026-07-28 multi-round-trip requests is signed
   * (see `HandlerContext`). By default with a random key of this process:
   * a deployment of several instances must give every instance the same
   * `keys`. Without keys, a warning saying so is logged once per server, and
   * only where it can matter: on the first state signed by an instance of a
   * fleet (the streamable HTTP server with a `SessionStore`), or when a state
   * is refused for its signature (one from another instance, or from before a
   * restart). A stdio server or a single HTTP instance never logs it.
   */
  readonly requestState?: RequestStateOptions | undefined
}

/**
 * The keys and lifetime of the signed `requestState` a 2026-07-28 server
 * sends with `InputRequiredResult` (HMAC-SHA256). `keys` are newest first: a
 * state is signed with the first and accepted under any of them, so a key is
 * rotated by putting the new one first and dropping the old one after `ttl`.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 *
 * const ServerLive = McpServer.layer({
 *   name: "deploy",
 *   version: "1.0.0",
 *   // the same keys on every instance; the new key first while the old one may still come back
 *   requestState: { keys: [process.env.STATE_KEY_NEW!, process.env.STATE_KEY_OLD!], ttl: "10 minutes" }
 * })
 * ```
 * @since 0.1.0
 * @category models
 */
export interface RequestStateOptions {
  /** HMAC keys (at least 32 bytes each; a string is UTF-8), newest first. */
  readonly keys?: ReadonlyArray<string | Uint8Array> | undefined
  /** How long a state stays valid (default 15 minutes). */
  readonly ttl?: Duration.Input | undefined
}

/**
 * A caching hint of a 2026-07-28 result (defined in `McpFeature`).
 * @since 0.1.0
 * @category models
 */
export type { CacheHint } from "./McpFeature.js"

/**
 * The methods whose results carry a caching hint on 2026-07-28.
 * @since 0.1.0
 * @category models
 */
export type CacheableMethod =
  | "server/discover"
  | "tools/list"
  | "prompts/list"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read"

/**
 * What an extension method's handler is given besides its params.
 * @since 0.1.0
 * @category extensions
 */
export interface ExtensionRequest {
  readonly request: JsonRpc.Request
  readonly session: ServerSessionShape
  /** The era the request belongs to (its `_meta` envelope, else its session's). */
  readonly era: ProtocolEra.Era
  /** The caller, on a protected transport. */
  readonly principal: Principal.PrincipalInfo | undefined
}

/**
 * A method an extension adds: its params' schema (checked before the
 * handler runs; a mismatch is -32602) and its handler.
 * @since 0.1.0
 * @category extensions
 */
// `any`: the params' encoded side is whatever the wire carries; the table of methods admits every P
export interface ExtensionMethod<P = any> {
  readonly params: Schema.Codec<P, any>
  readonly handle: (params: P, request: ExtensionRequest) => Effect.Effect<Protocol.Result, ErrorResponse>
}

/**
 * A protocol extension (SEP-2133): methods past the core ones, and what it
 * adds to the capabilities the server declares (merged two levels deep, so
 * `{ extensions: { "io.example/x": {} } }` joins the other extensions).
 * @since 0.1.0
 * @category extensions
 */
export interface Extension {
  readonly capabilities?: Record<string, unknown> | undefined
  readonly methods?: { readonly [method: string]: ExtensionMethod } | undefined
  /**
   * Methods of one era only (the tasks extension's 2025 and 2026 tables), looked up by the
   * request's era; a method absent from its era's table (and from `methods`) is -32601.
   */
  readonly methodsByEra?: { readonly [E in ProtocolEra.Era]?: { readonly [method: string]: ExtensionMethod } } | undefined
  /** Sees each `tools/call` of a registered tool first (the tasks utility); the first hook that answers wins. */
  readonly toolCall?: ToolCallHook | undefined
  /** Serves its part of a 2026 `subscriptions/listen` filter (the tasks extension's `taskIds`). */
  readonly listen?: ListenHook | undefined
}

/**
 * An extension's part of a 2026-07-28 `subscriptions/listen`: given the request's filter (as
 * sent), it starts delivering with `send` for the life of the scope (sends wait until the
 * acknowledgement is out) and returns what it honors, merged into the acknowledged filter
 * (undefined: nothing of its own was asked); failing refuses the listen.
 * @since 0.1.0
 * @category extensions
 */
export type ListenHook = (
  filter: { readonly [key: string]: unknown },
  request: ExtensionRequest,
  send: (method: string, params: JsonRpc.Params) => Effect.Effect<void>
) => Effect.Effect<{ readonly [key: string]: unknown } | undefined, ErrorResponse, Scope.Scope>

/**
 * A `tools/call` of a registered tool, as a `ToolCallHook` sees it.
 * @since 0.1.0
 * @category extensions
 */
export interface ToolCall {
  readonly params: McpSchema.CallToolRequestParams
  readonly tool: McpSchema.Tool
  readonly request: JsonRpc.Request
  readonly session: ServerSessionShape
  /** The caller, on a protected transport. */
  readonly principal: Principal.PrincipalInfo | undefined
  /** The session's engine, for messages outside the request (undefined on the 2026 path). */
  readonly protocol: Protocol.Protocol | undefined
  /** Where a task made of this call begins (the tool's `taskStart`). */
  readonly taskStart: "call" | "detach"
  /** The request's own reverse calls (2026-07-28: its multi-round-trip rounds), while it runs. */
  readonly reverseCall: ReverseCall
  /**
   * Runs the tool's handler (arguments decoded, result shaped) in the calling fiber. With
   * `context`, its \`HandlerContext\` is active while `context.isActive()` and makes reverse calls
   * with `context.reverseCall`, not as the request's: for a handler that outlives its request.
   */
  readonly run: (context?: ToolRunContext) => Effect.Effect<McpSchema.CallToolResult, ErrorResponse>
}

/**
 * How a tool's handler runs detached from its request (see `ToolCall.run`).
 * @since 0.1.0
 * @category extensions
 */
export interface ToolRunContext {
  readonly isActive: () => boolean
  readonly reverseCall: ReverseCall
  /** The scope the handler's reverse calls live in. */
  readonly scope: Scope.Scope
}

/**
 * Answers a `tools/call` in its own way, or leaves it to the tool (`undefined`).
 * @since 0.1.0
 * @category extensions
 */
export type ToolCallHook = (call: ToolCall) => Effect.Effect<Protocol.Result, ErrorResponse> | undefined

/**
 * A server definition: its features, and the sessions it serves.
 * @since 0.1.0
 * @category models
 */
export interface McpServerShape {
  readonly options: ServerOptions
  /**
   * Adds features; they are removed when the scope closes. Sends `list_changed` to every initialized session.
   * Dies for a tool with invalid `x-mcp-header` annotations (see `register`).
   */
  readonly add: (
    features: ReadonlyArray<Feature<unknown>>,
    context: Context.Context<never>
  ) => Effect.Effect<void, never, Scope.Scope>
  /** Adds a protocol extension (its methods and capabilities) for the life of the scope. */
  readonly extend: (extension: Extension) => Effect.Effect<void, never, Scope.Scope>
  /** Removes a tool, a resource (by URI), a template (by URI template) or a prompt. */
  readonly remove: (kind: "tool" | "resource" | "template" | "prompt", key: string) => Effect.Effect<void>
  /**
   * `notifications/resources/updated` to the sessions subscribed to `uri` (and
   * the `subscriptions/listen` streams asking for it); with a relay installed
   * (a fleet), to those of every instance.
   */
  readonly notifyResourceUpdated: (uri: string) => Effect.Effect<void>
  /**
   * Sends this server's announcements (resource updates, list changes) to
   * `send` instead of to this process's sessions, for the life of the scope,
   * and returns their delivery to this process's sessions and listen streams:
   * how the instances of a fleet (the streamable HTTP server with a
   * `SessionStore`) tell each other's sessions of a change made on one.
   */
  readonly relay: (send: (announcement: Announcement) => Effect.Effect<void>) => Effect.Effect<
    (announcement: Announcement) => Effect.Effect<void>,
    never,
    Scope.Scope
  >
  /** The sessions being served. */
  readonly sessions: Effect.Effect<ReadonlyArray<ServerSessionShape>>
  /** Serves one session over a transport until it closes. */
  readonly serve: (transport: TransportShape) => Effect.Effect<void>
  /**
   * Starts serving a session and returns at once; the session lives until
   * the scope closes (or the peer closes it: `closed` completes). For hosts
   * of many sessions, which own a scope per session anyway: no fiber waits
   * on each session.
   *
   * @example
   * ```ts
   * import * as McpServer from "@effect-mcp/mcp/McpServer"
   * import type { TransportShape } from "@effect-mcp/mcp/Transport"
   * import * as Effect from "effect/Effect"
   * import * as Exit from "effect/Exit"
   * import * as Scope from "effect/Scope"
   *
   * const host = (transport: TransportShape) =>
   *   Effect.gen(function*() {
   *     const server = yield* McpServer.McpServer
   *     const scope = yield* Scope.make()
   *     const { session } = yield* server.connect(transport).pipe(Scope.provide(scope))
   *     // … later, to end the session:
   *     yield* Scope.close(scope, Exit.void)
   *   })
   * ```
   */
  readonly connect: (transport: TransportShape) => Effect.Effect<ServerConnection, never, Scope.Scope>
  /**
   * The scopes the feature a request addresses declares (`tools/call` of a
   * tool, `resources/read` of a resource or template, `prompts/get` of a
   * prompt); none for other requests. `McpAuth` checks them before dispatch.
   */
  readonly requiredScopes: (request: JsonRpc.Request) => Effect.Effect<ReadonlyArray<string>>
}

/**
 * What a server announces to many sessions at once, as a relay carries it
 * (see `McpServerShape.relay`). A list change names the list and a digest of
 * its definitions after the change: instances that make the same change give
 * the same digest.
 *
 * @example
 * ```ts
 * import type * as McpServer from "@effect-mcp/mcp/McpServer"
 *
 * const updated: McpServer.Announcement = { _tag: "ResourceUpdated", uri: "file:///notes.txt" }
 * ```
 * @since 0.1.0
 * @category models
 */
export type Announcement = Announce.Announcement

/**
 * A session started by `connect`.
 * @since 0.1.0
 * @category models
 */
export interface ServerConnection {
  readonly session: ServerSessionShape
  /** Completes when the connection is over (the peer closed, the transport failed, keep-alive gave up). */
  readonly closed: Effect.Effect<void>
  /** How many of the peer's requests are being handled now. */
  readonly running: Effect.Effect<number>
}

/**
 * A server definition; one definition serves many sessions.
 * @since 0.1.0
 * @category tags
 */
export class McpServer extends Context.Service<McpServer, McpServerShape>()("@effect-mcp/mcp/McpServer") {}

/**
 * Builds a server from its options.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import type { TransportShape } from "@effect-mcp/mcp/Transport"
 *
 * const serveOne = (transport: TransportShape) =>
 *   Effect.scoped(Effect.gen(function*() {
 *     const server = yield* McpServer.make({ name: "my-server", version: "1.0.0" })
 *     yield* server.add([McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })], yield* Effect.context<never>())
 *     yield* server.serve(transport)
 *   }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: ServerOptions): Effect.Effect<McpServerShape> =>
  Effect.gen(function*() {
    const sessions = Sessions.make()
    const announcer = Announce.make(sessions, () => registry.get)
    const registry = yield* Registry.make(announcer.listChanged)
    const listPage = Pagination.make(options.pageSize ?? 100)
    const codec = RequestState.make(options.requestState)
    const rounds = InputRequired.make(codec, announcer.relayed)
    const extensions = Extensions.make()
    const dispatcher = Dispatch.make(
      registry,
      InputRequired.wrap(rounds, {
        ...Tools.handlers(registry, listPage, () => extensions.toolCallHooks()),
        ...Resources.handlers(registry, listPage),
        ...Prompts.handlers(registry, listPage),
        ...Completion.handlers(registry),
        ...Logging.handlers
      }),
      extensions
    )
    const base = Lifecycle.identity(options)
    // read at each initialize (and discovery), so extensions registered later are declared
    const identity: Lifecycle.Identity = {
      serverInfo: base.serverInfo,
      instructions: base.instructions,
      get capabilities() {
        return extensions.capabilities(base.capabilities)
      }
    }
    const hints = options.cacheHints ?? {}
    const connect = connectSession({
      options,
      identity,
      sessions,
      dispatcher,
      era2026: {
        identity,
        supported: ProtocolEra.ERA_2026_VERSIONS,
        cacheHint: (method) => hints[method] ?? Era2026.DEFAULT_CACHE_HINT,
        dispatcher,
        extensionMethod: (method) => extensions.method(method, "2026") !== undefined,
        listenHooks: () => extensions.listenHooks(),
        registry,
        sessions
      }
    })
    return {
      options,
      add: registry.add,
      extend: extensions.add,
      remove: registry.remove,
      notifyResourceUpdated: announcer.resourceUpdated,
      relay: announcer.relay,
      sessions: sessions.list,
      serve: (transport) => Effect.scoped(Effect.flatMap(connect(transport), (connection) => connection.closed)),
      connect,
      requiredScopes: (request) => Effect.map(registry.get, (r) => Registry.scopesIn(r, request))
    } satisfies McpServerShape
  })

/**
 * A server definition as a Layer.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const ServerLive = McpServer.register(McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "my-server", version: "1.0.0", instructions: "Call ping." }))
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: ServerOptions): Layer.Layer<McpServer> => Layer.effect(McpServer, make(options))

/**
 * A server definition as a Layer, its `requestState` from config unless
 * `options.requestState` is given: `MCP_REQUEST_STATE_KEYS` (comma-separated
 * HMAC keys, newest first, at least 32 bytes each) and `MCP_REQUEST_STATE_TTL`
 * (default 15 minutes). Instances started with the same keys verify each
 * other's states: a multi-round-trip retry may reach any of them.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 *
 * // MCP_REQUEST_STATE_KEYS="<new key>,<old key>" on every instance
 * const ServerLive = McpServer.layerConfig({ name: "deploy", version: "1.0.0" })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (options: ServerOptions): Layer.Layer<McpServer, Config.ConfigError> =>
  options.requestState !== undefined
    ? layer(options)
    : Layer.effect(McpServer, Effect.flatMap(RequestState.config, (requestState) => make({ ...options, requestState })))

/**
 * Registers features for the life of the Layer; the services their handlers
 * need come from the Layer's own context. A tool whose `x-mcp-header`
 * annotations break the 2026-07-28 rules (on a `string`, `integer` or
 * `boolean` property reached through `properties` only, an HTTP token, unique
 * ignoring case; `number` is not allowed) is a defect when the Layer is built:
 * clients drop such a tool from `tools/list`.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Context from "effect/Context"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * class Greeter extends Context.Service<Greeter, { readonly greet: (name: string) => Effect.Effect<string> }>()("Greeter") {}
 *
 * const Hello = McpServer.tool({ name: "hello", handler: () => Effect.flatMap(Greeter, (greeter) => greeter.greet("world")) })
 *
 * // the tool needs Greeter: the registering Layer does, and gives it to the handler
 * const ServerLive = McpServer.register(Hello).pipe(
 *   Layer.provide(Layer.succeed(Greeter, { greet: (name) => Effect.succeed(`hello ${name}`) })),
 *   Layer.provideMerge(McpServer.layer({ name: "greeter", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
// `any`: a feature's requirement sits in both input and output positions, so only `any` accepts every feature
export const register = <const Features extends ReadonlyArray<Feature<any>>>(
  ...features: Features
): Layer.Layer<never, never, McpServer | FeatureContext<Features[number]>> =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* McpServer
      const context = yield* Effect.context<never>()
      yield* server.add(features as ReadonlyArray<Feature<unknown>>, context)
    })
  )

/**
 * Registers a protocol extension (its methods and capabilities) for the life
 * of the Layer.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 * import * as Schema from "effect/Schema"
 *
 * const Hello = McpServer.registerExtension({
 *   capabilities: { extensions: { "io.example/hello": {} } },
 *   methods: {
 *     "hello/say": { params: Schema.Struct({ name: Schema.String }), handle: ({ name }) => Effect.succeed({ text: `hello ${name}` }) }
 *   }
 * })
 * const ServerLive = Hello.pipe(Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" })))
 * ```
 * @since 0.1.0
 * @category extensions
 */
export const registerExtension = (extension: Extension): Layer.Layer<never, never, McpServer> =>
  Layer.effectDiscard(Effect.flatMap(McpServer, (server) => server.extend(extension)))

/**
 * Serves one session on the `Transport` in context until the peer closes it.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import type * as Transport from "@effect-mcp/mcp/Transport"
 * import * as Layer from "effect/Layer"
 *
 * declare const ServerLive: Layer.Layer<McpServer.McpServer>
 * declare const TransportLive: Layer.Layer<Transport.Transport> // NodeStdio.layerServer(), a memory pair, …
 *
 * const main = McpServer.run.pipe(Effect.provide(ServerLive), Effect.provide(TransportLive))
 * ```
 * @since 0.1.0
 * @category serving
 */
export const run: Effect.Effect<void, never, McpServer | Transport> = Effect.flatMap(
  Effect.all([McpServer, Transport]),
  ([server, transport]) => server.serve(transport)
)

/**
 * Sends `notifications/resources/updated` to the sessions subscribed to `uri`
 * (and the `subscriptions/listen` streams asking for it); on a fleet (the
 * streamable HTTP server with a `SessionStore`), to those of every instance,
 * once each: announce a change once, on the instance that made it.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Ref from "effect/Ref"
 *
 * const edit = (readme: Ref.Ref<string>, text: string) =>
 *   Effect.andThen(Ref.set(readme, text), McpServer.notifyResourceUpdated("docs://readme"))
 * ```
 * @since 0.1.0
 * @category notifications
 */
export const notifyResourceUpdated = (uri: string): Effect.Effect<void, never, McpServer> =>
  Effect.flatMap(McpServer, (server) => server.notifyResourceUpdated(uri))
