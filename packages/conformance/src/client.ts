#!/usr/bin/env node
/**
 * The client the official conformance suite drives (client mode):
 *
 *   MCP_CONFORMANCE_SCENARIO=<name> node dist/client.js <server url>
 *
 * It connects with `McpClient` over `StreamableHttpClient` and does what the
 * scenario asks; it exits 0 when everything it did succeeded.
 *
 * @since 0.1.0
 */
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as ClientAuth from "./clientAuth.js"
import { eraOf, scenarios2026 } from "./client2026.js"
import { skillsScenarios } from "./SkillsClient.js"

const url = process.argv[process.argv.length - 1]
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize"

/** What each scenario does once connected. */
const scenarios: Record<string, Effect.Effect<void, unknown, McpClient.McpClient>> = {
  ...skillsScenarios,
  ...scenarios2026(process.env),
  // initialized by connecting; list tools only where the server has them
  initialize: Effect.flatMap(
    McpClient.McpClient,
    (client) => client.serverCapabilities.tools === undefined ? Effect.void : Effect.asVoid(client.listToolsAll())
  ),
  tools_call: Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const tools = yield* client.listToolsAll()
    const tool = tools.find((t) => t.name === "add_numbers") ?? tools[0]
    if (tool !== undefined) yield* client.callTool(tool.name, { a: 5, b: 3 })
  }),
  "elicitation-sep1034-client-defaults": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    // the server sends its elicitation on the standing GET: give the client a moment to open it
    yield* Effect.sleep("1 second")
    const tools = yield* client.listToolsAll()
    const tool = tools.find((t) => t.name === "test_client_elicitation_defaults") ?? tools[0]
    if (tool !== undefined) yield* client.callTool(tool.name, {})
  }),
  "sse-retry": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const tools = yield* client.listToolsAll()
    const tool = tools.find((t) => t.name === "test_reconnection") ?? tools[0]
    if (tool !== undefined) yield* client.callTool(tool.name, {})
  }),
  // SEP-1613/SEP-2106: the focal tool's inputSchema, as our client decoded it, goes back verbatim
  // through the echo tool, so the suite sees every keyword we kept (or dropped)
  "json-schema-2020-12-preservation": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const tools = yield* client.listToolsAll()
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool")
    if (focal === undefined) return yield* Effect.die(new Error("the server lists no json_schema_2020_12_tool"))
    yield* client.callTool("json_schema_echo", { schema: focal.inputSchema })
  })
}

// accept every form with the schema's defaults: the client fills them in (SEP-1034)
const ClientLive = McpClient.layer({
  name: "effect-mcp-conformance-client",
  version: "0.1.0",
  era: eraOf(process.env),
  elicitation: { form: () => Effect.succeed({ action: "accept", content: {} }) }
}).pipe(
  Layer.provide(Layer.unwrap(Effect.map(ClientAuth.auth(scenario, ClientAuth.context(process.env)), (auth) =>
    StreamableHttpClient.layer({
      url: url!,
      // sse-retry times the reconnection from the last GET it saw: a standing GET that opens
      // late (a loaded machine) would be taken for the reconnection, so that scenario goes without
      listen: scenario !== "sse-retry",
      auth
    })))),
  Layer.provide(FetchHttpClient.layer)
)

const program = (scenarios[scenario] ?? (ClientAuth.isAuthScenario(scenario) ? ClientAuth.program : scenarios.initialize!)).pipe(
  Effect.provide(ClientLive),
  Effect.timeout("25 seconds"),
  Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatSimple)]))
)

Effect.runPromiseExit(program).then((exit) => {
  if (Exit.isFailure(exit)) {
    process.stderr.write(`conformance client (${scenario}) failed: ${Cause.pretty(exit.cause)}\n`)
    process.exit(1)
  }
  process.exit(0)
})
