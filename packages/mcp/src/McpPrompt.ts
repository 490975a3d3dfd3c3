/**
 * A prompt's declaration, apart from its content: name, title, description
 * and the `parameters` its arguments decode with. The same value types both
 * ends: the server gives it its content (`McpServer.promptHandler`), and a
 * client gets it (`client.getPrompt(Summarize, { topic })`) with its
 * arguments checked at compile time and encoded to the strings the wire
 * carries. This module imports no server code, so a package of declarations
 * can be shared by a server and its clients.
 *
 * On the wire a declared prompt is an ordinary MCP prompt: `parameters` (a
 * Struct whose fields encode to strings, `Schema.NumberFromString` rather
 * than `Schema.Number`) is published as the prompt's `arguments`, each with
 * the title and description its author wrote and whether it is required.
 *
 * @example
 * ```ts
 * import * as McpPrompt from "@effect-mcp/mcp/McpPrompt"
 * import * as Schema from "effect/Schema"
 *
 * export const Summarize = McpPrompt.make({
 *   name: "summarize",
 *   description: "Summarizes a topic",
 *   parameters: Schema.Struct({
 *     topic: Schema.String.annotate({ description: "what to summarize" }),
 *     words: Schema.optional(Schema.NumberFromString)
 *   })
 * })
 * // server: McpServer.promptHandler(Summarize, ({ topic, words }) => ...)
 * // client: client.getPrompt(Summarize, { topic: "fibers", words: 50 })
 * ```
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as JsonSchema from "./internal/jsonSchema.js"
import type * as McpSchema from "./McpSchema.js"

/**
 * @since 0.1.0
 * @category type ids
 */
export const TypeId: unique symbol = Symbol.for("@effect-mcp/mcp/McpPrompt")

/**
 * @since 0.1.0
 * @category type ids
 */
export type TypeId = typeof TypeId

/**
 * The encoded shape of prompt arguments: prompt arguments are strings on the
 * wire, so a prompt's `parameters` must encode to string fields.
 *
 * @since 0.1.0
 * @category models
 */
export type PromptArguments = { readonly [key: string]: string | undefined }

/**
 * A schema a prompt's arguments may have: no requirements, encoded to string fields.
 *
 * @since 0.1.0
 * @category models
 */
export type AnySchema = Schema.Codec<unknown, PromptArguments>

/**
 * A prompt declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface McpPrompt<out Name extends string, out Parameters extends AnySchema> {
  readonly [TypeId]: TypeId
  readonly name: Name
  readonly parameters: Parameters
  /** The prompt as `prompts/list` publishes it. */
  readonly definition: McpSchema.Prompt
}

/**
 * Any prompt declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface Any extends McpPrompt<string, AnySchema> {}

/**
 * The arguments of a prompt, as its content gets them and a client passes them.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Arguments<P> = P extends McpPrompt<infer _N, infer S> ? Schema.Schema.Type<S> : never

/**
 * The arguments of a prompt as the wire carries them (strings).
 *
 * @since 0.1.0
 * @category type-level
 */
export type EncodedArguments<P> = P extends McpPrompt<infer _N, infer S> ? Schema.Codec.Encoded<S> : never

/**
 * The options of a prompt declaration.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<Name extends string, A, I extends PromptArguments> {
  readonly name: Name
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  readonly _meta?: { readonly [key: string]: unknown } | undefined
  /** The arguments (a Struct whose fields encode to strings), decoded before the content runs; published as `arguments`. */
  readonly parameters?: Schema.Codec<A, I> | undefined
}

const EmptyParameters = Schema.Struct({})

type JsonSchemaObject = JsonSchema.JsonSchemaObject

/**
 * The `arguments` of a prompt, read from the JSON Schema of its parameters:
 * the JSON Schema generator already knows where a description or title sits
 * (on the property, on an optional's inner type) and which are only defaults.
 */
const promptArguments = (schema: Schema.Top): Array<McpSchema.PromptArgument> | undefined => {
  const json = JsonSchema.make(schema)
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
 * Declares a prompt. Its published `arguments` are derived once, here.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpPrompt from "@effect-mcp/mcp/McpPrompt"
 * import * as Schema from "effect/Schema"
 *
 * const Review = McpPrompt.make({
 *   name: "review",
 *   parameters: Schema.Struct({ file: Schema.String, depth: Schema.optional(Schema.NumberFromString) })
 * })
 * // Review.definition.arguments: [{ name: "file", required: true }, { name: "depth", required: false }]
 * ```
 */
export const make = <const Name extends string, A = {}, I extends PromptArguments = {}>(
  options: Options<Name, A, I>
): McpPrompt<Name, Schema.Codec<A, I>> => {
  const parameters = (options.parameters ?? EmptyParameters) as unknown as Schema.Codec<A, I>
  const args = options.parameters === undefined ? undefined : promptArguments(options.parameters)
  const definition = {
    name: options.name,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(args !== undefined && args.length > 0 ? { arguments: args } : {}),
    ...(options.icons !== undefined ? { icons: options.icons as Array<McpSchema.Icon> } : {}),
    ...(options._meta !== undefined ? { _meta: options._meta } : {})
  } as McpSchema.Prompt
  return { [TypeId]: TypeId, name: options.name, parameters, definition }
}

/**
 * Whether a value is a prompt declaration.
 *
 * @since 0.1.0
 * @category guards
 */
export const isMcpPrompt = (u: unknown): u is Any => typeof u === "object" && u !== null && TypeId in u

/**
 * The arguments of a call as the wire carries them: encoded with the
 * prompt's `parameters` (a `Schema.SchemaError` for arguments they reject),
 * the fields that encode to `undefined` left out.
 *
 * @since 0.1.0
 * @category encoding
 * @example
 * ```ts
 * import * as McpPrompt from "@effect-mcp/mcp/McpPrompt"
 * import * as Schema from "effect/Schema"
 *
 * const Summarize = McpPrompt.make({
 *   name: "summarize",
 *   parameters: Schema.Struct({ topic: Schema.String, words: Schema.optional(Schema.NumberFromString) })
 * })
 * const wire = McpPrompt.encodeArguments(Summarize, { topic: "fibers", words: 50 }) // { topic: "fibers", words: "50" }
 * ```
 */
export const encodeArguments = <P extends Any>(
  prompt: P,
  args: Arguments<P>
): Effect.Effect<{ readonly [key: string]: string }, Schema.SchemaError> =>
  Effect.map(Schema.encodeUnknownEffect(prompt.parameters)(args ?? {}), (encoded) => {
    const out: { [key: string]: string } = {}
    for (const [key, value] of Object.entries(encoded)) if (typeof value === "string") out[key] = value
    return out
  })
