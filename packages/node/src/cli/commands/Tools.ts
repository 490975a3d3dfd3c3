/**
 * `emcp tools list` and `emcp tools call NAME [ARGUMENTS_JSON] [--arg k=v]...`.
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Stream from "effect/Stream"
import { CliError } from "../CliError.js"
import { Output, printJson, stdout } from "../Output.js"
import { firstLine, renderContent, table, toolArguments } from "../Render.js"
import { type CommandHandler, execute, parsePairs } from "../Session.js"
import { withUrlElicitations } from "../UrlElicitation.js"
import { orUsage } from "../Settings.js"
import { parseArgValue, parseJsonObject } from "../Values.js"

export const list: CommandHandler = ({ globals }) =>
  execute(globals, ({ client, settings }) =>
    Effect.gen(function*() {
      const tools = yield* client.listToolsAll()
      if (settings.json) return yield* printJson({ tools })
      if (tools.length === 0) return yield* stdout("(no tools)")
      const out = yield* Output
      yield* stdout(table(
        ["NAME", "ARGUMENTS", "DESCRIPTION"],
        tools.map((t) => [t.name, toolArguments(t.inputSchema), firstLine(t.description ?? t.title)]),
        out.streams.stdoutColumns()
      ))
    }))

/** The arguments of `tools call`: the JSON object, then `--arg` pairs typed by the input schema. */
const toolCallArguments = (
  client: McpClient.McpClientShape,
  name: string,
  base: Record<string, unknown> | undefined,
  pairs: ReadonlyArray<readonly [string, string]>
): Effect.Effect<Record<string, unknown> | undefined, CliError> =>
  Effect.gen(function*() {
    if (pairs.length === 0) return base
    // the input schema types the values; a server that cannot list is no reason to fail
    const tools = yield* client.listToolsAll().pipe(Effect.orElseSucceed(() => [] as ReadonlyArray<McpSchema.Tool>))
    const properties = tools.find((t) => t.name === name)?.inputSchema.properties ?? {}
    const args: Record<string, unknown> = { ...base }
    for (const [key, raw] of pairs) {
      args[key] = yield* orUsage(Result.mapError(parseArgValue(raw, properties[key]), (m) => `--arg ${key}: ${m}`))
    }
    return args
  })

const printResult = (name: string, result: McpClient.CallToolResult, json: boolean) =>
  Effect.gen(function*() {
    if (json) {
      yield* printJson(result)
    } else if (result.isError !== true) {
      const text = result.content.length > 0
        ? result.content.map(renderContent).join("\n")
        : result.structuredContent !== undefined
        ? JSON.stringify(result.structuredContent, null, 2)
        : ""
      if (text !== "") yield* stdout(text)
    }
    if (result.isError === true) {
      const text = result.content.map(renderContent).join("\n")
      return yield* CliError.failure(`tool ${name} failed: ${text === "" ? "(no message)" : text}`)
    }
  })

/** The call as a task: each status on stderr as it changes, then the result; interruption cancels it. */
const asTask = (name: string, toolArgs: Record<string, unknown> | undefined) =>
  Effect.gen(function*() {
    const output = yield* Output
    const handle = yield* McpTasksClient.callTool(name, toolArgs)
    return yield* Effect.gen(function*() {
      yield* handle.statuses.pipe(
        Stream.runForEach((task) =>
          // a 2026 server may answer at once, without a task (no id): nothing to show
          task.taskId === "" ? Effect.void : Effect.sync(() =>
            output.line(`task ${task.taskId} ${task.status}${task.statusMessage !== undefined ? `: ${task.statusMessage}` : ""}`)
          )
        )
      )
      return yield* handle.result
    }).pipe(Effect.onInterrupt(() => Effect.ignore(handle.cancel)))
  })

export const call: CommandHandler = ({ args, globals, options }) =>
  Effect.gen(function*() {
    const name = args.NAME!
    const base = args.ARGUMENTS_JSON !== undefined
      ? yield* orUsage(parseJsonObject(args.ARGUMENTS_JSON, "the arguments JSON"))
      : undefined
    const pairs = yield* parsePairs(options.arg, "--arg")
    return yield* execute(globals, ({ callOptions, client, settings }) =>
      Effect.gen(function*() {
        const toolArgs = yield* toolCallArguments(client, name, base, pairs)
        const result = options.task === undefined
          ? yield* withUrlElicitations(client, settings, client.callTool(name, toolArgs, callOptions))
          : yield* asTask(name, toolArgs).pipe(Effect.provideService(McpClient.McpClient, client))
        yield* printResult(name, result, settings.json)
      }))
  })
