/**
 * MCP tools and Effect's AI toolkits (`effect/ai/Toolkit`), both ways:
 *
 * - `McpToolkit.fromClient` makes an MCP server's tools a toolkit an agent
 *   uses (`LanguageModel.generateText`, `Chat`): the server's `inputSchema`
 *   goes to the model unchanged, a tool error (`isError: true`) is a failed
 *   tool result the model sees, the toolkit follows `list_changed`, a prefix
 *   keeps the tools of several servers apart (`McpToolkit.merge`), and
 *   interrupting the agent cancels the MCP call (`notifications/cancelled`).
 * - `McpToolkit.register` serves a `Toolkit` (its handlers from
 *   `toolkit.toLayer`) as MCP tools: arguments decoded once, by the toolkit;
 *   invalid ones answered as a tool error naming the field; only the
 *   annotations the tool sets are published; `HandlerContext` is reachable
 *   from the handlers (declare it with `dependencies: [HandlerContext]`).
 *
 * Nothing here is loaded unless this module (or the package index) is imported.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 * import * as Effect from "effect/Effect"
 * import * as LanguageModel from "effect/ai/LanguageModel"
 *
 * const ask = (client: McpClient.McpClientShape, question: string) =>
 *   Effect.gen(function*() {
 *     const tools = yield* McpToolkit.fromClient(client)
 *     const response = yield* LanguageModel.generateText({ prompt: question, toolkit: tools.toolkit })
 *     return response.text
 *   })
 * ```
 * @since 0.1.0
 */
import * as AiError from "effect/ai/AiError"
import * as Prompt from "effect/ai/Prompt"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import type * as JsonSchema from "effect/JsonSchema"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { HandlerContext, type HandlerContextShape } from "./HandlerContext.js"
import * as Failure from "./internal/server/failure.js"
import type * as McpClient from "./McpClient.js"
import type { ErrorResponse } from "./McpError.js"
import type * as McpFeature from "./McpFeature.js"
import type * as McpSchema from "./McpSchema.js"
import { McpServer } from "./McpServer.js"
import * as McpTool from "./McpTool.js"

// ============================================================================
// an MCP server's tools as a toolkit
// ============================================================================

/**
 * The tools of a toolkit made from MCP servers: names are known only when
 * the servers list them.
 *
 * @example
 * ```ts
 * import type * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 * import type * as Toolkit from "effect/ai/Toolkit"
 *
 * const names = (toolkit: Toolkit.WithHandler<McpToolkit.Tools>) => Object.keys(toolkit.tools)
 * ```
 * @since 0.1.0
 * @category models
 */
export type Tools = Record<string, Tool.Any>

/**
 * The brand of an `McpToolkit`: set by `fromClient` alone, so a value made
 * elsewhere is not an `McpToolkit` to the type system (`merge` reads what
 * `fromClient` keeps inside).
 *
 * @since 0.1.0
 * @category type ids
 */
export const TypeId: unique symbol = Symbol.for("@effect-mcp/mcp/McpToolkit")

/**
 * @since 0.1.0
 * @category type ids
 */
export type TypeId = typeof TypeId

/**
 * An MCP server's tools as an effect/ai toolkit, kept current.
 *
 * `toolkit` is an Effect: `LanguageModel.generateText` (and `Chat`) runs it
 * on each call, so every call sees the tools as the server lists them then
 * (a `notifications/tools/list_changed` makes the toolkit list them again).
 * A successful call's result is the `CallToolResult` (its content blocks are
 * what the model sees); a tool error, or a JSON-RPC error answering the call,
 * is a failed tool result the model sees, an `McpTool.ToolError`.
 *
 * @example
 * ```ts
 * import type * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 * import * as Effect from "effect/Effect"
 *
 * // the tools' names as the server lists them now, and as the model is offered them
 * const names = (kit: McpToolkit.McpToolkit) =>
 *   Effect.map(kit.listed, (tools) => tools.map((tool) => `${kit.prefix}${tool.name}`))
 * ```
 * @since 0.1.0
 * @category models
 */
export interface McpToolkit {
  /** Made by `fromClient` (the type is opaque: only `fromClient` makes one). */
  readonly [TypeId]: TypeId
  /** The prefix of every tool's name (`""` when none). */
  readonly prefix: string
  /** The toolkit now: pass it as `toolkit` to `generateText`. */
  readonly toolkit: Effect.Effect<Toolkit.WithHandler<Tools>>
  /** The server's tools as last listed (names without the prefix). */
  readonly listed: Effect.Effect<ReadonlyArray<McpClient.Tool>>
  /** Lists the tools again (done on every `list_changed`). */
  readonly refresh: Effect.Effect<void, McpClient.ClientError>
}

/**
 * Options of `fromClient`.
 *
 * @example
 * ```ts
 * import type * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 *
 * const options: McpToolkit.FromClientOptions = {
 *   prefix: "files_",
 *   filter: (tool) => tool.annotations?.readOnlyHint === true
 * }
 * ```
 * @since 0.1.0
 * @category models
 */
export interface FromClientOptions {
  /** Put before every tool's name (`"weather_"`), to tell the tools of several servers apart. */
  readonly prefix?: string | undefined
  /** Which of the server's tools to offer (default: all). */
  readonly filter?: ((tool: McpClient.Tool) => boolean) | undefined
}

interface Entry {
  readonly tool: Tool.Any
  readonly handler: (params: unknown) => Effect.Effect<McpClient.CallToolResult, McpTool.ToolError>
}

interface Snapshot {
  readonly listed: ReadonlyArray<McpClient.Tool>
  readonly entries: ReadonlyArray<Entry>
  readonly toolkit: Toolkit.WithHandler<Tools>
}

/**
 * An MCP server's tools, through a connected client, as an effect/ai
 * toolkit. Lists the tools, then follows `list_changed` for the life of the
 * scope. Each tool is a `Tool.dynamic` whose parameters are the server's
 * `inputSchema` as it is (the server validates the arguments), with the
 * tool's MCP annotations and title as effect/ai annotations.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 * import * as Effect from "effect/Effect"
 * import * as Chat from "effect/ai/Chat"
 *
 * const agent = (weather: McpClient.McpClientShape, files: McpClient.McpClientShape) =>
 *   Effect.gen(function*() {
 *     const toolkit = McpToolkit.merge(
 *       yield* McpToolkit.fromClient(weather, { prefix: "weather_" }),
 *       yield* McpToolkit.fromClient(files, { prefix: "files_" })
 *     )
 *     const chat = yield* Chat.empty
 *     return yield* chat.generateText({ prompt: "Save tomorrow's forecast to notes.md", toolkit })
 *   })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const fromClient = (
  client: McpClient.McpClientShape,
  options: FromClientOptions = {}
): Effect.Effect<McpToolkit, McpClient.ClientError, Scope.Scope> =>
  Effect.gen(function*() {
    const prefix = options.prefix ?? ""
    const filter = options.filter
    const snapshot = (listed: ReadonlyArray<McpClient.Tool>): Effect.Effect<Snapshot> => {
      const offered = filter === undefined ? listed : listed.filter(filter)
      const entries = offered.map((tool) => entryOf(client, prefix, tool))
      return Effect.map(toolkitOf(entries), (toolkit) => ({ listed: offered, entries, toolkit }))
    }
    const state = yield* Ref.make(yield* snapshot([]))
    const refresh = client.listToolsAll().pipe(
      Effect.flatMap(snapshot),
      Effect.flatMap((next) => Ref.set(state, next))
    )
    // in either era (2026: a `subscriptions/listen` held open); subscribed before the first
    // listing, so a change made meanwhile is not missed
    yield* client.listen({ toolsListChanged: true }).pipe(
      Stream.filter((notification) => notification.method === "notifications/tools/list_changed"),
      Stream.runForEach(() =>
        Effect.catch(refresh, (error) => Effect.logWarning("McpToolkit: listing the tools again failed", error))
      ),
      Effect.catch((error) => Effect.logWarning("McpToolkit: the server's list_changed cannot be followed", error)),
      Effect.forkScoped({ startImmediately: true })
    )
    yield* refresh
    return {
      [TypeId]: TypeId,
      prefix,
      toolkit: Effect.map(Ref.get(state), (s) => s.toolkit),
      listed: Effect.map(Ref.get(state), (s) => s.listed),
      refresh,
      [SnapshotKey]: Ref.get(state)
    } satisfies McpToolkit & Internal
  })

const SnapshotKey = Symbol.for("@effect-mcp/mcp/McpToolkit/snapshot")

interface Internal {
  readonly [SnapshotKey]: Effect.Effect<Snapshot>
}

const hasSnapshot = (kit: McpToolkit): kit is McpToolkit & Internal => SnapshotKey in kit

/**
 * One toolkit of the tools of several MCP servers (give each a `prefix`), read
 * anew on each `generateText`, so each server's `list_changed` shows. When two
 * tools have the same name, the first toolkit's wins (and a warning is logged).
 * The toolkits are `fromClient`'s (the `TypeId` brand); a value that only
 * claims the brand dies.
 *
 * @example
 * ```ts
 * import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 * import * as Effect from "effect/Effect"
 * import * as LanguageModel from "effect/ai/LanguageModel"
 *
 * declare const weather: McpToolkit.McpToolkit
 * declare const files: McpToolkit.McpToolkit
 *
 * const answer = LanguageModel.generateText({ prompt: "…", toolkit: McpToolkit.merge(weather, files) })
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const merge = (...kits: ReadonlyArray<McpToolkit>): Effect.Effect<Toolkit.WithHandler<Tools>> => {
  // a memo of this merge's last toolkit, a pure function of the snapshots: replaced whole, never half-written
  // (JavaScript runs one fiber at a time), so two fibers racing at worst build the same toolkit twice
  let last: { readonly snapshots: ReadonlyArray<Snapshot>; readonly toolkit: Toolkit.WithHandler<Tools> } | undefined
  return Effect.gen(function*() {
    const snapshots: Array<Snapshot> = []
    for (const kit of kits) {
      if (!hasSnapshot(kit)) return yield* Effect.die(new Error("McpToolkit.merge: not a toolkit made by McpToolkit.fromClient"))
      snapshots.push(yield* kit[SnapshotKey])
    }
    if (last !== undefined && last.snapshots.every((s, i) => s === snapshots[i])) return last.toolkit
    const seen = new Set<string>()
    const entries: Array<Entry> = []
    for (const entry of snapshots.flatMap((s) => s.entries)) {
      if (seen.has(entry.tool.name)) {
        yield* Effect.logWarning(`McpToolkit.merge: two tools are named ${entry.tool.name}; the first is offered`)
        continue
      }
      seen.add(entry.tool.name)
      entries.push(entry)
    }
    const toolkit = yield* toolkitOf(entries)
    last = { snapshots, toolkit }
    return toolkit
  })
}

/** A toolkit of dynamic tools with their handlers. */
const toolkitOf = (entries: ReadonlyArray<Entry>): Effect.Effect<Toolkit.WithHandler<Tools>> => {
  // the tools' names are known at run time only: the toolkit is typed as a record of any tools
  const kit = Toolkit.make(...entries.map((entry) => entry.tool)) as unknown as Toolkit.Toolkit<Tools>
  const handlers: { [name: string]: (params: unknown) => Effect.Effect<unknown, unknown> } = {}
  for (const entry of entries) handlers[entry.tool.name] = entry.handler
  return Effect.flatMap(
    kit.toHandlers(handlers as unknown as Toolkit.HandlersFrom<Tools>),
    (context) => Effect.provideContext(kit, context as Context.Context<Tool.HandlersFor<Tools>>)
  )
}

/** The effect/ai annotations of an MCP tool's own (only those it sets). */
const annotationsOf = (tool: McpClient.Tool): Context.Context<never> => {
  const hints = tool.annotations
  let context = Context.empty()
  const title = tool.title ?? hints?.title
  if (title !== undefined) context = Context.add(context, Tool.Title, title)
  if (hints?.readOnlyHint !== undefined) context = Context.add(context, Tool.Readonly, hints.readOnlyHint)
  if (hints?.destructiveHint !== undefined) context = Context.add(context, Tool.Destructive, hints.destructiveHint)
  if (hints?.idempotentHint !== undefined) context = Context.add(context, Tool.Idempotent, hints.idempotentHint)
  if (hints?.openWorldHint !== undefined) context = Context.add(context, Tool.OpenWorld, hints.openWorldHint)
  if (tool._meta !== undefined) context = Context.add(context, Tool.Meta, tool._meta)
  return context
}

const entryOf = (client: McpClient.McpClientShape, prefix: string, listed: McpClient.Tool): Entry => {
  const name = `${prefix}${listed.name}`
  const tool = Tool.dynamic(name, {
    ...(listed.description !== undefined ? { description: listed.description } : {}),
    parameters: listed.inputSchema as JsonSchema.JsonSchema,
    success: Schema.Unknown,
    failure: McpTool.ToolError,
    failureMode: "return",
    toModelOutput: (result: McpClient.CallToolResult) =>
      result.content.length === 0 && result.structuredContent !== undefined
        ? [textPart(JSON.stringify(result.structuredContent))]
        : modelOutputOf(result.content)
  }).annotateMerge(annotationsOf(listed))
  const handler = (params: unknown): Effect.Effect<McpClient.CallToolResult, McpTool.ToolError> =>
    client.callTool(listed.name, params as { readonly [key: string]: unknown }).pipe(
      // a JSON-RPC error (unknown tool, invalid params) or a broken connection: the model is told
      Effect.catch((error) =>
        Effect.fail(
          new McpTool.ToolError({
            tool: name,
            message: error.message,
            result: { content: [{ type: "text", text: error.message }], isError: true }
          })
        )
      ),
      Effect.flatMap((result) =>
        result.isError === true
          ? Effect.fail(new McpTool.ToolError({ tool: name, message: McpTool.resultText(result), result }))
          : Effect.succeed(result)
      )
    )
  return { tool, handler }
}

/** What the model sees of a tool result's content blocks: text, and images and audio as files. */
const modelOutputOf = (content: ReadonlyArray<McpSchema.ContentBlock>): Array<Prompt.ToolModelOutputPart> =>
  content.map((block): Prompt.ToolModelOutputPart => {
    switch (block.type) {
      case "text":
        return textPart(block.text)
      case "image":
      case "audio": {
        const bytes = Base64.decode(block.data)
        return Result.isSuccess(bytes)
          ? filePart(block.mimeType, bytes.success)
          : textPart(`[${block.type} ${block.mimeType}: not base64]`)
      }
      case "resource_link":
        return textPart(`[resource ${block.uri}${block.description !== undefined ? `: ${block.description}` : ""}]`)
      case "resource": {
        const resource = block.resource
        if ("text" in resource) return textPart(resource.text)
        const bytes = Base64.decode(resource.blob)
        return Result.isSuccess(bytes)
          ? filePart(resource.mimeType ?? "application/octet-stream", bytes.success)
          : textPart(`[resource ${resource.uri}]`)
      }
    }
  })

const textPart = (text: string): Prompt.ToolModelOutputPart => Prompt.makePart("text", { text })

const filePart = (mediaType: string, data: Uint8Array): Prompt.ToolModelOutputPart =>
  Prompt.makePart("file", { mediaType, data })

// ============================================================================
// a toolkit served as MCP tools
// ============================================================================

/**
 * Registers a toolkit's tools with the `McpServer` for the life of the
 * Layer; the toolkit's handlers come from its `toLayer`. Each tool is
 * published with the JSON Schema of its parameters (and of its success, as
 * `outputSchema`, when that is an object), its description, its `Tool.Title`
 * and `Tool.Meta`, and only the hints it sets (`Tool.Readonly`,
 * `Tool.Destructive`, `Tool.Idempotent`, `Tool.OpenWorld`: effect/ai's
 * defaults are not published as if the author had said them).
 *
 * A call's arguments are decoded once, by the toolkit; arguments its schema
 * rejects are a tool error naming the field. The handler's declared failure
 * is a tool error with its message, its encoded value in `_meta` (as
 * `McpTool` sends one); a failure the toolkit returns (`failureMode:
 * "return"`) likewise. Client-executed and provider-defined tools are not
 * served. A handler reaches `HandlerContext` when its tool declares it
 * (`dependencies: [HandlerContext]`); its preliminary results
 * (`context.preliminary(value)`) are progress notifications whose message is
 * the value as JSON text; its `context.toolCallId` is the MCP request's id,
 * as a string.
 *
 * @example
 * ```ts
 * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 * import * as Schema from "effect/Schema"
 * import * as Tool from "effect/ai/Tool"
 * import * as Toolkit from "effect/ai/Toolkit"
 *
 * const Add = Tool.make("add", {
 *   parameters: Schema.Struct({ a: Schema.NumberFromString, b: Schema.Number }),
 *   success: Schema.Number,
 *   dependencies: [HandlerContext]
 * }).annotate(Tool.Readonly, true)
 * const Tools = Toolkit.make(Add)
 *
 * const ServerLive = McpToolkit.register(Tools).pipe(
 *   Layer.provide(Tools.toLayer({ add: ({ a, b }) => Effect.as(Effect.flatMap(HandlerContext, (ctx) => ctx.log("info", "adding")), a + b) })),
 *   Layer.provideMerge(McpServer.layer({ name: "calculator", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 * @category serving
 */
export const register = <T extends Record<string, Tool.Any>>(
  toolkit: Toolkit.Toolkit<T>
): Layer.Layer<
  never,
  never,
  McpServer | Tool.HandlersFor<T> | Exclude<Tool.HandlerServices<T[keyof T]>, McpFeature.HandlerServices>
> =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* McpServer
      const handled = yield* toolkit
      const context = yield* Effect.context<never>()
      const features: Array<McpFeature.Feature<unknown>> = []
      for (const tool of Object.values(handled.tools) as ReadonlyArray<Tool.Any>) {
        if (Tool.isClientExecuted(tool) || Tool.isProviderDefined(tool)) continue
        features.push(featureOf(handled as unknown as Toolkit.WithHandler<Tools>, tool))
      }
      yield* server.add(features, context)
    })
  )

const has = (tool: Tool.Any, key: Context.Key<never, unknown>): boolean => tool.annotations.mapUnsafe.has(key.key)

const hintsOf = (tool: Tool.Any): McpSchema.ToolAnnotations | undefined => {
  const hints: { -readonly [K in keyof McpSchema.ToolAnnotations]: McpSchema.ToolAnnotations[K] } = {}
  const get = (key: Context.Reference<boolean>) => Context.get(tool.annotations, key)
  if (has(tool, Tool.Readonly)) hints.readOnlyHint = get(Tool.Readonly)
  if (has(tool, Tool.Destructive)) hints.destructiveHint = get(Tool.Destructive)
  if (has(tool, Tool.Idempotent)) hints.idempotentHint = get(Tool.Idempotent)
  if (has(tool, Tool.OpenWorld)) hints.openWorldHint = get(Tool.OpenWorld)
  return Object.keys(hints).length === 0 ? undefined : hints
}

type ObjectSchema = NonNullable<McpSchema.Tool["outputSchema"]>

const isObjectSchema = (json: JsonSchema.JsonSchema): json is JsonSchema.JsonSchema & ObjectSchema =>
  (json as { readonly type?: unknown }).type === "object"

/** The MCP definition of a toolkit's tool. */
const definitionOf = (tool: Tool.Any): { readonly definition: McpSchema.Tool; readonly structured: boolean } => {
  const title = Option.getOrUndefined(Context.getOption(tool.annotations, Tool.Title))
  const meta = Option.getOrUndefined(Context.getOption(tool.annotations, Tool.Meta))
  const hints = hintsOf(tool)
  const output = Schema.isSchema(tool.successSchema) && tool.successSchema.ast._tag !== "Void"
    ? Tool.getJsonSchemaFromSchema(tool.successSchema)
    : undefined
  const structured = output !== undefined && isObjectSchema(output)
  const definition: McpSchema.Tool = {
    name: tool.name,
    ...(title !== undefined ? { title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    // a Tool.make tool's parameters are a Struct (JSON Schema `type: "object"`), as MCP requires; JsonSchema's type cannot say so
    inputSchema: Tool.getJsonSchema(tool) as McpSchema.Tool["inputSchema"],
    ...(structured ? { outputSchema: output } : {}),
    ...(hints !== undefined ? { annotations: hints } : {}),
    ...(meta !== undefined ? { _meta: meta } : {})
  }
  return { definition, structured }
}

/** A tool error of a failure that is not the tool's declared one (no `_meta` value). */
const toolError = (text: string): McpSchema.CallToolResult => ({ content: [{ type: "text", text }], isError: true })

const isExecutionFailure = Schema.is(Tool.ExecutionFailure)

/** The text of an AiError a toolkit fails with: invalid arguments name the tool and the field. */
const aiErrorText = (name: string, error: AiError.AiError): string =>
  error.reason._tag === "ToolParameterValidationError"
    ? `Invalid arguments for tool ${name}: ${error.reason.description}`
    : error.message

/** A failure's text, and its encoded value (its `_meta`) when it is the tool's declared failure. */
const failureResult = (
  tool: Tool.Any,
  error: unknown,
  encoded: unknown
): Effect.Effect<McpSchema.CallToolResult, ErrorResponse> => {
  if (AiError.isAiError(error)) return Effect.succeed(toolError(aiErrorText(tool.name, error)))
  // a denied or interrupted execution, unless the tool's declared failure has that shape too
  // (effect/ai's failureResultSchema tries the declared failure before Tool.ExecutionFailure)
  const declared: boolean = Schema.is(tool.failureSchema)(error)
  if (!declared && isExecutionFailure(error)) return Effect.succeed(toolError(error.reason))
  if (encoded !== undefined) return Failure.ofDeclared(error, encoded)
  // the failure schema's encoding services are the toolkit's (HandlerServices), given by the server's context
  const failureSchema = tool.failureSchema as Schema.Codec<unknown, unknown>
  return Effect.flatMap(
    Effect.option(Schema.encodeUnknownEffect(Schema.toCodecJson(failureSchema))(error)),
    (value) => Failure.ofDeclared(error, Option.getOrUndefined(value))
  )
}

const textOf = (encoded: unknown): string => (typeof encoded === "string" ? encoded : JSON.stringify(encoded) ?? "")

/** A success: its model output (or the encoded value as JSON text), and the value as `structuredContent`. */
const successResult = (
  result: Tool.HandlerResult<Tool.Any>,
  structured: boolean
): McpSchema.CallToolResult => {
  const encoded = result.encodedResult
  const content: Array<McpSchema.ContentBlock> = result.modelOutput !== undefined
    ? result.modelOutput.map(contentOf)
    : encoded === undefined
    ? []
    : [{ type: "text", text: textOf(encoded) }]
  return {
    content,
    ...(structured && typeof encoded === "object" && encoded !== null ? { structuredContent: encoded as { [key: string]: unknown } } : {})
  }
}

const contentOf = (part: Prompt.ToolModelOutputPart): McpSchema.ContentBlock => {
  if (part.type === "text") return { type: "text", text: part.text }
  const data = part.data instanceof Uint8Array ? Base64.encode(part.data) : undefined
  if (data !== undefined && part.mediaType.startsWith("image/")) return { type: "image", data, mimeType: part.mediaType }
  if (data !== undefined && part.mediaType.startsWith("audio/")) return { type: "audio", data, mimeType: part.mediaType }
  if (data !== undefined) {
    const uri = `data:${part.mediaType};base64,${data}`
    return { type: "resource", resource: { uri, mimeType: part.mediaType, blob: data } }
  }
  return { type: "resource_link", uri: String(part.data), name: part.fileName ?? String(part.data), mimeType: part.mediaType }
}

const featureOf = (handled: Toolkit.WithHandler<Tools>, tool: Tool.Any): McpFeature.Tool<unknown> => {
  const { definition, structured } = definitionOf(tool)
  const name = tool.name
  const run = (args: unknown, ctx: Option.Option<HandlerContextShape>) =>
    // the MCP request's id is the tool call's id (the handler's `context.toolCallId`)
    handled.handle(name, (args ?? {}) as Schema.Json, Option.getOrUndefined(Option.map(ctx, (c) => String(c.requestId))))
      .pipe(Effect.flatMap((results) => {
        // preliminary results (the handler's `preliminary`) are progress notifications, their value the message
        let count = 0
        const progress = (result: Tool.HandlerResult<Tool.Any>) =>
          Option.match(ctx, {
            onNone: () => Effect.void,
            onSome: (ctx) => ctx.progress(++count, { message: textOf(result.encodedResult) })
          })
        return Stream.runLast(
          results.pipe(
            Stream.tap((result) => (result.preliminary ? progress(result) : Effect.void)),
            Stream.filter((result) => !result.preliminary)
          )
        )
      }))
  const call = (args: unknown): Effect.Effect<McpSchema.CallToolResult, ErrorResponse, unknown> =>
    Effect.flatMap(Effect.serviceOption(HandlerContext), (ctx) => run(args, ctx)).pipe(
      Effect.matchEffect({
        onFailure: (error) => failureResult(tool, error, undefined),
        onSuccess: (last) =>
          Option.match(last, {
            onNone: () => Effect.succeed(toolError(`Tool ${name} gave no result`)),
            onSome: (result) =>
              result.isFailure
                ? failureResult(tool, result.result, result.encodedResult)
                : Effect.succeed(successResult(result, structured))
          })
      })
    )
  return { _tag: "Tool", name, definition, call }
}
