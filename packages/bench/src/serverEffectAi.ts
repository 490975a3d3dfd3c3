/**
 * Effect 4's own MCP server (`effect/ai/McpServer`, effect 4.1.5): a `Toolkit`
 * with the same `echo`, `echo-succeed`, `blob` and `stats` tools, over
 * `McpServer.layerStdio` (stdio only: the bench's effect/ai pairings are
 * stdio's). The echo handlers are `Effect.sync(() => text)` and
 * `Effect.succeed(text)`, as ours are. Each tool has a `content` mapper, so
 * that a call is answered with the same bytes as the other servers'
 * (`{ content: [{ type: "text", text }] }`): without one, effect/ai sends the
 * text JSON-quoted and adds `structuredContent`.
 *
 *   node bundle/serverEffectAi.js --stdio
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpServer from "effect/ai/McpServer"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { blobText, ECHO_SUCCEED_TOOL, ECHO_TOOL, parseServeMode, selfStats } from "./common.js"

const Echo = Tool.make(ECHO_TOOL, {
  description: "Echoes the text back",
  parameters: Schema.Struct({ text: Schema.String }),
  success: Schema.String
})
const EchoSucceed = Tool.make(ECHO_SUCCEED_TOOL, {
  description: "Echoes the text back (an Effect.succeed handler)",
  parameters: Schema.Struct({ text: Schema.String }),
  success: Schema.String
})
const Blob = Tool.make("blob", {
  description: "Returns one text content of exactly `bytes` ASCII bytes",
  parameters: Schema.Struct({ bytes: Schema.Int }),
  success: Schema.String
})
const Stats = Tool.make("stats", {
  description: "This process's CPU and memory, optionally after a forced GC",
  parameters: Schema.Struct({ gc: Schema.optional(Schema.Boolean) }),
  success: Schema.String
})

const Tools = Toolkit.make(Echo, EchoSucceed, Blob, Stats)

const text = (value: string) => [{ type: "text" as const, text: value }]

const Registrations = McpServer.toolkit(Tools, {
  content: { [ECHO_TOOL]: text, [ECHO_SUCCEED_TOOL]: text, blob: text, stats: text }
}).pipe(
  Layer.provide(Tools.toLayer({
    [ECHO_TOOL]: ({ text }) => Effect.sync(() => text),
    [ECHO_SUCCEED_TOOL]: ({ text }) => Effect.succeed(text),
    blob: ({ bytes }) => Effect.sync(() => blobText(bytes)),
    stats: ({ gc }) => Effect.sync(() => JSON.stringify(selfStats(gc === true)))
  }))
)

const mode = parseServeMode(process.argv.slice(2))
if (mode._tag !== "stdio") {
  process.stderr.write("the effect/ai bench server runs over stdio only\n")
  process.exit(2)
}

// a graceful exit on SIGTERM, so that `--cpu-prof` writes its profile; and when the client closes stdin
process.once("SIGTERM", () => process.exit(0))
process.stdin.once("end", () => process.exit(0))

McpServer.layerStdio({
  name: "bench-effect-ai",
  version: "1.0.0",
  protocols: [McpProtocol.v2025_11_25],
  registrations: Registrations
}).pipe(Layer.provide(NodeStdio.layer), Layer.launch, NodeRuntime.runMain)
