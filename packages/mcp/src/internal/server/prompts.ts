/**
 * Prompts: their published `arguments` (from the parameters' JSON Schema),
 * decoding the arguments and shaping the content into a `GetPromptResult`,
 * and `prompts/list` and `prompts/get`.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as SchemaParser from "effect/SchemaParser"
import * as Schema from "effect/Schema"
import { ErrorResponse } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import type { CacheHint, Completer, Prompt, PromptContent } from "../../McpFeature.js"
import * as Failure from "./failure.js"
import * as JsonSchema from "../jsonSchema.js"
import { formatIssue } from "../validate.js"
import type { ListPage } from "./pagination.js"
import type { FeatureRegistry } from "./registry.js"
import { capped, type Handlers, runFeature } from "./request.js"

type JsonSchemaObject = JsonSchema.JsonSchemaObject

const EmptyParameters = Schema.Struct({})

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

const toPromptResult = (output: PromptContent): McpSchema.GetPromptResult => {
  if (typeof output === "string") return { messages: [{ role: "user", content: { type: "text", text: output } }] }
  if (Array.isArray(output)) return { messages: output as Array<McpSchema.PromptMessage> }
  if ("messages" in (output as object)) return output as McpSchema.GetPromptResult
  return { messages: [output as McpSchema.PromptMessage] }
}

/** A prompt (see `McpServer.prompt`). */
export const make = (
  options: Omit<McpSchema.Prompt, "arguments"> & {
    readonly scopes?: ReadonlyArray<string> | undefined
    readonly cacheHint?: CacheHint | undefined
    readonly parameters?: Schema.Codec<unknown, unknown> | undefined
    readonly complete?: { readonly [argument: string]: Completer<unknown> | undefined } | undefined
    readonly content: (args: unknown) => Effect.Effect<PromptContent, unknown, unknown>
  }
): Prompt<unknown> => {
  const { cacheHint, complete, content, parameters, scopes, ...rest } = options
  const decode = SchemaParser.decodeUnknownResult(parameters ?? (EmptyParameters as Schema.Codec<unknown, unknown>), {
    errors: "all",
    reportInput: true
  })
  const args = parameters === undefined ? undefined : promptArguments(parameters)
  const definition = { ...rest, ...(args !== undefined && args.length > 0 ? { arguments: args } : {}) } as McpSchema.Prompt
  return {
    _tag: "Prompt",
    definition,
    ...(scopes !== undefined ? { scopes } : {}),
    ...(cacheHint !== undefined ? { cacheHint } : {}),
    get: (input) => {
      const decoded = decode(input ?? {})
      if (Result.isFailure(decoded)) {
        return Effect.fail(ErrorResponse.invalidParams(`Invalid arguments for prompt ${options.name}: ${formatIssue(decoded.failure)}`))
      }
      return content(decoded.success).pipe(
        Effect.map(toPromptResult),
        Effect.catch(Failure.ofFeature("prompts/get", options.name))
      )
    },
    complete: (complete ?? {}) as { readonly [argument: string]: Completer<unknown> }
  }
}

export const handlers = (registry: FeatureRegistry, listPage: ListPage): Handlers => ({
  "prompts/list": (params: McpSchema.PaginatedRequestParams | undefined, env) =>
    Effect.flatMap(registry.get, (r) => {
      const entries = Array.from(r.prompts.values())
      return capped(env, entries, listPage("prompts", entries.map((e) => e.feature.definition), params?.cursor))
    }),
  "prompts/get": (params: McpSchema.GetPromptRequestParams, env) =>
    Effect.flatMap(registry.get, (r) => {
      const entry = r.prompts.get(params.name)
      if (entry === undefined) return Effect.fail(ErrorResponse.invalidParams(`Unknown prompt: ${params.name}`))
      return runFeature(entry, entry.feature.get(params.arguments ?? {}), env)
    })
})
