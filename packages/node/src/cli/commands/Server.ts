/**
 * `emcp info`, `emcp ping` and `emcp call METHOD [PARAMS_JSON]`.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { printJson, stdout } from "../Output.js"
import { type CommandHandler, execute } from "../Session.js"
import { withUrlElicitations } from "../UrlElicitation.js"
import { orUsage } from "../Settings.js"
import { parseJsonObject } from "../Values.js"

export const info: CommandHandler = ({ globals }) =>
  execute(globals, ({ client, settings }) =>
    Effect.gen(function*() {
      const info = {
        era: client.era,
        protocolVersion: client.protocolVersion,
        serverInfo: client.serverInfo,
        capabilities: client.serverCapabilities,
        ...(client.instructions !== undefined ? { instructions: client.instructions } : {})
      }
      if (settings.json) return yield* printJson(info)
      const s = client.serverInfo
      const lines = [
        `server:   ${s.name} ${s.version}${s.title !== undefined ? ` (${s.title})` : ""}`,
        `protocol: ${client.protocolVersion} (${client.era === "2026" ? "2026 era, stateless" : "2025 era, session"})`,
        `features: ${Object.keys(client.serverCapabilities).join(", ") || "(none)"}`
      ]
      if (client.instructions !== undefined) lines.push("", client.instructions)
      yield* stdout(lines.join("\n"))
    }))

export const ping: CommandHandler = ({ globals }) =>
  execute(globals, ({ client, settings }) =>
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      // 2026 has no ping: the client's ping is a server/discover there
      const result = client.era === "2026" ? yield* Effect.as(client.ping, {}) : yield* client.request("ping")
      if (settings.json) return yield* printJson(result)
      yield* stdout(`pong (${(yield* Clock.currentTimeMillis) - start} ms)`)
    }))

export const call: CommandHandler = ({ args, globals }) =>
  Effect.gen(function*() {
    const params = args.PARAMS_JSON !== undefined
      ? yield* orUsage(parseJsonObject(args.PARAMS_JSON, "PARAMS_JSON"))
      : undefined
    return yield* execute(globals, ({ callOptions, client, settings }) =>
      Effect.gen(function*() {
        const result = yield* withUrlElicitations(client, settings, client.request(args.METHOD!, params, callOptions))
        yield* stdout(settings.json ? JSON.stringify(result) : JSON.stringify(result, null, 2))
      }))
  })
