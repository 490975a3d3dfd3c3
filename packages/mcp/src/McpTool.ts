/**
 * A tool's declaration, apart from its handler: name, description,
 * `parameters`, `success` and `failure` schemas, annotations. The same value
 * types both ends: the server gives it a handler (`McpServer.toolHandler`),
 * and a client calls it (`client.callTool(Haiku, { topic })`) with its
 * arguments checked at compile time and its result decoded with `success`.
 * This module imports no server code, so a package of declarations can be
 * shared by a server and its clients.
 *
 * On the wire a declared tool is an ordinary MCP tool: `parameters` is
 * published as `inputSchema`, `success` as `outputSchema` (its value sent as
 * `structuredContent`). A typed failure is a tool error (`isError: true`)
 * whose text is the failure's message, with the encoded failure in the
 * result's `_meta` under `"effect-mcp/failure"`, where a client decodes it
 * with `failure` (never in `structuredContent`, which clients check against
 * `outputSchema`).
 *
 * @example
 * ```ts
 * import * as McpTool from "@effect-mcp/mcp/McpTool"
 * import * as Schema from "effect/Schema"
 *
 * class TopicRejected extends Schema.TaggedError<TopicRejected>()("TopicRejected", { message: Schema.String }) {}
 *
 * export const Haiku = McpTool.make({
 *   name: "haiku",
 *   description: "Asks the client's model for a haiku",
 *   parameters: Schema.Struct({ topic: Schema.String }),
 *   success: Schema.Struct({ haiku: Schema.String }),
 *   failure: TopicRejected
 * })
 * // server: McpServer.toolHandler(Haiku, ({ topic }) => ...)
 * // client: client.callTool(Haiku, { topic: "fibers" }) : Effect<{ haiku: string }, TopicRejected | ToolError | ...>
 * ```
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import * as JsonSchema from "./internal/jsonSchema.js"
import { formatIssue } from "./internal/validate.js"
import type * as McpClient from "./McpClient.js"
import { ProtocolError } from "./McpError.js"
import * as McpSchema from "./McpSchema.js"

/**
 * @since 0.1.0
 * @category type ids
 */
export const TypeId: unique symbol = Symbol.for("@effect-mcp/mcp/McpTool")

/**
 * @since 0.1.0
 * @category type ids
 */
export type TypeId = typeof TypeId

/**
 * A schema without requirements (what a tool's schemas must be).
 *
 * @since 0.1.0
 * @category models
 */
export type AnySchema = Schema.Codec<unknown, unknown>

/**
 * A tool declaration. `Success` and `Failure` are `undefined` when not
 * declared: a client then gets the raw `CallToolResult`, a handler may return
 * any `ToolContent` and fail with anything.
 *
 * @since 0.1.0
 * @category models
 */
export interface McpTool<
  out Name extends string,
  out Parameters extends AnySchema,
  out Success extends AnySchema | undefined = undefined,
  out Failure extends AnySchema | undefined = undefined
> {
  readonly [TypeId]: TypeId
  readonly name: Name
  readonly parameters: Parameters
  readonly success: Success
  readonly failure: Failure
  /** The tool as `tools/list` publishes it (JSON Schemas self-contained and typed). */
  readonly definition: McpSchema.Tool
  /** Whether a success is sent as `{ result: value }` (its encoded form is not a JSON object). */
  readonly outputWrapped: boolean
}

/**
 * Any tool declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface Any extends McpTool<string, AnySchema, AnySchema | undefined, AnySchema | undefined> {}

/**
 * The arguments of a tool, as its handler gets them and a client passes them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Parameters<T> = T extends McpTool<infer _N, infer P, infer _S, infer _F> ? Schema.Schema.Type<P> : never

/**
 * What a client gets from a successful call: the decoded `success`, or the
 * raw result when the tool declares none.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Success<T> = T extends McpTool<infer _N, infer _P, infer S, infer _F>
  ? S extends AnySchema ? Schema.Schema.Type<S> : McpClient.CallToolResult
  : never

/**
 * The declared failure of a tool (`never` when none is declared).
 *
 * @since 0.1.0
 * @category type-level
 */
export type Failure<T> = T extends McpTool<infer _N, infer _P, infer _S, infer F>
  ? F extends AnySchema ? Schema.Schema.Type<F> : never
  : never

/**
 * What a tool without an output schema may return from its handler.
 *
 * @since 0.1.0
 * @category models
 */
export type ToolContent =
  | string
  | McpSchema.ContentBlock
  | ReadonlyArray<McpSchema.ContentBlock>
  | McpSchema.CallToolResult

/**
 * What the handler of a tool returns: a value of `success`, or any
 * `ToolContent` when the tool declares no `success`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type HandlerSuccess<T> = T extends McpTool<infer _N, infer _P, infer S, infer _F>
  ? S extends AnySchema ? Schema.Schema.Type<S> : ToolContent
  : never

/**
 * A tool call answered with `isError: true` that is not the tool's declared
 * failure (invalid arguments, an undeclared failure, a tool without a
 * `failure` schema): the text of the result and the result itself.
 *
 * @since 0.1.0
 * @category errors
 */
export class ToolError extends Schema.TaggedError<ToolError>("@effect-mcp/mcp/McpTool/ToolError")("ToolError", {
  tool: Schema.String,
  message: Schema.String,
  result: Schema.Unknown
}) {}

/**
 * The `_meta` key of a declared failure's encoded value in a tool error.
 *
 * @since 0.1.0
 * @category constants
 */
export const FAILURE_META_KEY = "effect-mcp/failure"

/** The key a non-object tool output is wrapped in, since `structuredContent` must be an object. */
const WRAPPED_OUTPUT_KEY = "result"

const EmptyParameters = Schema.Struct({})

const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} } as McpSchema.Tool["inputSchema"]

/** The `inputSchema` of a tool: an object schema, or an empty one when the parameters are not an object. */
const objectSchema = (schema: Schema.Top): McpSchema.Tool["inputSchema"] => {
  const json = JsonSchema.make(schema)
  return json.type === "object" ? json as McpSchema.Tool["inputSchema"] : EMPTY_OBJECT_SCHEMA
}

/**
 * The `outputSchema` of a tool. `structuredContent` must be a JSON object, so
 * an output that is not one (a number, an array, a union) is wrapped as
 * `{ result: value }` and its schema says so.
 */
const outputSchemaOf = (schema: Schema.Top): { readonly schema: McpSchema.Tool["inputSchema"]; readonly wrapped: boolean } => {
  const json = JsonSchema.make(schema)
  if (json.type === "object") return { schema: json as McpSchema.Tool["inputSchema"], wrapped: false }
  const { $schema, $defs, ...inner } = json
  return {
    schema: {
      ...($schema !== undefined ? { $schema } : {}),
      ...($defs !== undefined ? { $defs } : {}),
      type: "object",
      properties: { [WRAPPED_OUTPUT_KEY]: inner },
      required: [WRAPPED_OUTPUT_KEY],
      additionalProperties: false
    } as unknown as McpSchema.Tool["inputSchema"],
    wrapped: true
  }
}

/**
 * The options of a tool declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<
  Name extends string,
  Parameters extends AnySchema,
  Success extends AnySchema | undefined,
  Failure extends AnySchema | undefined
> {
  readonly name: Name
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  readonly annotations?: McpSchema.ToolAnnotations | undefined
  readonly execution?: McpSchema.ToolExecution | undefined
  readonly _meta?: { readonly [key: string]: unknown } | undefined
  /** The arguments, decoded before the handler runs; published as `inputSchema`. */
  readonly parameters?: Parameters | undefined
  /** A raw JSON Schema to publish instead of the one derived from `parameters`. */
  readonly inputSchema?: McpSchema.Tool["inputSchema"] | undefined
  /** The result, published as `outputSchema` and sent as `structuredContent`. */
  readonly success?: Success
  /** The typed failure, sent in a tool error's `_meta` and decoded by typed clients. */
  readonly failure?: Failure
}

/**
 * Declares a tool. The JSON Schemas are derived once, here.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpTool from "@effect-mcp/mcp/McpTool"
 * import * as Schema from "effect/Schema"
 *
 * const Add = McpTool.make({
 *   name: "add",
 *   parameters: Schema.Struct({ a: Schema.Number, b: Schema.Number }),
 *   success: Schema.Number // sent as { result: number }
 * })
 * ```
 */
export const make = <
  const Name extends string,
  Parameters extends AnySchema = typeof EmptyParameters,
  Success extends AnySchema | undefined = undefined,
  Failure extends AnySchema | undefined = undefined
>(options: Options<Name, Parameters, Success, Failure>): McpTool<Name, Parameters, Success, Failure> => {
  const parameters = (options.parameters ?? EmptyParameters) as Parameters
  const published = options.success === undefined ? undefined : outputSchemaOf(options.success)
  const definition = {
    name: options.name,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    inputSchema: options.inputSchema ?? objectSchema(parameters),
    ...(published !== undefined ? { outputSchema: published.schema } : {}),
    ...(options.annotations !== undefined ? { annotations: options.annotations } : {}),
    ...(options.icons !== undefined ? { icons: options.icons as Array<McpSchema.Icon> } : {}),
    ...(options.execution !== undefined ? { execution: options.execution } : {}),
    ...(options._meta !== undefined ? { _meta: options._meta } : {})
  } as McpSchema.Tool
  return {
    [TypeId]: TypeId,
    name: options.name,
    parameters,
    success: options.success as Success,
    failure: options.failure as Failure,
    definition,
    outputWrapped: published?.wrapped === true
  }
}

/**
 * Whether a value is a tool declaration.
 *
 * @since 0.1.0
 * @category guards
 */
export const isMcpTool = (u: unknown): u is Any => typeof u === "object" && u !== null && TypeId in u

/**
 * The `structuredContent` of a success: the encoded value, wrapped as
 * `{ result: value }` when it is not a JSON object.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeSuccess = (
  tool: Any,
  value: unknown
): Result.Result<{ [key: string]: unknown }, SchemaIssue.Issue> => {
  if (tool.success === undefined) return Result.succeed(value as { [key: string]: unknown })
  return Result.map(
    SchemaParser.encodeUnknownResult(tool.success)(value),
    (encoded) => (tool.outputWrapped ? { [WRAPPED_OUTPUT_KEY]: encoded } : encoded) as { [key: string]: unknown }
  )
}

/**
 * The text of a tool result's content blocks, for error messages.
 *
 * @since 0.1.0
 * @category decoding
 */
export const resultText = (result: Pick<McpClient.CallToolResult, "content">): string =>
  result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n")

/**
 * Reads a result on the client's side: a tool error becomes the declared
 * failure (decoded from `_meta`) or a `ToolError`; a success is the decoded
 * `structuredContent` (unwrapped), or the raw result when the tool declares
 * no `success`. A success that is not a JSON object is read wrapped
 * (`{ result: value }`, as this SDK sends it) or as it is (2026-07-28 lets a
 * server send any JSON value, as effect/ai's does). `structuredContent` that
 * does not decode is a `ProtocolError` (`InvalidResult`).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeResult = <T extends Any>(
  tool: T,
  result: McpClient.CallToolResult
): Effect.Effect<Success<T>, Failure<T> | ToolError | ProtocolError> => {
  if (result.isError === true) {
    const encoded = result._meta?.[FAILURE_META_KEY]
    if (tool.failure !== undefined && encoded !== undefined) {
      const failure = SchemaParser.decodeUnknownResult(tool.failure)(encoded)
      if (Result.isSuccess(failure)) return Effect.fail(failure.success as Failure<T>)
    }
    return Effect.fail(new ToolError({ tool: tool.name, message: resultText(result), result }))
  }
  if (tool.success === undefined) return Effect.succeed(result as Success<T>)
  const invalid = (message: string) =>
    Effect.fail(new ProtocolError({ reason: "InvalidResult", method: "tools/call", message: `Tool ${tool.name} ${message}` }))
  const content = result.structuredContent
  if (content === undefined) return invalid("returned no structuredContent")
  const decode = SchemaParser.decodeUnknownResult(tool.success)
  const wrapped = tool.outputWrapped && isWrapped(content)
  const decoded = decode(wrapped ? content[WRAPPED_OUTPUT_KEY] : content, { errors: "all" })
  if (Result.isSuccess(decoded)) return Effect.succeed(decoded.success as Success<T>)
  // `{ result: v }` may be a 2026 server's unwrapped value (a union with such an object member)
  const unwrapped = wrapped ? decode(content, { errors: "all" }) : decoded
  return Result.isSuccess(unwrapped)
    ? Effect.succeed(unwrapped.success as Success<T>)
    : invalid(`returned structuredContent its success schema rejects: ${formatIssue(decoded.failure)}`)
}

/** Whether `structuredContent` has the wrapped form `{ result: value }`. */
const isWrapped = (content: unknown): content is { readonly [WRAPPED_OUTPUT_KEY]: unknown } =>
  typeof content === "object" && content !== null && !Array.isArray(content) && WRAPPED_OUTPUT_KEY in content
