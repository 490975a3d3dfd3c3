/**
 * `emcp resources list`, `emcp resources templates` and
 * `emcp resources read URI`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import { Output, printJson, stdout } from "../Output.js"
import { firstLine, renderResourceContents, table } from "../Render.js"
import { type CommandHandler, execute } from "../Session.js"
import { withUrlElicitations } from "../UrlElicitation.js"

export const list: CommandHandler = ({ globals }) =>
  execute(globals, ({ client, settings }) =>
    Effect.gen(function*() {
      const resources = yield* client.listResourcesAll()
      if (settings.json) return yield* printJson({ resources })
      if (resources.length === 0) return yield* stdout("(no resources)")
      const out = yield* Output
      yield* stdout(table(
        ["URI", "NAME", "MIME TYPE", "DESCRIPTION"],
        resources.map((r) => [r.uri, r.name, r.mimeType ?? "", firstLine(r.description ?? r.title)]),
        out.streams.stdoutColumns()
      ))
    }))

export const templates: CommandHandler = ({ globals }) =>
  execute(globals, ({ client, settings }) =>
    Effect.gen(function*() {
      const resourceTemplates = yield* client.listResourceTemplatesAll()
      if (settings.json) return yield* printJson({ resourceTemplates })
      if (resourceTemplates.length === 0) return yield* stdout("(no resource templates)")
      const out = yield* Output
      yield* stdout(table(
        ["URI TEMPLATE", "NAME", "MIME TYPE", "DESCRIPTION"],
        resourceTemplates.map((r) => [r.uriTemplate, r.name, r.mimeType ?? "", firstLine(r.description ?? r.title)]),
        out.streams.stdoutColumns()
      ))
    }))

export const read: CommandHandler = ({ args, globals }) =>
  execute(globals, ({ callOptions, client, settings }) =>
    Effect.gen(function*() {
      const result = yield* withUrlElicitations(client, settings, client.readResource(args.URI!, callOptions))
      if (settings.json) return yield* printJson(result)
      yield* stdout(result.contents.length === 0 ? "(no contents)" : renderResourceContents(result.contents))
    }))
