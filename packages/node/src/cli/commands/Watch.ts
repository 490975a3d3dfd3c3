/**
 * `emcp resources subscribe URI` and `emcp watch`: the server's change
 * notifications (`client.listen`, either era), one line each on stdout, until
 * interrupted or `--count` of them.
 *
 * @since 0.1.0
 */
import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { CliError } from "../CliError.js"
import { Output, stdout } from "../Output.js"
import { type CommandHandler, type CommandInput, execute } from "../Session.js"

/** `--count N`: a positive integer, or none. */
const countOf = (options: CommandInput["options"]): Effect.Effect<number | undefined, CliError> => {
  const raw = options.count?.[0]
  if (raw === undefined) return Effect.succeed(undefined)
  const n = Number(raw)
  return Number.isInteger(n) && n > 0 ? Effect.succeed(n) : Effect.fail(CliError.usage(`--count must be a positive integer, got '${raw}'`))
}

/** One notification as a line: `tools/list_changed`, `resources/updated URI`. */
const describe = (n: JsonRpc.Notification): string => {
  const uri = n.params?.uri
  return `${n.method.replace(/^notifications\//, "")}${typeof uri === "string" ? ` ${uri}` : ""}`
}

const watchWith = (input: CommandInput, filter: McpClient.ListenFilter, what: string) =>
  Effect.gen(function*() {
    const count = yield* countOf(input.options)
    return yield* execute(input.globals, ({ client, settings }) =>
      Effect.gen(function*() {
        const out = yield* Output
        if (!settings.quiet) out.line(`emcp: watching ${what}${count === undefined ? " (Ctrl-C to stop)" : ""}`)
        const notifications = client.listen(filter)
        yield* (count === undefined ? notifications : Stream.take(notifications, count)).pipe(
          Stream.runForEach((n) => stdout(settings.json ? JSON.stringify(n) : describe(n)))
        )
      }))
  })

export const subscribe: CommandHandler = (input) =>
  watchWith(input, { resources: [input.args.URI!] }, input.args.URI!)

export const watch: CommandHandler = (input) => {
  const { options } = input
  const resources = options.resource ?? []
  const chosen = options.tools !== undefined || options.prompts !== undefined || options.resources !== undefined
  const filter: McpClient.ListenFilter = {
    toolsListChanged: chosen ? options.tools !== undefined : resources.length === 0,
    promptsListChanged: chosen ? options.prompts !== undefined : resources.length === 0,
    resourcesListChanged: chosen ? options.resources !== undefined : resources.length === 0,
    ...(resources.length > 0 ? { resources } : {})
  }
  const what = [
    ...(filter.toolsListChanged === true ? ["tools"] : []),
    ...(filter.promptsListChanged === true ? ["prompts"] : []),
    ...(filter.resourcesListChanged === true ? ["resources"] : []),
    ...resources
  ].join(", ")
  return watchWith(input, filter, what)
}
