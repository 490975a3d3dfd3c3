/**
 * `completion/complete`: a prompt's argument or a template's variable,
 * completed by the feature's `Completer` (at most 100 values sent).
 */
import * as Effect from "effect/Effect"
import { ErrorResponse } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import type { FeatureRegistry } from "./registry.js"
import { type Handlers, runFeature } from "./request.js"

const completion = (values: ReadonlyArray<string>): McpSchema.CompleteResult => ({
  completion: {
    values: values.slice(0, 100) as Array<string>,
    total: values.length,
    hasMore: values.length > 100
  }
})

export const handlers = (registry: FeatureRegistry): Handlers => ({
  "completion/complete": (params: McpSchema.CompleteRequestParams, env) =>
    Effect.flatMap(registry.get, (r) => {
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
    })
})
