/**
 * An MCP client over any `Transport`: a Layer that initializes on acquisition
 * and closes the session on release, typed calls for every server feature,
 * lists as auto-paginating Streams, progress as a callback or a Stream, and
 * server notifications as Streams.
 *
 * Server→client requests are answered by handlers given as options of
 * `McpClient.layer` (`sampling`, `elicitation`, `roots`); what they need is a
 * requirement of the Layer, the client declares exactly the capabilities it
 * has handlers for, and answers any other request with -32601.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const client = yield* McpClient.McpClient
 *   const tools = yield* client.listToolsAll()
 *   const result = yield* client.callTool("echo", { text: "hi" })
 * })
 * // program.pipe(Effect.provide(McpClient.layer({ name: "app", version: "1.0.0" })), Effect.provide(transportLayer))
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as Client2026 from "./internal/client/era2026.js"
import * as ClientCache from "./internal/client/cache.js"
import * as ClientCalls from "./internal/client/calls.js"
import * as ClientEra from "./internal/client/era.js"
import * as ClientHandshake from "./internal/client/handshake.js"
import * as ClientNotifications from "./internal/client/notifications.js"
import * as ClientRequests from "./internal/client/reverseCalls.js"
import * as ProtocolMake from "./internal/protocol/make.js"
import type * as JsonRpc from "./JsonRpc.js"
import * as Lifecycle from "./Lifecycle.js"
import { ErrorResponse, McpError, ProtocolError } from "./McpError.js"
import * as McpSchema from "./McpSchema.js"
import * as McpSchema2026 from "./McpSchema2026.js"
import type * as McpPrompt from "./McpPrompt.js"
import * as McpTool from "./McpTool.js"
import * as Protocol from "./Protocol.js"
import type * as ProtocolEra from "./ProtocolEra.js"
import { Transport } from "./Transport.js"

/**
 * Errors of a client call: the server's JSON-RPC error, or a local failure.
 * @since 0.1.0
 * @category errors
 */
export type ClientError = McpError | ProtocolError

// ============================================================================
// handlers for server→client requests
// ============================================================================

/**
 * What a client handler fails with to answer the server with an error:
 * `ErrorResponse` (sent as it is). `McpError` is accepted too, and sent as it
 * is, for handlers written before the two were separate types (deprecated:
 * fail with `ErrorResponse`).
 * @since 0.1.0
 * @category errors
 */
export type HandlerError = ErrorResponse | McpError

/**
 * What a sampling handler is told besides the request's params: the protocol
 * version of the connection, which decides the answer's shape (an array of
 * content blocks, and `tool_use` blocks, from 2025-11-25 only:
 * `Lifecycle.allowsSamplingContentArrays`).
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 * import * as Effect from "effect/Effect"
 *
 * const sampling: McpClient.SamplingHandler = (_params, request) =>
 *   Effect.succeed({
 *     role: "assistant",
 *     model: "m",
 *     content: Lifecycle.allowsSamplingContentArrays(request.protocolVersion)
 *       ? [{ type: "text", text: "one" }, { type: "text", text: "two" }]
 *       : { type: "text", text: "one\n\ntwo" }
 *   })
 * ```
 * @since 0.1.0
 * @category handlers
 */
export interface SamplingRequest {
  /** The negotiated protocol version (`"2025-06-18"`, `"2026-07-28"`, …). */
  readonly protocolVersion: string
}

/**
 * Answers `sampling/createMessage`: a function, or an object that also says
 * whether the handler accepts `tools` and `toolChoice` (declares
 * `sampling.tools`). `R` is what the handler needs; it becomes a requirement
 * of the client's Layer. The handler is the host's model call; fail with
 * `ErrorResponse` to refuse (the user declined, a limit was hit): the server's
 * `ctx.sample` then fails with an `McpError` carrying its code and message.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import { ErrorResponse } from "@effect-mcp/mcp/McpError"
 * import * as Effect from "effect/Effect"
 *
 * const ClientLive = McpClient.layer({
 *   name: "my-host",
 *   version: "1.0.0",
 *   sampling: (params) =>
 *     params.maxTokens > 4096
 *       ? Effect.fail(new ErrorResponse({ code: -1, message: "too many tokens asked" }))
 *       : Effect.succeed({
 *         role: "assistant",
 *         content: { type: "text", text: "a reply from the host's model" },
 *         model: "my-model"
 *       })
 * })
 * ```
 * @since 0.1.0
 * @category handlers
 */
export type SamplingHandler<R = never> =
  | ((
    params: McpSchema.CreateMessageRequestParams,
    request: SamplingRequest
  ) => Effect.Effect<McpSchema.CreateMessageResult, HandlerError, R>)
  | {
    readonly createMessage: (
      params: McpSchema.CreateMessageRequestParams,
      request: SamplingRequest
    ) => Effect.Effect<McpSchema.CreateMessageResult, HandlerError, R>
    /** Whether the handler accepts `tools` and `toolChoice` (declares `sampling.tools`). */
    readonly tools?: boolean | undefined
  }

/**
 * Answers `elicitation/create` (a tool asking the user something mid-call),
 * in form mode, URL mode, or both: the client declares `elicitation.form`
 * and/or `elicitation.url` for the handlers given; a request in a mode
 * without a handler is refused with -32602.
 *
 * - `form`: show `params.message` and a form for `params.requestedSchema` (a
 *   flat object of string, number, boolean and enum fields); answer `accept`
 *   with the `content`, or `decline` / `cancel`. The defaults of the schema
 *   are filled into an accepted answer's missing fields.
 * - `url` (2025-11-25): send the user to `params.url` (for what must not
 *   pass through the client: credentials, payments); answer `accept` once
 *   the user agreed to go, `decline` or `cancel` otherwise.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * // the host's UI: a form for the schema, undefined when the user declines
 * declare const askUser: (
 *   message: string,
 *   schema: { readonly properties: object }
 * ) => Effect.Effect<{ [field: string]: string | number | boolean } | undefined>
 * declare const openInBrowser: (url: string) => Effect.Effect<boolean>
 *
 * const elicitation: McpClient.ElicitationHandlers = {
 *   form: (params) =>
 *     Effect.map(askUser(params.message, params.requestedSchema), (content) =>
 *       content === undefined ? { action: "decline" as const } : { action: "accept" as const, content }),
 *   url: (params) =>
 *     Effect.map(openInBrowser(params.url), (opened) => ({ action: opened ? "accept" as const : "cancel" as const }))
 * }
 *
 * const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0", elicitation })
 * ```
 * @since 0.1.0
 * @category handlers
 */
export interface ElicitationHandlers<R = never> {
  /** Form mode: the client applies the requested schema's defaults to an accepted answer. */
  readonly form?:
    | ((params: McpSchema.ElicitRequestFormParams) => Effect.Effect<McpSchema.ElicitResult, HandlerError, R>)
    | undefined
  /** URL mode (2025-11-25): the user is sent to a URL. */
  readonly url?:
    | ((params: McpSchema.ElicitRequestURLParams) => Effect.Effect<McpSchema.ElicitResult, HandlerError, R>)
    | undefined
}

/**
 * The client's roots: a fixed list, or a `SubscriptionRef` whose every change
 * sends `notifications/roots/list_changed`.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 * import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
 * import * as SubscriptionRef from "effect/SubscriptionRef"
 *
 * const program = Effect.gen(function*() {
 *   const roots = yield* SubscriptionRef.make<ReadonlyArray<McpSchema.Root>>([
 *     { uri: "file:///home/me/project", name: "project" }
 *   ])
 *   const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0", roots })
 *   // later: the server gets notifications/roots/list_changed
 *   yield* SubscriptionRef.update(roots, (all) => [...all, { uri: "file:///home/me/notes", name: "notes" }])
 * })
 * ```
 * @since 0.1.0
 * @category handlers
 */
export type RootsOption =
  | ReadonlyArray<McpSchema.Root>
  | SubscriptionRef.SubscriptionRef<ReadonlyArray<McpSchema.Root>>

// ============================================================================
// the client
// ============================================================================

/**
 * The options of a client. The handlers of server→client requests are
 * options too (`sampling`, `elicitation`, `roots`): the client declares
 * exactly the capabilities it has a handler for, and what the handlers need
 * shows in the type of `McpClient.layer` and `McpClient.make`.
 *
 * @since 0.1.0
 * @category options
 */
export interface ClientOptions {
  readonly name: string
  readonly version: string
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly websiteUrl?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  /** The version asked for (default: our latest). */
  readonly protocolVersion?: string | undefined
  /** Extra capabilities to declare (e.g. `experimental`); handler capabilities are added from the handlers given. */
  readonly capabilities?: McpSchema.ClientCapabilities | undefined
  /** Answers `sampling/createMessage`; without it the client declares no `sampling`. */
  // `any`: the handler's own requirements, read back from the options' type by HandlerRequirements
  readonly sampling?: SamplingHandler<any> | undefined
  /** Answers `elicitation/create`; without it the client declares no `elicitation`. */
  // `any`: as for `sampling`
  readonly elicitation?: ElicitationHandlers<any> | undefined
  /** Answers `roots/list`; without it the client declares no `roots`. */
  readonly roots?: RootsOption | undefined
  /** Default per-request timeout (60 s); progress resets it. */
  readonly requestTimeout?: Duration.Input | undefined
  /** Hard maximum per request, progress included (10 min). */
  readonly maxRequestTimeout?: Duration.Input | undefined
  /** Ping the server every `interval`; after `maxMissed` (default 3) unanswered pings the client closes. */
  readonly keepAlive?: { readonly interval: Duration.Input; readonly maxMissed?: number | undefined } | undefined
  /** Check `structuredContent` against the tool's `outputSchema` (default true; needs the tool listed first). */
  readonly validateStructuredContent?: boolean | undefined
  /**
   * Which era to speak, decided once on connecting (default `"auto"`):
   * `"auto"` sends `server/discover` with the 2026 envelope and falls back to
   * `initialize` when the server is of 2025 (see `probeTimeout`); `"2025"`
   * only initializes (2025-11-25 and older); `"2026-07-28"` speaks 2026
   * only. The calls are the same in either era.
   */
  readonly era?: "auto" | "2025" | "2026-07-28" | undefined
  /** With `era: "auto"`: how long to wait for the answer to `server/discover` before initializing instead (3 s). */
  readonly probeTimeout?: Duration.Input | undefined
  /** 2026: bound on the input rounds (`InputRequiredResult`) of one call (default 10). */
  readonly maxInputRounds?: number | undefined
  /**
   * The lowest level of the server's log messages (`logMessages`) wanted. On
   * 2026-07-28 it travels in the `_meta` of every request
   * (`"io.modelcontextprotocol/logLevel"`); on 2025 it is sent with
   * `logging/setLevel` once initialized, when the server declares `logging`.
   * Without it a 2026 server sends no log messages and a 2025 one chooses
   * (see `HandlerContext.log` for the rule). `setLogLevel` changes it later.
   * @since 0.1.0
   */
  readonly logLevel?: McpSchema.LoggingLevel | undefined
}

type EffectRequirements<F> = F extends (...args: ReadonlyArray<never>) => Effect.Effect<infer _A, infer _E, infer R> ? R
  : never

/**
 * What the handlers of a client's options need: the union of their Effects'
 * requirements.
 *
 * @since 0.1.0
 * @category options
 */
export type HandlerRequirements<O extends ClientOptions> =
  | (O["sampling"] extends infer S ? S extends { readonly createMessage: infer F } ? EffectRequirements<F>
    : EffectRequirements<S>
    : never)
  | (O["elicitation"] extends infer H ? H extends ElicitationHandlers<infer _> ?
      | EffectRequirements<H["form"]>
      | EffectRequirements<H["url"]>
    : never
    : never)

/**
 * Per-call options: timeouts, and progress (`onProgress` adds a progress token
 * to the request; each notification restarts `timeout` unless
 * `resetTimeoutOnProgress` is false).
 * @since 0.1.0
 * @category models
 */
export interface CallOptions {
  readonly timeout?: Duration.Input | undefined
  readonly maxTimeout?: Duration.Input | undefined
  readonly onProgress?: ((progress: Protocol.ProgressParams) => Effect.Effect<void>) | undefined
  readonly resetTimeoutOnProgress?: boolean | undefined
  /**
   * The request's `params._meta`, sent as given (the SDK adds its own keys beside them: a
   * progress token, the 2026 envelope, the trace context unless `traceparent` is set here).
   */
  readonly _meta?: { readonly [key: string]: unknown } | undefined
}

/**
 * The arguments of a typed `callTool` after the tool: its parameters
 * (optional when it takes none), then the call's options.
 *
 * @since 0.1.0
 * @category models
 */
export type TypedCallArguments<T extends McpTool.Any> = {} extends McpTool.Parameters<T>
  ? [args?: McpTool.Parameters<T>, options?: CallOptions]
  : [args: McpTool.Parameters<T>, options?: CallOptions]

/**
 * The arguments of a typed `getPrompt` after the prompt: its arguments
 * (optional when it takes none, or none is required), then the call's options.
 *
 * @since 0.1.0
 * @category models
 */
export type TypedPromptArguments<P extends McpPrompt.Any> = {} extends McpPrompt.Arguments<P>
  ? [args?: McpPrompt.Arguments<P>, options?: CallOptions]
  : [args: McpPrompt.Arguments<P>, options?: CallOptions]

/**
 * A tool's `outputSchema` as the client lists it: a JSON Schema object. On
 * 2025-11-25 it has `type: "object"` (`McpSchema.ToolJsonSchema`); on
 * 2026-07-28 it may be any JSON Schema (`{ "type": "string" }` too), so the
 * type says only what every one has: `properties` and `required` keep their
 * shapes when present, any other keyword is `unknown`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolOutputSchema {
  readonly $schema?: string
  readonly properties?: { readonly [name: string]: { readonly [keyword: string]: unknown } }
  readonly required?: ReadonlyArray<string>
  readonly [keyword: string]: unknown
}

/**
 * A tool as the client lists it: `McpSchema.Tool`, with an `outputSchema`
 * that need not be an object schema (2026-07-28, see {@link ToolOutputSchema}).
 *
 * @since 0.1.0
 * @category models
 */
export interface Tool extends Omit<McpSchema.Tool, "outputSchema"> {
  /** The schema of `structuredContent` (2025-11-25: an object schema; 2026-07-28: any JSON Schema object). */
  readonly outputSchema?: ToolOutputSchema
}

/**
 * A `tools/call` result as the client gives it. On 2025-11-25
 * `structuredContent` is a JSON object (`McpSchema.CallToolResult`); on
 * 2026-07-28 it may be any JSON value (a string, an array, `null`), so its
 * type is `unknown`: narrow it, or call with a declaration
 * (`callTool(McpTool)`) to get it decoded.
 *
 * @since 0.1.0
 * @category models
 * @example
 * ```ts
 * import type * as McpClient from "@effect-mcp/mcp/McpClient"
 *
 * const sumOf = (result: McpClient.CallToolResult): number | undefined => {
 *   const content = result.structuredContent
 *   return typeof content === "object" && content !== null && "sum" in content && typeof content.sum === "number"
 *     ? content.sum
 *     : undefined
 * }
 * ```
 */
export interface CallToolResult extends Omit<McpSchema.CallToolResult, "structuredContent"> {
  /** The structured result (2025-11-25: a JSON object; 2026-07-28: any JSON value). */
  readonly structuredContent?: unknown
}

/**
 * An event of `callToolStream`: progress, then the result.
 * @since 0.1.0
 * @category models
 */
export type ToolCallEvent =
  | { readonly _tag: "Progress"; readonly progress: Protocol.ProgressParams }
  | { readonly _tag: "Result"; readonly result: CallToolResult }

/**
 * The notifications a `listen` stream asks for.
 *
 * @since 0.1.0
 * @category models
 */
export interface ListenFilter {
  readonly toolsListChanged?: boolean | undefined
  readonly promptsListChanged?: boolean | undefined
  readonly resourcesListChanged?: boolean | undefined
  /** `notifications/resources/updated` of these URIs. */
  readonly resources?: ReadonlyArray<string> | undefined
}

/**
 * A connected, initialized client: what the server said at initialize, and a
 * typed call for every server feature.
 * @since 0.1.0
 * @category models
 */
export interface McpClientShape {
  /** The era this client speaks with the server: `"2025"` (initialized session) or `"2026"` (stateless). */
  readonly era: ProtocolEra.Era
  readonly serverInfo: McpSchema.Implementation
  readonly serverCapabilities: McpSchema.ServerCapabilities
  readonly protocolVersion: string
  readonly instructions: string | undefined
  /** Any request, capability-checked, with the result undecoded. */
  readonly request: (
    method: string,
    params?: JsonRpc.Params,
    options?: CallOptions
  ) => Effect.Effect<Protocol.Result, ClientError>
  readonly notify: (method: string, params?: JsonRpc.Params) => Effect.Effect<void, ProtocolError>
  readonly ping: Effect.Effect<void, ClientError>

  readonly listTools: Stream.Stream<Tool, ClientError>
  readonly listToolsAll: (options?: { readonly maxPages?: number }) => Effect.Effect<ReadonlyArray<Tool>, ClientError>
  /**
   * `tools/call`. Given a declaration (`McpTool.make`), the arguments are
   * checked at compile time and encoded with its `parameters`, and the result
   * is decoded: its `success`, its declared `failure` or a `McpTool.ToolError`
   * for a tool error, a `Schema.SchemaError` for arguments its `parameters` reject.
   * Given a name, the raw result (a tool error is a result too; on
   * 2026-07-28 its `structuredContent` may be any JSON value, see
   * {@link CallToolResult}). A tool
   * whose `execution.taskSupport` is `"required"` (2025-11-25 tasks) is
   * called as a task: the call waits for the task's result (past the
   * default request timeout; a `timeout` given bounds each wait), and
   * interrupting it, or a wait failing on our side, cancels the task
   * (`tasks/cancel`). Its support is read
   * from the tools listed so far; a tool not listed yet whose plain call the
   * server refuses makes the client list the tools once and call it as a task.
   *
   * @example
   * ```ts
   * import * as McpClient from "@effect-mcp/mcp/McpClient"
   * import * as McpTool from "@effect-mcp/mcp/McpTool"
   * import * as Effect from "effect/Effect"
   * import * as Schema from "effect/Schema"
   *
   * const Haiku = McpTool.make({
   *   name: "haiku",
   *   parameters: Schema.Struct({ topic: Schema.String }),
   *   success: Schema.Struct({ haiku: Schema.String })
   * })
   *
   * const program = Effect.gen(function*() {
   *   const client = yield* McpClient.McpClient
   *   const { haiku } = yield* client.callTool(Haiku, { topic: "fibers" })
   *   const raw = yield* client.callTool("haiku", { topic: "fibers" })
   * })
   * ```
   */
  readonly callTool: {
    <T extends McpTool.Any>(
      tool: T,
      ...rest: TypedCallArguments<T>
    ): Effect.Effect<
      McpTool.Success<T>,
      McpTool.Failure<T> | McpTool.ToolError | Schema.SchemaError | ClientError
    >
    (
      name: string,
      args?: { readonly [key: string]: unknown },
      options?: CallOptions
    ): Effect.Effect<CallToolResult, ClientError>
  }
  readonly callToolStream: (
    name: string,
    args?: { readonly [key: string]: unknown },
    options?: Omit<CallOptions, "onProgress">
  ) => Stream.Stream<ToolCallEvent, ClientError>

  readonly listResources: Stream.Stream<McpSchema.Resource, ClientError>
  readonly listResourcesAll: (
    options?: { readonly maxPages?: number }
  ) => Effect.Effect<ReadonlyArray<McpSchema.Resource>, ClientError>
  readonly listResourceTemplates: Stream.Stream<McpSchema.ResourceTemplate, ClientError>
  readonly listResourceTemplatesAll: (
    options?: { readonly maxPages?: number }
  ) => Effect.Effect<ReadonlyArray<McpSchema.ResourceTemplate>, ClientError>
  readonly readResource: (uri: string, options?: CallOptions) => Effect.Effect<McpSchema.ReadResourceResult, ClientError>
  /** Subscribes to a resource for the life of the scope; the stream carries its update notifications. */
  readonly subscribe: (
    uri: string
  ) => Effect.Effect<Stream.Stream<McpSchema.ResourceUpdatedNotificationParams>, ClientError, Scope.Scope>

  readonly listPrompts: Stream.Stream<McpSchema.Prompt, ClientError>
  readonly listPromptsAll: (options?: { readonly maxPages?: number }) => Effect.Effect<ReadonlyArray<McpSchema.Prompt>, ClientError>
  /**
   * `prompts/get`. Given a declaration (`McpPrompt.make`), the arguments are
   * checked at compile time and encoded with its `parameters` to the strings
   * the wire carries (a `Schema.SchemaError` for arguments they reject);
   * given a name, the string arguments as they are.
   *
   * @example
   * ```ts
   * import * as McpClient from "@effect-mcp/mcp/McpClient"
   * import * as McpPrompt from "@effect-mcp/mcp/McpPrompt"
   * import * as Effect from "effect/Effect"
   * import * as Schema from "effect/Schema"
   *
   * const Summarize = McpPrompt.make({
   *   name: "summarize",
   *   parameters: Schema.Struct({ topic: Schema.String, words: Schema.optional(Schema.NumberFromString) })
   * })
   *
   * const program = Effect.gen(function*() {
   *   const client = yield* McpClient.McpClient
   *   const { messages } = yield* client.getPrompt(Summarize, { topic: "fibers", words: 50 }) // words: "50" on the wire
   *   const raw = yield* client.getPrompt("summarize", { topic: "fibers" })
   * })
   * ```
   */
  readonly getPrompt: {
    <P extends McpPrompt.Any>(
      prompt: P,
      ...rest: TypedPromptArguments<P>
    ): Effect.Effect<McpSchema.GetPromptResult, Schema.SchemaError | ClientError>
    (
      name: string,
      args?: { readonly [key: string]: string },
      options?: CallOptions
    ): Effect.Effect<McpSchema.GetPromptResult, ClientError>
  }
  readonly complete: (params: McpSchema.CompleteRequestParams) => Effect.Effect<McpSchema.CompleteResult, ClientError>
  readonly setLogLevel: (level: McpSchema.LoggingLevel) => Effect.Effect<void, ClientError>

  /**
   * The server's change notifications the filter asks for, in either era:
   * on 2026 a `subscriptions/listen` request held open (sent again when the
   * connection breaks), on 2025 the standing stream with the filter's
   * resources subscribed. The stream yields once the server acknowledged it.
   *
   * @example
   * ```ts
   * import * as McpClient from "@effect-mcp/mcp/McpClient"
   * import * as Effect from "effect/Effect"
   * import * as Stream from "effect/Stream"
   *
   * const program = Effect.gen(function*() {
   *   const client = yield* McpClient.McpClient
   *   yield* client.listen({ toolsListChanged: true, resources: ["file:///notes.md"] }).pipe(
   *     Stream.runForEach((n) => Effect.log(n.method))
   *   )
   * })
   * ```
   */
  readonly listen: (filter: ListenFilter) => Stream.Stream<JsonRpc.Notification, ClientError>
  /** Every notification from the server. */
  readonly notifications: Stream.Stream<JsonRpc.Notification>
  readonly toolListChanged: Stream.Stream<void>
  readonly resourceListChanged: Stream.Stream<void>
  readonly promptListChanged: Stream.Stream<void>
  readonly logMessages: Stream.Stream<McpSchema.LoggingMessageNotificationParams>
  /** Completes when the connection is over. */
  readonly closed: Effect.Effect<void>
}

/**
 * A connected, initialized client.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const client = yield* McpClient.McpClient
 *   yield* client.setLogLevel("info")
 *   const tools = yield* client.listToolsAll()
 *   return tools.map((tool) => tool.name)
 * })
 * ```
 * @since 0.1.0
 * @category tags
 */
export class McpClient extends Context.Service<McpClient, McpClientShape>()("@effect-mcp/mcp/McpClient") {}

/**
 * The capabilities a client declares: `options.capabilities` and one entry
 * per handler given, nothing for a handler not given.
 *
 * @since 0.1.0
 * @category options
 */
export const declaredCapabilities: (options: ClientOptions) => McpSchema.ClientCapabilities =
  ClientRequests.declaredCapabilities

/**
 * Fills the defaults of a form's requested schema into an accepted answer
 * (what the client does before answering a form elicitation).
 *
 * @since 0.1.0
 * @category elicitation
 */
export const applyElicitationDefaults: (
  requestedSchema: McpSchema.ElicitRequestFormParams["requestedSchema"],
  result: McpSchema.ElicitResult
) => McpSchema.ElicitResult = ClientRequests.applyElicitationDefaults

const decodeUrlElicitationRequired = Schema.decodeUnknownOption(McpSchema.URLElicitationRequiredErrorObject)

/**
 * The URL-mode elicitations of a `-32042` error ("URL elicitation required",
 * `data.elicitations`): `Some` for an `McpError` of that code whose `data` is
 * valid, `None` for anything else.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import { McpError } from "@effect-mcp/mcp/McpError"
 * import * as Option from "effect/Option"
 *
 * const error = new McpError({
 *   code: -32042,
 *   message: "Sign in first",
 *   data: { elicitations: [{ mode: "url", elicitationId: "e1", url: "https://example.com/login", message: "Sign in" }] }
 * })
 * const urls = Option.map(McpClient.urlElicitations(error), (els) => els.map((el) => el.url))
 * ```
 * @since 0.1.0
 * @category elicitation
 */
export const urlElicitations = (error: unknown): Option.Option<ReadonlyArray<McpSchema.ElicitRequestURLParams>> =>
  error instanceof McpError && error.code === McpSchema.URL_ELICITATION_REQUIRED
    ? Option.map(decodeUrlElicitationRequired(error.toObject()), (e) => e.data.elicitations)
    : Option.none()

/**
 * The options of {@link retryUrlElicitations}.
 *
 * @since 0.1.0
 * @category elicitation
 */
export interface UrlElicitationOptions<E2 = never, R2 = never> {
  /** Shows one elicitation's URL to the user (called for each, every round). */
  readonly onUrl: (elicitation: McpSchema.ElicitRequestURLParams) => Effect.Effect<void, E2, R2>
  /** Most times the request is sent again (default 3); after them the `-32042` error is the failure. */
  readonly maxRounds?: number | undefined
  /** Longest wait for a round's completions (Effect's Clock); past it the `-32042` error is the failure. */
  readonly timeout?: Duration.Input | undefined
}

/**
 * Runs `request`; when the server refuses it with `-32042` (URL elicitation
 * required), calls `onUrl` for each elicitation, waits for the server's
 * `notifications/elicitation/complete` of every `elicitationId` (collected
 * from before the request starts: one may come before the error), then runs
 * the request again, at most `maxRounds` times. Any other failure, the
 * `-32042` after the last round or a wait past `timeout` fails as it came.
 *
 * 2025 only: on a 2026 session (no `notifications/elicitation/complete`; the
 * server asks for a URL through an `elicitation/create` input request that the
 * client's `elicitation.url` handler answers) `request` runs as it is.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Console from "effect/Console"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const client = yield* McpClient.McpClient
 *   return yield* McpClient.retryUrlElicitations(client, client.callTool("checkout", {}), {
 *     onUrl: (elicitation) => Console.log(`open ${elicitation.url} (${elicitation.message})`),
 *     timeout: "5 minutes"
 *   })
 * })
 * ```
 * @since 0.1.0
 * @category elicitation
 */
export const retryUrlElicitations = <A, E, R, E2 = never, R2 = never>(
  client: Pick<McpClientShape, "era" | "notifications">,
  request: Effect.Effect<A, E, R>,
  options: UrlElicitationOptions<E2, R2>
): Effect.Effect<A, E | E2, R | R2> => {
  if (client.era === "2026") return request
  const maxRounds = options.maxRounds ?? 3
  return Effect.gen(function*() {
    const completed = new Set<string>()
    const arrived = yield* Queue.unbounded<string>()
    yield* client.notifications.pipe(
      Stream.runForEach((n) => {
        const id = n.params?.elicitationId
        if (n.method !== "notifications/elicitation/complete" || typeof id !== "string") return Effect.void
        completed.add(id)
        return Queue.offer(arrived, id)
      }),
      // started at once: the subscription is in place before the request is sent
      Effect.forkScoped({ startImmediately: true })
    )
    const waitAll = (ids: ReadonlyArray<string>): Effect.Effect<void> =>
      Effect.whileLoop({
        while: () => !ids.every((id) => completed.has(id)),
        body: () => Queue.take(arrived),
        step: () => undefined
      })
    const attempt = (round: number): Effect.Effect<A, E | E2, R | R2> =>
      Effect.catchIf(
        request,
        (e) => round < maxRounds && Option.isSome(urlElicitations(e)),
        (e) =>
          Effect.gen(function*() {
            const elicitations = Option.getOrThrow(urlElicitations(e))
            for (const el of elicitations) yield* options.onUrl(el)
            const wait = waitAll(elicitations.map((el) => el.elicitationId))
            if (options.timeout === undefined) yield* wait
            else if (Option.isNone(yield* Effect.timeoutOption(wait, options.timeout))) return yield* Effect.fail(e)
            return yield* attempt(round + 1)
          })
      )
    return yield* attempt(0)
  }).pipe(Effect.scoped)
}

/**
 * Connects over the `Transport` in context: initializes, then serves the
 * session until the scope closes. The handlers in `options` run with the
 * context `make` runs in, so their requirements are `make`'s.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * const client = McpClient.make({
 *   name: "app",
 *   version: "1.0.0",
 *   elicitation: { form: () => Effect.succeed({ action: "decline" }) }
 * })
 * // Effect<McpClientShape, ClientError, Transport | Scope>
 * ```
 */
export const make = <O extends ClientOptions>(
  options: O
): Effect.Effect<McpClientShape, ClientError, Transport | Scope.Scope | HandlerRequirements<O>> =>
  Effect.tap(connect(options), (client) => askLogLevel(client, options.logLevel))

/** `ClientOptions.logLevel`: in the 2026 envelope, or `logging/setLevel` to a 2025 server that logs. */
const askLogLevel = (client: McpClientShape, level: McpSchema.LoggingLevel | undefined): Effect.Effect<void, ClientError> =>
  level === undefined || (client.era === "2025" && client.serverCapabilities.logging === undefined)
    ? Effect.void
    : client.setLogLevel(level)

const connect = <O extends ClientOptions>(
  options: O
): Effect.Effect<McpClientShape, ClientError, Transport | Scope.Scope | HandlerRequirements<O>> =>
  Effect.gen(function*() {
    const transport = yield* Transport
    let version: string | undefined
    const handlers = yield* ClientRequests.handlersOf(options, () => version)
    // made when the first stream subscribes, shut down with the scope
    const notifications = ClientNotifications.make(yield* Effect.scope)

    const capabilities = declaredCapabilities(options)
    const protocol = yield* ProtocolMake.start(transport, {
      side: "client",
      onRequest: ClientRequests.onRequest(handlers),
      onNotification: notifications.publish,
      batches: () => Lifecycle.allowsBatches(version),
      requestTimeout: options.requestTimeout,
      maxRequestTimeout: options.maxRequestTimeout,
      sessionId: transport.info?.sessionId,
      protocolVersion: () => version
    })

    const era = options.era ?? "auto"
    const session = Client2026.make({
      protocol,
      version: era === "auto" || era === "2025" ? McpSchema2026.PROTOCOL_VERSION : era,
      capabilities,
      clientInfo: ClientHandshake.clientInfo(options),
      handlers,
      maxInputRounds: options.maxInputRounds
    })
    const on2026 = (discover: McpSchema2026.DiscoverResult | undefined) =>
      Effect.gen(function*() {
        version = session.version()
        transport.negotiated?.(version)
        return Client2026.shape({
          session,
          cached: yield* ClientCache.make({
            raw: session.raw,
            request: session.request,
            settle: Client2026.settled,
            notifications
          }),
          protocol,
          discover,
          notifications,
          validateStructuredContent: options.validateStructuredContent !== false
        })
      })
    let first: McpSchema.InitializeResult | undefined
    if (era !== "2025") {
      const outcome = era === "auto"
        ? yield* ClientEra.negotiateAuto({
          session,
          initialize: ClientHandshake.initializeRequest(options, capabilities, protocol),
          probeTimeout: options.probeTimeout
        })
        : yield* ClientEra.negotiatePinned(session)
      if (outcome._tag === "2026") return yield* on2026(outcome.discover)
      first = outcome.init
    }

    const handshake = yield* Effect.result(ClientHandshake.handshake(options, capabilities, protocol, transport, first))
    if (Result.isFailure(handshake)) {
      // auto, and the server refused initialize with -32022 offering a 2026 version (it did not
      // answer the probe in time): it is a 2026 server after all
      const offered = era === "auto" && handshake.failure instanceof McpError
        ? ClientEra.offeredVersion(handshake.failure)
        : undefined
      if (offered === undefined) return yield* Effect.fail(handshake.failure)
      session.useVersion(offered)
      const outcome = yield* ClientEra.negotiatePinned(session)
      return yield* on2026(outcome._tag === "2026" ? outcome.discover : undefined)
    }
    const { init, notify, recover } = handshake.success
    version = init.protocolVersion
    if (options.keepAlive !== undefined) yield* Protocol.keepAlive(protocol, options.keepAlive)
    if (handlers.roots !== undefined) yield* ClientRequests.watchRoots(handlers.roots, notify)

    const serverCapabilities = init.capabilities
    // the options go on to the engine as they are: `checkResult` too (`engineRequest`)
    const request = ClientCalls.gated<ClientCalls.EngineCallOptions>(
      serverCapabilities,
      (method, params, callOptions) => recover(method, protocol.request(method, params, callOptions))
    )

    return {
      era: "2025",
      serverInfo: init.serverInfo,
      serverCapabilities,
      protocolVersion: init.protocolVersion,
      instructions: init.instructions,
      request,
      notify,
      ping: Effect.asVoid(recover("ping", protocol.request("ping"))),
      closed: protocol.closed,
      ...ClientCalls.make({
        request,
        notifications,
        validateStructuredContent: options.validateStructuredContent !== false,
        toolTasks: serverCapabilities.tasks?.requests?.tools?.call !== undefined,
        engineRequest: request
      })
    } satisfies McpClientShape
  })

/**
 * A connected client as a Layer over the `Transport` in context. The
 * handlers of server→client requests are options: what they need is a
 * requirement of the Layer, and a client given no handler for a feature
 * declares no capability for it.
 *
 * @since 0.1.0
 * @category layers
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Context from "effect/Context"
 * import * as Effect from "effect/Effect"
 *
 * class Model extends Context.Service<Model, { readonly complete: (prompt: string) => Effect.Effect<string> }>()("Model") {}
 *
 * const ClientLive = McpClient.layer({
 *   name: "app",
 *   version: "1.0.0",
 *   sampling: (params) =>
 *     Effect.gen(function*() {
 *       const model = yield* Model
 *       const text = yield* model.complete(JSON.stringify(params.messages))
 *       return { role: "assistant", model: "mine", content: { type: "text", text } }
 *     }),
 *   roots: [{ uri: "file:///home/me/project", name: "project" }]
 * })
 * // Layer<McpClient, ClientError, Transport | Model>: declares sampling and roots, not elicitation
 * ```
 */
export const layer = <O extends ClientOptions>(
  options: O
): Layer.Layer<McpClient, ClientError, Transport | HandlerRequirements<O>> => Layer.effect(McpClient, make(options))
