/**
 * `emcp complete (--prompt NAME | --resource URI_TEMPLATE) ARGUMENT [VALUE]`.
 *
 * @since 0.1.0
 */
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Effect from "effect/Effect"
import { CliError } from "../CliError.js"
import { printJson, stdout } from "../Output.js"
import { type CommandHandler, execute, parsePairs } from "../Session.js"

export const complete: CommandHandler = ({ args, globals, options }) =>
  Effect.gen(function*() {
    const prompt = options.prompt?.[0]
    const resource = options.resource?.[0]
    if ((prompt === undefined) === (resource === undefined)) {
      return yield* CliError.usage("complete needs exactly one of --prompt NAME or --resource URI_TEMPLATE")
    }
    const ref: McpSchema.CompleteRequestParams["ref"] = prompt !== undefined
      ? { type: "ref/prompt", name: prompt }
      : { type: "ref/resource", uri: resource! }
    const pairs = yield* parsePairs(options.context, "--context")
    const params: McpSchema.CompleteRequestParams = {
      ref,
      argument: { name: args.ARGUMENT!, value: args.VALUE ?? "" },
      ...(pairs.length > 0 ? { context: { arguments: Object.fromEntries(pairs) } } : {})
    }
    return yield* execute(globals, ({ client, settings }) =>
      Effect.gen(function*() {
        const result = yield* client.complete(params)
        if (settings.json) return yield* printJson(result)
        const { hasMore, total, values } = result.completion
        const lines = values.length === 0 ? ["(no completions)"] : [...values]
        if (hasMore === true || (total !== undefined && total > values.length)) {
          lines.push(`(${total !== undefined ? `${total} in all` : "more available"})`)
        }
        yield* stdout(lines.join("\n"))
      }))
  })
