/**
 * `emcp prompts list` and `emcp prompts get NAME [ARGUMENTS_JSON] [--arg k=v]...`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { Output, printJson, stdout } from "../Output.js"
import { firstLine, renderContent, table } from "../Render.js"
import { type CommandHandler, execute, parsePairs } from "../Session.js"
import { withUrlElicitations } from "../UrlElicitation.js"
import { orUsage } from "../Settings.js"
import { parseJsonObject } from "../Values.js"

export const list: CommandHandler = ({ globals }) =>
  execute(globals, ({ client, settings }) =>
    Effect.gen(function*() {
      const prompts = yield* client.listPromptsAll()
      if (settings.json) return yield* printJson({ prompts })
      if (prompts.length === 0) return yield* stdout("(no prompts)")
      const out = yield* Output
      yield* stdout(table(
        ["NAME", "ARGUMENTS", "DESCRIPTION"],
        prompts.map((p) => [
          p.name,
          (p.arguments ?? []).map((a) => `${a.name}${a.required === true ? "" : "?"}`).join(", "),
          firstLine(p.description ?? p.title)
        ]),
        out.streams.stdoutColumns()
      ))
    }))

export const get: CommandHandler = ({ args, globals, options }) =>
  Effect.gen(function*() {
    const json = args.ARGUMENTS_JSON
    const base = json !== undefined ? yield* orUsage(parseJsonObject(json, "the arguments JSON")) : {}
    const promptArgs: Record<string, string> = {}
    for (const [k, v] of Object.entries(base)) promptArgs[k] = typeof v === "string" ? v : JSON.stringify(v)
    const pairs = yield* parsePairs(options.arg, "--arg")
    for (const [k, v] of pairs) promptArgs[k] = v
    const given = json !== undefined || pairs.length > 0
    return yield* execute(globals, ({ callOptions, client, settings }) =>
      Effect.gen(function*() {
        const result = yield* withUrlElicitations(client, settings, client.getPrompt(args.NAME!, given ? promptArgs : undefined, callOptions))
        if (settings.json) return yield* printJson(result)
        const parts: Array<string> = []
        if (result.description !== undefined) parts.push(`# ${result.description}`)
        for (const m of result.messages) parts.push(`[${m.role}]\n${renderContent(m.content)}`)
        yield* stdout(parts.length === 0 ? "(no messages)" : parts.join("\n\n"))
      }))
  })
