/**
 * An MCP server: a registry of tools, resources, resource templates and
 * prompts, and the server side of the lifecycle, serving any number of
 * sessions over any transport.
 *
 * Features are values (`McpServer.tool`, `McpServer.resource`,
 * `McpServer.resourceTemplate`, `McpServer.prompt`) registered through Layers
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
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Duration from "effect/Duration"
import * as Encoding from "effect/Encoding"
import * as Tracer from "effect/Tracer"
import * as HandlerContextModule from "./HandlerContext.js"
import { HandlerContext } from "./HandlerContext.js"
import * as JsonSchema from "./internal/jsonSchema.js"
import { validator } from "./internal/validate.js"
import type * as JsonRpc from "./JsonRpc.js"
import * as Lifecycle from "./Lifecycle.js"
import * as Failure from "./internal/failure.js"
import { missingScopes, Principal, type PrincipalInfo } from "./internal/auth/principal.js"
import { ErrorResponse } from "./McpError.js"
import * as McpSchema from "./McpSchema.js"
import * as McpTool from "./McpTool.js"
import * as Protocol from "./Protocol.js"
import { levelAllows, ServerSession, type ServerSessionShape } from "./ServerSession.js"
import { Transport, type TransportShape } from "./Transport.js"
import * as UriTemplate from "./UriTemplate.js"

// ============================================================================
// feature definitions
// ============================================================================

/**
 * The services a feature's handlers get from the Layer that registered it:
 * all but its `Scope` and span, which a request takes from the fiber serving
 * it (the session's scope, the request's span).
 */
const serviceContext = (context: Context.Context<never>): Context.Context<never> =>
  Context.omit(Scope.Scope, Tracer.ParentSpan)(context)

/**
 * What a handler may require beyond its own services: the request, the
 * session, and (on a transport protected by `McpAuth`) the caller.
 * @since 0.1.0
 * @category models
 */
export type HandlerServices = HandlerContext | ServerSession | Principal

/** Scopes a feature needs (see `McpAuth`): a request for it with a token lacking one is answered 403 `insufficient_scope`. */
interface Scoped {
  readonly scopes?: ReadonlyArray<string> | undefined
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
export interface Tool<R = never> extends Scoped {
  readonly _tag: "Tool"
  readonly name: string
  readonly definition: McpSchema.Tool
  readonly call: (args: unknown) => Effect.Effect<McpSchema.CallToolResult, ErrorResponse, R | HandlerServices>
}

interface ToolOptionsBase<A, I> extends Scoped {
  readonly name: string
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  readonly annotations?: McpSchema.ToolAnnotations | undefined
  readonly execution?: McpSchema.ToolExecution | undefined
  readonly _meta?: { readonly [key: string]: unknown } | undefined
  /** The arguments, decoded before the handler runs; published as `inputSchema`. */
  readonly parameters?: Schema.Schema<A, I> | undefined
  /** A raw JSON Schema to publish instead of the one derived from `parameters`. */
  readonly inputSchema?: McpSchema.Tool["inputSchema"] | undefined
}

const EmptyParameters = Schema.Struct({})

type JsonSchemaObject = JsonSchema.JsonSchemaObject

/** The published JSON Schema (2020-12) of a schema: self-contained (no `$ref` but to recursive `$defs`) and typed. */
const jsonSchemaOf = JsonSchema.make

const formatIssue = (issue: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(issue)
    .map((e) => (e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message))
    .join("; ")

const toolError = (text: string): McpSchema.CallToolResult => ({ content: [{ type: "text", text }], isError: true })

const toToolResult = (output: ToolContent): McpSchema.CallToolResult => {
  if (typeof output === "string") return { content: [{ type: "text", text: output }] }
  if (Array.isArray(output)) return { content: output as Array<McpSchema.ContentBlock> }
  if ("content" in (output as object) && Array.isArray((output as McpSchema.CallToolResult).content)) {
    return output as McpSchema.CallToolResult
  }
  return { content: [output as McpSchema.ContentBlock] }
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
    readonly success: Schema.Schema<B, J>
    readonly handler: (args: A) => Effect.Effect<B, E, R>
  }
): Tool<Exclude<R, HandlerServices>>
export function tool(
  options: ToolOptionsBase<unknown, unknown> & {
    readonly success?: Schema.Schema<unknown, unknown> | undefined
    readonly handler: (args: unknown) => Effect.Effect<unknown, unknown, unknown>
  }
): Tool<unknown> {
  const { handler, scopes, ...declaration } = options
  return toolHandler(
    McpTool.make(declaration as McpTool.Options<string, McpTool.AnySchema, undefined, undefined>),
    handler as (args: unknown) => Effect.Effect<ToolContent, unknown, unknown>,
    { scopes }
  )
}

/**
 * What the handler of a declared tool may fail with: its declared `failure`
 * (or an `ErrorResponse`, sent as the JSON-RPC error), or anything when it
 * declares none.
 *
 * @since 0.2.0
 * @category tools
 */
export type ToolHandlerError<T> = T extends McpTool.McpTool<infer _N, infer _P, infer _S, infer F>
  ? F extends McpTool.AnySchema ? Schema.Schema.Type<F> | ErrorResponse : unknown
  : never

/**
 * Gives a tool declaration (`McpTool.make`) its handler, typed by the
 * declaration: the handler gets the decoded `parameters`, returns a value of
 * `success` and fails with the declared `failure`, which is sent as a tool
 * error the client decodes. The declaration stays free of server code, so a
 * client package imports it alone; `McpServer.tool({ ..., handler })` is the
 * same for a tool no client shares.
 *
 * @since 0.2.0
 * @category tools
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
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
 * const HaikuLive = McpServer.toolHandler(Haiku, ({ topic }) => Effect.succeed({ haiku: `${topic}, five seven five` }))
 * // McpServer.register(HaikuLive)
 * ```
 */
export const toolHandler = <T extends McpTool.Any, E extends ToolHandlerError<T>, R = never>(
  declaration: T,
  handler: (args: McpTool.Parameters<T>) => Effect.Effect<McpTool.HandlerSuccess<T>, E, R>,
  options: Scoped = {}
): Tool<Exclude<R, HandlerServices>> => {
  const decode = ParseResult.decodeUnknownEither(declaration.parameters as Schema.Schema<unknown, unknown>, {
    errors: "all",
    onExcessProperty: "ignore"
  })
  const encodeFailure = declaration.failure === undefined
    ? undefined
    : ParseResult.encodeEither(declaration.failure as Schema.Schema<unknown, unknown>)
  const name = declaration.name
  const onSuccess = (output: unknown): Effect.Effect<McpSchema.CallToolResult> => {
    if (declaration.success === undefined) return Effect.succeed(toToolResult(output as ToolContent))
    const encoded = McpTool.encodeSuccess(declaration, output)
    if (Either.isLeft(encoded)) {
      return Effect.die(
        new Error(`Tool ${name} returned a value that does not match its output schema: ${formatIssue(encoded.left)}`)
      )
    }
    return Effect.succeed<McpSchema.CallToolResult>({
      content: [{ type: "text", text: JSON.stringify(encoded.right) }],
      structuredContent: encoded.right
    })
  }
  // a declared failure is the tool error Failure.ofTool makes, with its encoded value in `_meta`
  const onFailure = (error: unknown): Effect.Effect<McpSchema.CallToolResult, ErrorResponse> => {
    const encoded = error instanceof ErrorResponse ? undefined : encodeFailure?.(error)
    return encoded === undefined || Either.isLeft(encoded)
      ? Failure.ofTool(error)
      : Effect.map(Failure.ofTool(error), (result) => ({ ...result, _meta: { [McpTool.FAILURE_META_KEY]: encoded.right } }))
  }
  return {
    _tag: "Tool",
    name,
    definition: declaration.definition,
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    call: (args) => {
      const decoded = decode(args ?? {})
      if (Either.isLeft(decoded)) {
        return Effect.succeed(toolError(`Invalid arguments for tool ${name}: ${formatIssue(decoded.left)}`))
      }
      return Effect.matchEffect(handler(decoded.right as McpTool.Parameters<T>), { onSuccess, onFailure }) as Effect.Effect<
        McpSchema.CallToolResult,
        ErrorResponse,
        never
      >
    }
  }
}

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

const toReadResult = (uri: string, mimeType: string | undefined, content: ResourceContent): McpSchema.ReadResourceResult => {
  const mime = mimeType === undefined ? {} : { mimeType }
  if (typeof content === "string") return { contents: [{ uri, ...mime, text: content }] }
  if (content instanceof Uint8Array) return { contents: [{ uri, ...mime, blob: Encoding.encodeBase64(content) }] }
  if (Array.isArray(content)) return { contents: content as Array<McpSchema.TextResourceContents> }
  if ("contents" in (content as object)) return content as McpSchema.ReadResourceResult
  return { contents: [content as McpSchema.TextResourceContents] }
}

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
): Resource<Exclude<R, HandlerServices>> => {
  const { content, scopes, ...definition } = options
  return {
    _tag: "Resource",
    definition: definition as McpSchema.Resource,
    ...(scopes !== undefined ? { scopes } : {}),
    read: (uri) =>
      content.pipe(
        Effect.map((c) => toReadResult(uri, options.mimeType, c)),
        Effect.catchAll(Failure.ofFeature("resources/read", options.name, uri))
      ) as Effect.Effect<McpSchema.ReadResourceResult, ErrorResponse, Exclude<R, HandlerServices> | HandlerServices>
  }
}

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
 * `read` with the variables matched from the URI (percent-decoded). `list`
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
export const resourceTemplate = <E = never, R = never, R2 = never, R3 = never>(
  options: { readonly uriTemplate: string; readonly name: string } & TemplateMetadata & Scoped & {
    readonly read: (variables: Record<string, string>, uri: string) => Effect.Effect<ResourceContent, E, R>
    /** Concrete resources of this template, listed by `resources/list`. */
    readonly list?: Effect.Effect<ReadonlyArray<McpSchema.Resource>, never, R2> | undefined
    readonly complete?: { readonly [variable: string]: Completer<R3> } | undefined
  }
): ResourceTemplate<Exclude<R | R2 | R3, HandlerServices>> => {
  const { complete, list, read, scopes, ...definition } = options
  return {
    _tag: "ResourceTemplate",
    definition: definition as McpSchema.ResourceTemplate,
    ...(scopes !== undefined ? { scopes } : {}),
    template: UriTemplate.parse(options.uriTemplate),
    read: (uri, variables) =>
      read(variables, uri).pipe(
        Effect.map((c) => toReadResult(uri, options.mimeType, c)),
        Effect.catchAll(Failure.ofFeature("resources/read", options.name, uri))
      ) as Effect.Effect<McpSchema.ReadResourceResult, ErrorResponse, never>,
    list: list as Effect.Effect<ReadonlyArray<McpSchema.Resource>, never, never> | undefined,
    complete: (complete ?? {}) as { readonly [variable: string]: Completer<never> }
  } as ResourceTemplate<Exclude<R | R2 | R3, HandlerServices>>
}

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
 * The `arguments` of a prompt, read from the JSON Schema of its parameters:
 * the JSON Schema generator already knows where a description or title sits
 * (on the property, on an optional's inner type) and which are only defaults.
 */
const promptArguments = (schema: Schema.Schema.Any): Array<McpSchema.PromptArgument> | undefined => {
  const json = jsonSchemaOf(schema)
  const properties = json.properties as { readonly [name: string]: JsonSchemaObject } | undefined
  if (json.type !== "object" || properties === undefined) return undefined
  const defs = (json.$defs ?? {}) as { readonly [name: string]: JsonSchemaObject }
  const required = new Set(Array.isArray(json.required) ? json.required as Array<string> : [])
  return Object.entries(properties).map(([name, property]) => {
    const ref = property.$ref
    const resolved = typeof ref === "string" && ref.startsWith("#/$defs/")
      ? { ...defs[ref.slice("#/$defs/".length)], ...property }
      : property
    const title = resolved.title
    const description = resolved.description
    return {
      name,
      ...(typeof title === "string" ? { title } : {}),
      ...(typeof description === "string" ? { description } : {}),
      required: required.has(name)
    }
  })
}

/**
 * The encoded shape of prompt arguments: prompt arguments are strings on the
 * wire, so a prompt's `parameters` must encode to string fields
 * (`Schema.NumberFromString`, not `Schema.Number`).
 *
 * @since 0.2.0
 * @category prompts
 */
export type PromptArguments = { readonly [key: string]: string | undefined }

/**
 * Defines a prompt. `parameters` (a Struct whose fields encode to strings,
 * since prompt arguments are strings on the wire; anything else is a type
 * error) is published as the prompt's `arguments` and decoded before
 * `content` runs; invalid arguments are answered with -32602. A `content`
 * failing with `ErrorResponse` sends it as it is; any other failure is logged
 * and answered -32603 "Internal error" without its details.
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
    readonly parameters?: Schema.Schema<A, I> | undefined
    readonly complete?: { readonly [K in keyof I]?: Completer<R2> } | undefined
    readonly content: (args: A) => Effect.Effect<PromptContent, E, R>
  }
): Prompt<Exclude<R | R2, HandlerServices>> => {
  const { complete, content, parameters, scopes, ...rest } = options
  const params = parameters ?? (EmptyParameters as unknown as Schema.Schema<A, I>)
  const decode = ParseResult.decodeUnknownEither(params, { errors: "all" })
  const args = parameters === undefined ? undefined : promptArguments(parameters)
  const definition = { ...rest, ...(args !== undefined && args.length > 0 ? { arguments: args } : {}) } as McpSchema.Prompt
  return {
    _tag: "Prompt",
    definition,
    ...(scopes !== undefined ? { scopes } : {}),
    get: (input) => {
      const decoded = decode(input ?? {})
      if (Either.isLeft(decoded)) {
        return Effect.fail(ErrorResponse.invalidParams(`Invalid arguments for prompt ${options.name}: ${formatIssue(decoded.left)}`))
      }
      return content(decoded.right).pipe(
        Effect.map((output): McpSchema.GetPromptResult => {
          if (typeof output === "string") return { messages: [{ role: "user", content: { type: "text", text: output } }] }
          if (Array.isArray(output)) return { messages: output as Array<McpSchema.PromptMessage> }
          if ("messages" in (output as object)) return output as McpSchema.GetPromptResult
          return { messages: [output as McpSchema.PromptMessage] }
        }),
        Effect.catchAll(Failure.ofFeature("prompts/get", options.name))
      ) as Effect.Effect<McpSchema.GetPromptResult, ErrorResponse, never>
    },
    complete: (complete ?? {}) as { readonly [argument: string]: Completer<never> }
  } as Prompt<Exclude<R | R2, HandlerServices>>
}

/**
 * Any feature.
 * @since 0.1.0
 * @category models
 */
export type Feature<R = never> = Tool<R> | Resource<R> | ResourceTemplate<R> | Prompt<R>

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
  readonly requestTimeout?: Duration.DurationInput | undefined
  readonly maxRequestTimeout?: Duration.DurationInput | undefined
  /** Ping the client every `interval`; close the session after `maxMissed` (default 3) unanswered pings. */
  readonly keepAlive?: { readonly interval: Duration.DurationInput; readonly maxMissed?: number | undefined } | undefined
}

interface Registered<F> {
  readonly feature: F
  readonly context: Context.Context<never>
}

interface Registry {
  readonly tools: ReadonlyMap<string, Registered<Tool<unknown>>>
  readonly resources: ReadonlyMap<string, Registered<Resource<unknown>>>
  readonly templates: ReadonlyMap<string, Registered<ResourceTemplate<unknown>>>
  readonly prompts: ReadonlyMap<string, Registered<Prompt<unknown>>>
}

type ListKind = "tools" | "resources" | "prompts"

/** The state of one session, shared by its handlers. */
interface SessionState {
  readonly shape: ServerSessionShape
  /** The caller on a protected transport (`TransportInfo.principal`). */
  readonly principal: (() => PrincipalInfo | undefined) | undefined
  readonly subscriptions: Set<string>
  /** Each feature's services in this session (its registered ones and `ServerSession`), made on first use. */
  readonly services: WeakMap<Registered<unknown>, Context.Context<never>>
  initialized: boolean
}

/**
 * A server definition: its features, and the sessions it serves.
 * @since 0.1.0
 * @category models
 */
export interface McpServerShape {
  readonly options: ServerOptions
  /** Adds features; they are removed when the scope closes. Sends `list_changed` to every initialized session. */
  readonly add: (
    features: ReadonlyArray<Feature<unknown>>,
    context: Context.Context<never>
  ) => Effect.Effect<void, never, Scope.Scope>
  /** Removes a tool, a resource (by URI), a template (by URI template) or a prompt. */
  readonly remove: (kind: "tool" | "resource" | "template" | "prompt", key: string) => Effect.Effect<void>
  /** `notifications/resources/updated` to the sessions subscribed to `uri`. */
  readonly notifyResourceUpdated: (uri: string) => Effect.Effect<void>
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
   *     const { session } = yield* server.connect(transport).pipe(Scope.extend(scope))
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
 * A session started by `connect`.
 * @since 0.1.0
 * @category models
 */
export interface ServerConnection {
  readonly session: ServerSessionShape
  /** Completes when the connection is over (the peer closed, the transport failed, keep-alive gave up). */
  readonly closed: Effect.Effect<void>
}

/**
 * A server definition; one definition serves many sessions.
 * @since 0.1.0
 * @category tags
 */
export class McpServer extends Context.Tag("@effect-mcp/mcp/McpServer")<McpServer, McpServerShape>() {}

let sessionCounter = 0

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
    const registry = yield* Ref.make<Registry>({
      tools: new Map(),
      resources: new Map(),
      templates: new Map(),
      prompts: new Map()
    })
    const sessions = new Set<SessionState>()
    const pageSize = options.pageSize ?? 100

    const serverInfo: McpSchema.Implementation = {
      name: options.name,
      version: options.version,
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.websiteUrl !== undefined ? { websiteUrl: options.websiteUrl } : {}),
      ...(options.icons !== undefined ? { icons: options.icons as Array<McpSchema.Icon> } : {})
    } as McpSchema.Implementation

    const capabilities: McpSchema.ServerCapabilities = {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {}
    }

    const broadcast = (kind: ListKind) =>
      Effect.forEach(
        Array.from(sessions).filter((s) => s.initialized),
        (s) => s.shape.notify(`notifications/${kind}/list_changed`).pipe(Effect.ignore),
        { discard: true }
      )

    const kindOf = (f: Feature<unknown>): ListKind =>
      f._tag === "Tool" ? "tools" : f._tag === "Prompt" ? "prompts" : "resources"

    const keyOf = (f: Feature<unknown>): string => {
      switch (f._tag) {
        case "Tool":
          return f.name
        case "Resource":
          return f.definition.uri
        case "ResourceTemplate":
          return f.definition.uriTemplate
        case "Prompt":
          return f.definition.name
      }
    }

    /**
     * Adds features (with the context their handlers run in) or removes them
     * (`context` undefined). A removal only removes the feature itself: when a
     * later registration replaced it under the same key, that one stays.
     */
    const update = (features: ReadonlyArray<Feature<unknown>>, context: Context.Context<never> | undefined) => {
      const services = context === undefined ? undefined : serviceContext(context)
      return Ref.modify(registry, (r) => {
        const next = {
          tools: new Map(r.tools),
          resources: new Map(r.resources),
          templates: new Map(r.templates),
          prompts: new Map(r.prompts)
        }
        const kinds = new Set<ListKind>()
        for (const f of features) {
          const key = keyOf(f)
          const map = (f._tag === "Tool"
            ? next.tools
            : f._tag === "Resource"
            ? next.resources
            : f._tag === "ResourceTemplate"
            ? next.templates
            : next.prompts) as Map<string, Registered<Feature<unknown>>>
          if (services !== undefined) {
            map.set(key, { feature: f, context: services })
            kinds.add(kindOf(f))
          } else if (map.get(key)?.feature === f) {
            map.delete(key)
            kinds.add(kindOf(f))
          }
        }
        return [kinds, next] as const
      }).pipe(Effect.flatMap((kinds) => Effect.forEach(kinds, broadcast, { discard: true })))
    }

    const add: McpServerShape["add"] = (features, context) =>
      Effect.acquireRelease(update(features, context), () => update(features, undefined))

    const remove: McpServerShape["remove"] = (kind, key) =>
      Effect.flatMap(Ref.get(registry), (r) => {
        const map = kind === "tool" ? r.tools : kind === "resource" ? r.resources : kind === "template" ? r.templates : r.prompts
        const entry = map.get(key)
        return entry === undefined ? Effect.void : update([entry.feature as Feature<unknown>], undefined)
      })

    const notifyResourceUpdated = (uri: string) =>
      Effect.forEach(
        Array.from(sessions).filter((s) => s.subscriptions.has(uri)),
        (s) => s.shape.notify("notifications/resources/updated", { uri }).pipe(Effect.ignore),
        { discard: true }
      )

    // ------------------------------------------------------------------------
    // pagination
    // ------------------------------------------------------------------------

    const encodeCursor = (offset: number) => Encoding.encodeBase64Url(JSON.stringify({ o: offset }))
    const decodeCursor = (cursor: string | undefined): Either.Either<number, ErrorResponse> => {
      if (cursor === undefined) return Either.right(0)
      const text = Encoding.decodeBase64UrlString(cursor)
      if (Either.isRight(text)) {
        try {
          const parsed = JSON.parse(text.right) as { o?: unknown }
          if (typeof parsed.o === "number" && Number.isInteger(parsed.o) && parsed.o >= 0) return Either.right(parsed.o)
        } catch {
          // fall through
        }
      }
      return Either.left(ErrorResponse.invalidParams("Invalid cursor"))
    }
    /** One page of a list result, `{ [key]: items, nextCursor? }`; an invalid cursor is -32602. */
    const listPage = <A>(key: string, items: ReadonlyArray<A>, cursor: string | undefined): Effect.Effect<Protocol.Result, ErrorResponse> =>
      Either.match(decodeCursor(cursor), {
        onLeft: Effect.fail,
        onRight: (offset) => {
          const slice = items.slice(offset, offset + pageSize)
          const next = offset + pageSize
          return Effect.succeed(next < items.length ? { [key]: slice, nextCursor: encodeCursor(next) } : { [key]: slice })
        }
      })

    // ------------------------------------------------------------------------
    // request dispatch
    // ------------------------------------------------------------------------

    const decoders = new Map<string, (u: unknown) => Either.Either<unknown, ParseResult.ParseIssue>>()
    for (const [method, entry] of Object.entries(McpSchema.ClientRequests)) {
      decoders.set(method, validator(entry.params as Schema.Schema<unknown, unknown>))
    }

    /** What one request's handlers are given besides their params: its context and its session. */
    interface RequestEnv {
      readonly incoming: Protocol.IncomingRequest
      readonly handlerContext: HandlerContextModule.HandlerContextShape
      readonly session: SessionState
    }

    /** A feature's services for one request: those it was registered with, then the request's own (the caller's too, on a protected transport). */
    const servicesFor = (entry: Registered<unknown>, env: RequestEnv): Context.Context<never> => {
      let base = env.session.services.get(entry)
      if (base === undefined) {
        base = Context.add(entry.context, ServerSession, env.session.shape)
        env.session.services.set(entry, base)
      }
      const services = Context.add(base, HandlerContext, env.handlerContext)
      const principal = env.session.principal?.()
      return principal === undefined ? services : Context.add(services, Principal, principal)
    }

    /**
     * Runs a feature's handler as the rest of the request, with its services
     * given explicitly: over the serving fiber's context, the services captured
     * when the feature was registered (they win; its `Scope` and span excepted,
     * see `serviceContext`), then the request's own.
     */
    const runFeature = <A>(
      entry: Registered<unknown>,
      effect: Effect.Effect<A, ErrorResponse, unknown>,
      env: RequestEnv
    ): Effect.Effect<A, ErrorResponse> => env.incoming.provide(effect, servicesFor(entry, env))

    /** Runs a feature's handler inside a larger request (a list over many features). */
    const withFeature = <A>(
      entry: Registered<unknown>,
      effect: Effect.Effect<A, ErrorResponse, unknown>,
      env: RequestEnv
    ): Effect.Effect<A, ErrorResponse> =>
      Effect.provide(effect as Effect.Effect<A, ErrorResponse>, servicesFor(entry, env))

    const completion = (values: ReadonlyArray<string>): McpSchema.CompleteResult => ({
      completion: {
        values: values.slice(0, 100) as Array<string>,
        total: values.length,
        hasMore: values.length > 100
      }
    })

    const findTemplate = (r: Registry, uri: string) => {
      for (const entry of r.templates.values()) {
        const vars = UriTemplate.match(entry.feature.template, uri)
        if (Option.isSome(vars)) return Option.some([entry, vars.value] as const)
      }
      return Option.none()
    }

    // each handler takes the params its method's validator produced; `never` admits every such
    // handler in one table, and the dispatch below calls it with what that validator accepted
    type Handler = (params: never, env: RequestEnv) => Effect.Effect<Protocol.Result, ErrorResponse>
    type Dispatch = (params: unknown, env: RequestEnv) => Effect.Effect<Protocol.Result, ErrorResponse>

    const handlers: Record<string, Handler> = {
      "tools/list": (params: McpSchema.PaginatedRequestParams | undefined) =>
        Effect.flatMap(Ref.get(registry), (r) =>
          listPage("tools", Array.from(r.tools.values(), (e) => e.feature.definition), params?.cursor)),
      "tools/call": (params: McpSchema.CallToolRequestParams, env) =>
        Effect.flatMap(Ref.get(registry), (r) => {
          const entry = r.tools.get(params.name)
          if (entry === undefined) return Effect.fail(ErrorResponse.invalidParams(`Unknown tool: ${params.name}`))
          return runFeature(entry, entry.feature.call(params.arguments ?? {}), env)
        }),
      "resources/list": (params: McpSchema.PaginatedRequestParams | undefined, env) =>
        Effect.flatMap(Ref.get(registry), (r) =>
          Effect.flatMap(
            Effect.forEach(
              Array.from(r.templates.values()).filter((e) => e.feature.list !== undefined),
              (e) => withFeature(e, e.feature.list!, env)
            ),
            (listed) =>
              listPage(
                "resources",
                [...Array.from(r.resources.values(), (e) => e.feature.definition), ...listed.flat()],
                params?.cursor
              )
          )),
      "resources/templates/list": (params: McpSchema.PaginatedRequestParams | undefined) =>
        Effect.flatMap(Ref.get(registry), (r) =>
          listPage("resourceTemplates", Array.from(r.templates.values(), (e) => e.feature.definition), params?.cursor)),
      "resources/read": (params: McpSchema.ReadResourceRequestParams, env) =>
        Effect.flatMap(Ref.get(registry), (r) => {
          const entry = r.resources.get(params.uri)
          if (entry !== undefined) return runFeature(entry, entry.feature.read(params.uri), env)
          const template = findTemplate(r, params.uri)
          if (Option.isSome(template)) {
            const [e, vars] = template.value
            return runFeature(e, e.feature.read(params.uri, vars), env)
          }
          return Effect.fail(ErrorResponse.resourceNotFound(params.uri))
        }),
      "resources/subscribe": (params: McpSchema.SubscribeRequestParams, { session }) =>
        Effect.sync(() => {
          session.subscriptions.add(params.uri)
          return {}
        }),
      "resources/unsubscribe": (params: McpSchema.UnsubscribeRequestParams, { session }) =>
        Effect.sync(() => {
          session.subscriptions.delete(params.uri)
          return {}
        }),
      "prompts/list": (params: McpSchema.PaginatedRequestParams | undefined) =>
        Effect.flatMap(Ref.get(registry), (r) =>
          listPage("prompts", Array.from(r.prompts.values(), (e) => e.feature.definition), params?.cursor)),
      "prompts/get": (params: McpSchema.GetPromptRequestParams, env) =>
        Effect.flatMap(Ref.get(registry), (r) => {
          const entry = r.prompts.get(params.name)
          if (entry === undefined) return Effect.fail(ErrorResponse.invalidParams(`Unknown prompt: ${params.name}`))
          return runFeature(entry, entry.feature.get(params.arguments ?? {}), env)
        }),
      "completion/complete": (params: McpSchema.CompleteRequestParams, env) =>
        Effect.flatMap(Ref.get(registry), (r) => {
          const context = { arguments: params.context?.arguments ?? {} }
          const ref = params.ref
          if (ref.type === "ref/prompt") {
            const entry = r.prompts.get(ref.name)
            if (entry === undefined) return Effect.fail(ErrorResponse.invalidParams(`Unknown prompt: ${ref.name}`))
            const completer = entry.feature.complete[params.argument.name]
            if (completer === undefined) return Effect.succeed(completion([]))
            return runFeature(entry, Effect.map(completer(params.argument.value, context), completion), env)
          }
          const entry = Array.from(r.templates.values()).find((e) => e.feature.definition.uriTemplate === ref.uri)
          if (entry === undefined) {
            return r.resources.has(ref.uri)
              ? Effect.succeed(completion([]))
              : Effect.fail(ErrorResponse.invalidParams(`Unknown resource template: ${ref.uri}`))
          }
          const completer = entry.feature.complete[params.argument.name]
          if (completer === undefined) return Effect.succeed(completion([]))
          return runFeature(entry, Effect.map(completer(params.argument.value, context), completion), env)
        }),
      "logging/setLevel": (params: McpSchema.SetLevelRequestParams, { session }) =>
        Effect.sync(() => {
          level.set(session, params.level)
          return {}
        })
    }

    const level = new WeakMap<SessionState, McpSchema.LoggingLevel>()

    /** The scopes declared by the feature a request addresses (see `McpServerShape.requiredScopes`). */
    const scopesIn = (r: Registry, request: JsonRpc.Request): ReadonlyArray<string> => {
      const params = request.params as { readonly name?: unknown; readonly uri?: unknown } | undefined
      switch (request.method) {
        case "tools/call":
          return typeof params?.name === "string" ? r.tools.get(params.name)?.feature.scopes ?? [] : []
        case "prompts/get":
          return typeof params?.name === "string" ? r.prompts.get(params.name)?.feature.scopes ?? [] : []
        case "resources/read": {
          if (typeof params?.uri !== "string") return []
          const entry = r.resources.get(params.uri)
          if (entry !== undefined) return entry.feature.scopes ?? []
          return Option.match(findTemplate(r, params.uri), { onNone: () => [], onSome: ([e]) => e.feature.scopes ?? [] })
        }
        default:
          return []
      }
    }
    const requiredScopes: McpServerShape["requiredScopes"] = (request) =>
      Effect.map(Ref.get(registry), (r) => scopesIn(r, request))

    // ------------------------------------------------------------------------
    // sessions
    // ------------------------------------------------------------------------

    const connect: McpServerShape["connect"] = (transport) =>
      Effect.gen(function*() {
        const sessionId = transport.info?.sessionId ?? `session-${++sessionCounter}`
        let version: string | undefined = transport.info?.protocolVersion
        let clientInfo: McpSchema.Implementation | undefined
        let clientCapabilities: McpSchema.ClientCapabilities | undefined
        let protocol: Protocol.Protocol | undefined
        let initializedOnce = false

        const shape: ServerSessionShape = {
          sessionId,
          protocolVersion: () => version,
          clientInfo: () => clientInfo,
          clientCapabilities: () => clientCapabilities,
          logLevel: () => level.get(state),
          notify: (method, params) => protocol!.notify(method, params),
          log: (lvl, data, logger) =>
            levelAllows(level.get(state), lvl)
              ? protocol!.notify("notifications/message", logger === undefined ? { level: lvl, data } : { level: lvl, data, logger })
                .pipe(Effect.ignore)
              : Effect.void
        }
        const state: SessionState = {
          shape,
          principal: transport.info?.principal,
          subscriptions: new Set(),
          services: new WeakMap(),
          initialized: false
        }

        const onRequest = (incoming: Protocol.IncomingRequest): Effect.Effect<Protocol.Result, ErrorResponse> => {
          const { method, params } = incoming.request
          if (method === "initialize") {
            // once per session, on every transport: a second one would renegotiate the version
            // (and with it batches) under a client that already relies on the first
            if (initializedOnce) {
              return Effect.fail(ErrorResponse.invalidRequest("Invalid Request: the session is already initialized"))
            }
            const init = params as McpSchema.InitializeRequestParams | undefined
            if (init === undefined || typeof init.protocolVersion !== "string") {
              return Effect.fail(ErrorResponse.invalidParams("initialize needs params.protocolVersion"))
            }
            initializedOnce = true
            version = Lifecycle.negotiate(init.protocolVersion)
            clientInfo = init.clientInfo
            clientCapabilities = init.capabilities ?? {}
            const result: McpSchema.InitializeResult = {
              protocolVersion: version,
              capabilities,
              serverInfo,
              ...(options.instructions !== undefined ? { instructions: options.instructions } : {})
            }
            return Effect.succeed(result)
          }
          const decode = decoders.get(method)
          const handler = handlers[method]
          if (decode === undefined || handler === undefined) return Effect.fail(ErrorResponse.methodNotFound(method))
          const decoded = decode(params)
          if (Either.isLeft(decoded)) {
            return Effect.fail(ErrorResponse.invalidParams(`Invalid params for ${method}: ${formatIssue(decoded.left)}`))
          }
          const handlerContext = HandlerContextModule.unsafeMake({
            protocol: protocol!,
            incoming,
            session: shape,
            closeStream: transport.closeRequestStream?.(incoming.request.id)
          })
          const dispatch = (handler as Dispatch)(decoded.right, { incoming, handlerContext, session: state })
          const principal = state.principal?.()
          if (principal === undefined) return dispatch
          // a protected HTTP transport answers 403 before this; the check holds for any transport with a principal
          return Effect.flatMap(requiredScopes(incoming.request), (scopes) => {
            const missing = missingScopes(principal, scopes)
            return missing.length === 0 ? dispatch : Effect.fail(
              new ErrorResponse({ code: -32003, message: `Forbidden: the token lacks the scopes ${missing.join(" ")}` })
            )
          })
        }

        const onNotification = (n: JsonRpc.Notification) =>
          Effect.sync(() => {
            if (n.method === "notifications/initialized") state.initialized = true
          })

        protocol = yield* Protocol.make(transport, {
          side: "server",
          onRequest,
          onNotification,
          batches: () => Lifecycle.allowsBatches(version ?? Lifecycle.DEFAULT_HTTP_VERSION),
          requestTimeout: options.requestTimeout,
          maxRequestTimeout: options.maxRequestTimeout,
          sessionId
        })
        if (options.keepAlive !== undefined) {
          yield* Protocol.keepAlive(protocol, options.keepAlive)
        }
        yield* Effect.acquireRelease(Effect.sync(() => sessions.add(state)), () => Effect.sync(() => sessions.delete(state)))
        return { session: shape, closed: protocol.closed }
      })

    const serve: McpServerShape["serve"] = (transport) =>
      Effect.scoped(Effect.flatMap(connect(transport), (connection) => connection.closed))

    return {
      options,
      add,
      remove,
      notifyResourceUpdated,
      sessions: Effect.sync(() => Array.from(sessions, (s) => s.shape)),
      serve,
      connect,
      requiredScopes
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
 * Registers features for the life of the Layer; the services their handlers
 * need come from the Layer's own context.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Context from "effect/Context"
 * import * as Layer from "effect/Layer"
 *
 * class Clock extends Context.Tag("Clock")<Clock, { readonly now: Effect.Effect<string> }>() {}
 *
 * const Now = McpServer.tool({ name: "now", handler: () => Effect.flatMap(Clock, (clock) => clock.now) })
 *
 * // the tool needs Clock: the registering Layer does, and gives it to the handler
 * const ServerLive = McpServer.register(Now).pipe(
 *   Layer.provide(Layer.succeed(Clock, { now: Effect.sync(() => new Date().toISOString()) })),
 *   Layer.provideMerge(McpServer.layer({ name: "clock", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
// `any`: a feature's requirement sits in both input and output positions, so only `any` accepts every feature
export const register = <const Features extends ReadonlyArray<Feature<any>>>(
  ...features: Features
): Layer.Layer<never, never, McpServer | FeatureContext<Features[number]>> =>
  Layer.scopedDiscard(
    Effect.gen(function*() {
      const server = yield* McpServer
      const context = yield* Effect.context<never>()
      yield* server.add(features as ReadonlyArray<Feature<unknown>>, context)
    })
  )

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
 * Sends `notifications/resources/updated` to the sessions subscribed to `uri`.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Ref from "effect/Ref"
 *
 * const edit = (readme: Ref.Ref<string>, text: string) =>
 *   Effect.zipRight(Ref.set(readme, text), McpServer.notifyResourceUpdated("docs://readme"))
 * ```
 * @since 0.1.0
 * @category notifications
 */
export const notifyResourceUpdated = (uri: string): Effect.Effect<void, never, McpServer> =>
  Effect.flatMap(McpServer, (server) => server.notifyResourceUpdated(uri))
