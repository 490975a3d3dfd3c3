/**
 * Prompts: a declaration (`McpPrompt`, which publishes the `arguments`) given
 * its content, decoding the arguments and shaping the content into a
 * `GetPromptResult`, and `prompts/list` and `prompts/get`.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as SchemaParser from "effect/SchemaParser"
import type * as Schema from "effect/Schema"
import { ErrorResponse } from "../../McpError.js"
import type * as McpPrompt from "../../McpPrompt.js"
import type * as McpSchema from "../../McpSchema.js"
import type { CacheHint, Completer, Prompt, PromptContent } from "../../McpFeature.js"
import * as Failure from "./failure.js"
import { formatIssue } from "../validate.js"
import type { ListPage } from "./pagination.js"
import type { FeatureRegistry } from "./registry.js"
import { capped, type Handlers, runFeature } from "./request.js"

const toPromptResult = (output: PromptContent): McpSchema.GetPromptResult => {
  if (typeof output === "string") return { messages: [{ role: "user", content: { type: "text", text: output } }] }
  if (Array.isArray(output)) return { messages: output as Array<McpSchema.PromptMessage> }
  if ("messages" in (output as object)) return output as McpSchema.GetPromptResult
  return { messages: [output as McpSchema.PromptMessage] }
}

/** A declared prompt with its content (see `McpServer.promptHandler`). */
export const make = (
  declaration: McpPrompt.Any,
  content: (args: unknown) => Effect.Effect<PromptContent, unknown, unknown>,
  options: {
    readonly scopes?: ReadonlyArray<string> | undefined
    readonly cacheHint?: CacheHint | undefined
    readonly complete?: { readonly [argument: string]: Completer<unknown> | undefined } | undefined
  } = {}
): Prompt<unknown> => {
  const { cacheHint, complete, scopes } = options
  const decode = SchemaParser.decodeUnknownResult(declaration.parameters as Schema.Codec<unknown, unknown>, {
    errors: "all",
    reportInput: true
  })
  const name = declaration.name
  return {
    _tag: "Prompt",
    definition: declaration.definition,
    ...(scopes !== undefined ? { scopes } : {}),
    ...(cacheHint !== undefined ? { cacheHint } : {}),
    get: (input) => {
      const decoded = decode(input ?? {})
      if (Result.isFailure(decoded)) {
        return Effect.fail(ErrorResponse.invalidParams(`Invalid arguments for prompt ${name}: ${formatIssue(decoded.failure)}`))
      }
      return content(decoded.success).pipe(
        Effect.map(toPromptResult),
        Effect.catch(Failure.ofFeature("prompts/get", name))
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
