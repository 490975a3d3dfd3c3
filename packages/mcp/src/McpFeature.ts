/**
 * The features an MCP server offers, as values: tools, resources, resource
 * templates and prompts, each with its handler. Defining one runs nothing;
 * `McpServer.register` adds them to a server for the life of a Layer, and
 * the services a handler needs come from that Layer's context.
 * `McpServer` re-exports every constructor and type here
 * (`McpServer.tool` is `McpFeature.tool`).
 *
 * @example
 * ```ts
 * import * as McpFeature from "@effect-mcp/mcp/McpFeature"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Echo = McpFeature.tool({
 *   name: "echo",
 *   parameters: Schema.Struct({ text: Schema.String }),
 *   handler: ({ text }) => Effect.succeed(text)
 * })
 * const Readme = McpFeature.resource({ uri: "docs://readme", name: "readme", content: Effect.succeed("# Hello") })
 *
 * export const FeaturesLive = McpServer.register(Echo, Readme)
 * ```
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { HandlerContext, ReverseCallError } from "./HandlerContext.js"
import type { Principal } from "./internal/auth/principal.js"
import * as Prompts from "./internal/server/prompts.js"
import * as Resources from "./internal/server/resources.js"
import * as Tools from "./internal/server/tools.js"
import type { ErrorResponse } from "./McpError.js"
import type * as McpSchema from "./McpSchema.js"
import * as McpPrompt from "./McpPrompt.js"
import * as McpTool from "./McpTool.js"
import type { ServerSession } from "./ServerSession.js"
import type * as UriTemplate from "./UriTemplate.js"

/**
 * What a handler may require beyond its own services: the request, the
 * session, and (on a transport protected by `McpAuth`) the caller.
 * @since 0.1.0
 * @category models
 */
export type HandlerServices = HandlerContext | ServerSession | Principal

/**
 * A caching hint of a 2026-07-28 result: how long the client may reuse it (`ttlMs`), and whether
 * it is the same for every caller (`"public"`) or for this one only (`"private"`).
 * @since 0.1.0
 * @category models
 */
export interface CacheHint {
  readonly ttlMs: number
  readonly cacheScope: "public" | "private"
}

interface Scoped {
  /** Scopes the feature needs (see `McpAuth`): a request for it with a token lacking one is answered 403 `insufficient_scope`. */
  readonly scopes?: ReadonlyArray<string> | undefined
  /**
   * The feature's caching hint on 2026-07-28: a resource's or template's is that of its reads
   * (over `ServerOptions.cacheHints["resources/read"]`); and a list holding the feature is fresh
   * no longer, and no more widely, than it says (the list's hint is capped by it).
   */
  readonly cacheHint?: CacheHint | undefined
}

/**
 * What a tool without an output schema may return.
 * @since 0.1.0
 * @category models
 */
export type ToolContent = McpTool.ToolContent

/**
 * A tool, ready to register. `R` is what its handler needs besides `HandlerServices`.
 * @since 0.1.0
 * @category models
 */
export interface Tool<R = never> extends Scoped, TaskStart {
  readonly _tag: "Tool"
  readonly name: string
  readonly definition: McpSchema.Tool
  readonly call: (args: unknown) => Effect.Effect<McpSchema.CallToolResult, ErrorResponse, R | HandlerServices>
  /**
   * The definition a client is shown, by the capabilities it declared (on 2026-07-28 those of the
   * request's `_meta` envelope): `tools/list` lists it, and `undefined` leaves the tool out, its
   * `tools/call` then answered as for an unknown tool. Absent: `definition`, for every client.
   * `McpApps.tool` sets it (an app's tool to hosts that render apps, a text tool to the rest).
   */
  readonly definitionFor?: ((client: McpSchema.ClientCapabilities | undefined) => McpSchema.Tool | undefined) | undefined
}

interface TaskStart {
  /**
   * Where a task made of a call begins (`McpTasks`, 2026-07-28): `"call"` (the default), as the
   * call arrives; `"detach"`, where the handler runs `McpTasks.detach`: the input it asks before
   * is asked on the call itself (multi-round-trip rounds), and the call answers with the task
   * there. The handler is the same Effect either way, and `McpTasks.detach` does nothing on a
   * plain call or a 2025-11-25 task.
   */
  readonly taskStart?: "call" | "detach" | undefined
}

interface ToolOptionsBase<A, I> extends Scoped, TaskStart {
  readonly name: string
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  readonly annotations?: McpSchema.ToolAnnotations | undefined
  readonly execution?: McpSchema.ToolExecution | undefined
  readonly _meta?: { readonly [key: string]: unknown } | undefined
  /** The arguments, decoded before the handler runs; published as `inputSchema`. */
  readonly parameters?: Schema.Codec<A, I> | undefined
  /** A raw JSON Schema to publish instead of the one derived from `parameters`. */
  readonly inputSchema?: McpSchema.Tool["inputSchema"] | undefined
}

/**
 * Defines a tool. Arguments are decoded with `parameters` before the handler
 * runs; invalid arguments are answered as a tool error naming the field. With
 * `success`, the handler returns a value of that schema, published as
 * `outputSchema` and sent as `structuredContent` with a JSON text fallback;
 * since `structuredContent` is a JSON object, an output whose encoded form is
 * not one (a number, an array, a union) is sent as `{ result: value }`.
 * Both schemas are published self-contained (JSON Schema 2020-12): every
 * property carries its `type` (`Schema.Int` is `"integer"` with its bounds),
 * with `$defs` only for a recursive schema.
 * Typed failures become tool errors (`isError: true`) saying what failed: the
 * error's message, or its `_tag` and fields (`UserNotFound: {"id":"99"}`)
 * when it has none; a client's `McpError` answer to a reverse call that the
 * handler did not catch names that call. An `ErrorResponse` is sent as the
 * JSON-RPC error; defects are logged and answered -32603 without details.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Add = McpServer.tool({
 *   name: "add",
 *   description: "Adds two integers",
 *   parameters: Schema.Struct({ a: Schema.Int, b: Schema.Int }),
 *   success: Schema.Struct({ sum: Schema.Int }), // outputSchema; sent as structuredContent
 *   annotations: { readOnlyHint: true },
 *   handler: ({ a, b }) => Effect.succeed({ sum: a + b })
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export function tool<A = {}, I = {}, E = never, R = never>(
  options: ToolOptionsBase<A, I> & {
    readonly success?: undefined
    readonly handler: (args: A) => Effect.Effect<ToolContent, E, R>
  }
): Tool<Exclude<R, HandlerServices>>
export function tool<A, I, B, J, E = never, R = never>(
  options: ToolOptionsBase<A, I> & {
    readonly success: Schema.Codec<B, J>
    readonly handler: (args: A) => Effect.Effect<B, E, R>
  }
): Tool<Exclude<R, HandlerServices>>
export function tool(
  options: ToolOptionsBase<unknown, unknown> & {
    readonly success?: Schema.Codec<unknown, unknown> | undefined
    readonly handler: (args: unknown) => Effect.Effect<unknown, unknown, unknown>
  }
): Tool<unknown> {
  const { cacheHint, handler, scopes, taskStart, ...declaration } = options
  return Tools.make(
    McpTool.make(declaration as McpTool.Options<string, McpTool.AnySchema, undefined, undefined>),
    handler,
    scopes,
    cacheHint,
    taskStart
  )
}

/**
 * What the handler of a declared tool may fail with. Without a `failure`:
 * anything. With one: its declared `failure` (sent as a tool error whose
 * `_meta` a typed client decodes), an `ErrorResponse` (sent as the JSON-RPC
 * error), or a `HandlerContext.ReverseCallError` (`ctx.sample`, `ctx.elicit`,
 * `ctx.listRoots` let through: a tool error naming the failed call, as
 * without `failure`; a typed client gets it as a `McpTool.ToolError`). Any
 * other error is a type error: declare it in `failure` (a union schema) or
 * catch it.
 *
 * @since 0.1.0
 * @category tools
 */
export type ToolHandlerError<T> = T extends McpTool.McpTool<infer _N, infer _P, infer _S, infer F>
  ? F extends McpTool.AnySchema ? Schema.Schema.Type<F> | ErrorResponse | ReverseCallError : unknown
  : never

/**
 * Gives a tool declaration (`McpTool.make`) its handler, typed by the
 * declaration: the handler gets the decoded `parameters`, returns a value of
 * `success` and fails with the declared `failure`, which is sent as a tool
 * error the client decodes. A declared `failure` narrows the handler's error
 * channel (see `ToolHandlerError`) but keeps the reverse calls' errors: a
 * `ctx.sample` or `ctx.elicit` left uncaught is still a tool error naming the
 * call. The declaration stays free of server code, so a client package
 * imports it alone; `McpServer.tool({ ..., handler })` is the same for a tool
 * no client shares.
 *
 * @since 0.1.0
 * @category tools
 * @example
 * ```ts
 * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTool from "@effect-mcp/mcp/McpTool"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * class TopicRejected extends Schema.TaggedError<TopicRejected>()("TopicRejected", { message: Schema.String }) {}
 *
 * const Haiku = McpTool.make({
 *   name: "haiku",
 *   parameters: Schema.Struct({ topic: Schema.String }),
 *   success: Schema.Struct({ haiku: Schema.String }),
 *   failure: TopicRejected
 * })
 *
 * const HaikuLive = McpServer.toolHandler(Haiku, ({ topic }) =>
 *   Effect.gen(function*() {
 *     if (topic === "") return yield* Effect.fail(new TopicRejected({ message: "no topic" }))
 *     const ctx = yield* HandlerContext
 *     // its McpError, ProtocolError or ElicitationDeclined may go through: a tool error naming the call
 *     const { style } = yield* ctx.elicit({ message: "Which style?", schema: Schema.Struct({ style: Schema.String }) })
 *     return { haiku: `${topic}, ${style}, five seven five` }
 *   }))
 * // McpServer.register(HaikuLive)
 * ```
 */
export const toolHandler = <T extends McpTool.Any, E extends ToolHandlerError<T>, R = never>(
  declaration: T,
  handler: (args: McpTool.Parameters<T>) => Effect.Effect<McpTool.HandlerSuccess<T>, E, R>,
  options: Scoped & TaskStart = {}
): Tool<Exclude<R, HandlerServices>> =>
  Tools.make(
    declaration,
    handler as (args: unknown) => Effect.Effect<unknown, unknown, unknown>,
    options.scopes,
    options.cacheHint,
    options.taskStart
  ) as Tool<
    Exclude<R, HandlerServices>
  >

/**
 * What a resource read may return.
 * @since 0.1.0
 * @category models
 */
export type ResourceContent =
  | string
  | Uint8Array
  | McpSchema.TextResourceContents
  | McpSchema.BlobResourceContents
  | ReadonlyArray<McpSchema.TextResourceContents | McpSchema.BlobResourceContents>
  | McpSchema.ReadResourceResult

/**
 * A static resource at a fixed URI.
 * @since 0.1.0
 * @category models
 */
export interface Resource<R = never> extends Scoped {
  readonly _tag: "Resource"
  readonly definition: McpSchema.Resource
  readonly read: (uri: string) => Effect.Effect<McpSchema.ReadResourceResult, ErrorResponse, R | HandlerServices>
}

type ResourceMetadata = Omit<McpSchema.Resource, "uri" | "name">

/**
 * Defines a static resource. Its failures: `ErrorResponse` is sent as it is,
 * `ResourceNotFound` is -32002 with `data.uri`; any other failure is logged
 * and answered -32603 "Internal error" without its details.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 *
 * const Readme = McpServer.resource({
 *   uri: "docs://readme",
 *   name: "readme",
 *   mimeType: "text/markdown",
 *   content: Effect.succeed("# Hello") // or bytes (sent as base64), or contents objects
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const resource = <E = never, R = never>(
  options: { readonly uri: string; readonly name: string } & ResourceMetadata & Scoped & {
    readonly content: Effect.Effect<ResourceContent, E, R>
  }
): Resource<Exclude<R, HandlerServices>> =>
  Resources.resource(options) as Resource<Exclude<R, HandlerServices>>

/**
 * Completes one argument or template variable: the partial value and the other arguments in, suggestions out.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 *
 * const languages = ["go", "rust", "typescript"]
 * const completeLanguage: McpServer.Completer = (value) =>
 *   Effect.succeed(languages.filter((language) => language.startsWith(value)))
 * ```
 * @since 0.1.0
 * @category models
 */
export type Completer<R = never> = (
  value: string,
  context: { readonly arguments: { readonly [key: string]: string } }
) => Effect.Effect<ReadonlyArray<string>, never, R>

/**
 * A resource template (RFC 6570).
 * @since 0.1.0
 * @category models
 */
export interface ResourceTemplate<R = never> extends Scoped {
  readonly _tag: "ResourceTemplate"
  readonly definition: McpSchema.ResourceTemplate
  readonly template: UriTemplate.UriTemplate
  readonly read: (
    uri: string,
    variables: Record<string, string>
  ) => Effect.Effect<McpSchema.ReadResourceResult, ErrorResponse, R | HandlerServices>
  readonly list: Effect.Effect<ReadonlyArray<McpSchema.Resource>, never, R> | undefined
  readonly complete: { readonly [variable: string]: Completer<R> }
}

type TemplateMetadata = Omit<McpSchema.ResourceTemplate, "uriTemplate" | "name">

/**
 * Defines a resource template (RFC 6570, see `UriTemplate`), listed by
 * `resources/templates/list`; `resources/read` of a URI that matches it runs
 * `read` with the variables matched from the URI (percent-decoded), typed
 * from the template's text: `{id}` and `{+path}` are strings, a variable
 * that may be absent (`{?q}`, `{/segment}`, `{#fragment}`) is optional, and a
 * name the template lacks is a type error (`UriTemplate.Variables`). `list`
 * gives the concrete resources that `resources/list` shows, `complete` the
 * suggestions `completion/complete` returns for a variable. A `read` that fails with `ResourceNotFound` (the URI matches but no
 * such resource exists) is answered -32002 with `data.uri`; `ErrorResponse`
 * is sent as it is; any other failure is logged and answered -32603
 * "Internal error" without its details.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import { ResourceNotFound } from "@effect-mcp/mcp/McpError"
 *
 * const users = new Map([["1", { name: "Ada" }], ["2", { name: "Grace" }]])
 *
 * const User = McpServer.resourceTemplate({
 *   uriTemplate: "users://{id}/profile",
 *   name: "user-profile",
 *   mimeType: "application/json",
 *   // the variables matched from the URI read; an unknown id is -32002 with data.uri
 *   read: ({ id }) => {
 *     const user = users.get(id)
 *     return user === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(JSON.stringify(user))
 *   },
 *   // the concrete resources, listed by resources/list
 *   list: Effect.succeed(Array.from(users.keys(), (id) => ({ uri: `users://${id}/profile`, name: `user ${id}` }))),
 *   // completion/complete for the `id` variable
 *   complete: { id: (value) => Effect.succeed(Array.from(users.keys()).filter((id) => id.startsWith(value))) }
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const resourceTemplate = <const T extends string, E = never, R = never, R2 = never, R3 = never>(
  options: { readonly uriTemplate: T; readonly name: string } & TemplateMetadata & Scoped & {
    /** Reads a URI of the template: its variables are typed from the template's text (see `UriTemplate.Variables`). */
    readonly read: (variables: UriTemplate.Variables<T>, uri: string) => Effect.Effect<ResourceContent, E, R>
    /** Concrete resources of this template, listed by `resources/list`. */
    readonly list?: Effect.Effect<ReadonlyArray<McpSchema.Resource>, never, R2> | undefined
    /** Completers of the template's variables, by name. */
    readonly complete?: { readonly [K in keyof UriTemplate.Variables<T>]?: Completer<R3> } | undefined
  }
): ResourceTemplate<Exclude<R | R2 | R3, HandlerServices>> =>
  // the variables `match` gives are those the template's text types (`UriTemplate.Variables`)
  Resources.resourceTemplate(options as unknown as Parameters<typeof Resources.resourceTemplate>[0]) as ResourceTemplate<
    Exclude<R | R2 | R3, HandlerServices>
  >

/**
 * What a prompt may return.
 * @since 0.1.0
 * @category models
 */
export type PromptContent =
  | string
  | McpSchema.PromptMessage
  | ReadonlyArray<McpSchema.PromptMessage>
  | McpSchema.GetPromptResult

/**
 * A prompt, ready to register.
 * @since 0.1.0
 * @category models
 */
export interface Prompt<R = never> extends Scoped {
  readonly _tag: "Prompt"
  readonly definition: McpSchema.Prompt
  readonly get: (args: unknown) => Effect.Effect<McpSchema.GetPromptResult, ErrorResponse, R | HandlerServices>
  readonly complete: { readonly [argument: string]: Completer<R> }
}

/**
 * The encoded shape of prompt arguments: prompt arguments are strings on the
 * wire, so a prompt's `parameters` must encode to string fields
 * (`Schema.NumberFromString`, not `Schema.Number`).
 *
 * @since 0.1.0
 * @category prompts
 */
export type PromptArguments = McpPrompt.PromptArguments

/**
 * Defines a prompt. `parameters` (a Struct whose fields encode to strings,
 * since prompt arguments are strings on the wire; anything else is a type
 * error) is published as the prompt's `arguments` and decoded before
 * `content` runs; invalid arguments are answered with -32602. A `content`
 * failing with `ErrorResponse` sends it as it is; any other failure is logged
 * and answered -32603 "Internal error" without its details. For a prompt a
 * client shares, declare it with `McpPrompt.make` and give it its content
 * with {@link promptHandler}.
 *
 * @since 0.1.0
 * @category prompts
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Review = McpServer.prompt({
 *   name: "review",
 *   parameters: Schema.Struct({ file: Schema.String, depth: Schema.optional(Schema.NumberFromString) }),
 *   content: ({ depth, file }) => Effect.succeed(`Review ${file} to depth ${depth ?? 1}`)
 * })
 * ```
 */
export const prompt = <A = {}, I extends PromptArguments = {}, E = never, R = never, R2 = never>(
  options: Omit<McpSchema.Prompt, "arguments"> & Scoped & {
    readonly parameters?: Schema.Codec<A, I> | undefined
    readonly complete?: { readonly [K in keyof I]?: Completer<R2> } | undefined
    readonly content: (args: A) => Effect.Effect<PromptContent, E, R>
  }
): Prompt<Exclude<R | R2, HandlerServices>> => {
  const { cacheHint, complete, content, scopes, ...declaration } = options
  return Prompts.make(
    McpPrompt.make(declaration as McpPrompt.Options<string, unknown, PromptArguments>),
    content as (args: unknown) => Effect.Effect<PromptContent, unknown, unknown>,
    { scopes, cacheHint, complete: complete as { readonly [argument: string]: Completer<unknown> } | undefined }
  ) as Prompt<Exclude<R | R2, HandlerServices>>
}

/**
 * Gives a prompt declaration (`McpPrompt.make`) its content, typed by the
 * declaration: `content` gets the decoded `parameters`, and `complete` is
 * keyed by the prompt's argument names. The declaration stays free of server
 * code, so a client package imports it alone and calls
 * `client.getPrompt(Summarize, { topic })` with its arguments checked at
 * compile time; `McpServer.prompt({ ..., content })` is the same for a
 * prompt no client shares.
 *
 * @since 0.1.0
 * @category prompts
 * @example
 * ```ts
 * import * as McpPrompt from "@effect-mcp/mcp/McpPrompt"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Summarize = McpPrompt.make({
 *   name: "summarize",
 *   parameters: Schema.Struct({ topic: Schema.String, words: Schema.optional(Schema.NumberFromString) })
 * })
 *
 * const SummarizeLive = McpServer.promptHandler(Summarize, ({ topic, words }) =>
 *   Effect.succeed(`Summarize ${topic} in ${words ?? 100} words`), {
 *   complete: { topic: (value) => Effect.succeed(["fibers", "layers"].filter((t) => t.startsWith(value))) }
 * })
 * // McpServer.register(SummarizeLive)
 * ```
 */
export const promptHandler = <P extends McpPrompt.Any, E = never, R = never, R2 = never>(
  declaration: P,
  content: (args: McpPrompt.Arguments<P>) => Effect.Effect<PromptContent, E, R>,
  options: Scoped & {
    readonly complete?: { readonly [K in keyof McpPrompt.EncodedArguments<P>]?: Completer<R2> } | undefined
  } = {}
): Prompt<Exclude<R | R2, HandlerServices>> =>
  Prompts.make(
    declaration,
    content as (args: unknown) => Effect.Effect<PromptContent, unknown, unknown>,
    options as Parameters<typeof Prompts.make>[2]
  ) as Prompt<Exclude<R | R2, HandlerServices>>

/**
 * Any feature.
 * @since 0.1.0
 * @category models
 */
export type Feature<R = never> = Tool<R> | Resource<R> | ResourceTemplate<R> | Prompt<R>
