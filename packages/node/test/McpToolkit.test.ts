/**
 * MCP meets effect/ai (issue 35), over real HTTP (servers on 127.0.0.1 port 0), with a scripted
 * `LanguageModel` (a layer whose generateText answers from a script and records what it was given):
 *
 * - `McpToolkit.fromClient` + `merge`: an agent (`Chat`) uses two MCP servers' tools (prefixed); the
 *   model gets the servers' `inputSchema` unchanged; a tool error is a failed tool result the model sees
 *   on its next turn; `list_changed` shows on the next call; interrupting the agent sends
 *   `notifications/cancelled` (seen on the client's wire) and the server's handler is interrupted; a
 *   2026 server that refuses `subscriptions/listen`: the toolkit keeps its list, one warning is logged.
 * - `McpToolkit.register`: an effect/ai `Toolkit` served by our server, called by our client and by the
 *   official v1 client: a `NumberFromString` field works (decoded once), bad arguments name the field,
 *   only the annotations set are published, the handler reads `HandlerContext`, its `toolCallId` is
 *   the request's id on the wire.
 * - `McpSampling.handler`: a server's `sampling/createMessage` answered by the scripted model, which
 *   received the text, image, audio, tool use and result, tools, tool choice and generation settings;
 *   to a client on 2025-06-18 the answer is one block; a PDF the model writes is left out with a warning.
 * - `register`: a declared failure with `type`/`reason` fields keeps its `_meta`; a PDF part is a
 *   `data:application/pdf;base64,…` resource. `merge` refuses a look-alike `McpToolkit` (a type error).
 * Over stdio with a child process: `McpToolkitStdio.test.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpSampling from "@effect-mcp/mcp/McpSampling"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as AiError from "effect/ai/AiError"
import * as Chat from "effect/ai/Chat"
import * as LanguageModel from "effect/ai/LanguageModel"
import * as Prompt from "effect/ai/Prompt"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Result from "effect/Result"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { startServer } from "./httpUtil.js"

// ----------------------------------------------------------------------------
// a scripted LanguageModel
// ----------------------------------------------------------------------------

type Turn = (options: LanguageModel.ProviderOptions) => Effect.Effect<Array<Response.PartEncoded>, AiError.AiError>

/** A LanguageModel answering turn i with `turns[i]` (text "done" past the script); `seen` gets each call's options. */
const scriptedModel = (turns: ReadonlyArray<Turn>, seen: Array<LanguageModel.ProviderOptions>) =>
  Layer.effect(
    LanguageModel.LanguageModel,
    LanguageModel.make({
      generateText: (options) =>
        Effect.suspend(() => {
          seen.push(options)
          const turn = turns[seen.length - 1]
          return turn === undefined ? Effect.succeed([{ type: "text", text: "done" }]) : turn(options)
        }),
      streamText: () => Stream.die("not scripted")
    })
  )

const call = (id: string, name: string, params: unknown): Response.PartEncoded => ({ type: "tool-call", id, name, params })

type Era = "2025" | "2026"

/** A client connected to `url` for the life of the scope, its outgoing messages pushed to `out`. */
const connect = (url: string, out: Array<JsonRpc.Outgoing> = [], era: Era = "2025") =>
  Effect.map(
    Layer.build(
      McpClient.layer({ name: "agent", version: "1.0.0", era: era === "2025" ? "2025" : "2026-07-28" }).pipe(
        Layer.provide(Layer.effect(
          Transport.Transport,
          Effect.map(Transport.Transport, (inner) =>
            Transport.tap(inner, { outgoing: (message) => Effect.sync(() => void out.push(message)) }))
        )),
        Layer.provide(NodeStreamableHttpClient.layer({ url }))
      )
    ),
    (context) => Context.get(context, McpClient.McpClient)
  ).pipe(Effect.orDie)

/** The server of the features' Layer, handed out (to add a tool while it runs). */
const captureServer = (into: Deferred.Deferred<McpServer.McpServerShape>) =>
  Layer.effectDiscard(Effect.flatMap(McpServer.McpServer, (server) => Deferred.succeed(into, server)))

const messagesOf = (options: LanguageModel.ProviderOptions): ReadonlyArray<Prompt.Message> => options.prompt.content

const toolResultsIn = (options: LanguageModel.ProviderOptions): ReadonlyArray<Prompt.ToolResultPart> =>
  messagesOf(options).flatMap((message) =>
    message.role === "tool" ? message.content.filter((part): part is Prompt.ToolResultPart => part.type === "tool-result") : []
  )

// ----------------------------------------------------------------------------
// two MCP servers
// ----------------------------------------------------------------------------

const Forecast = McpServer.tool({
  name: "forecast",
  description: "Tomorrow's weather",
  parameters: Schema.Struct({ city: Schema.String, days: Schema.optional(Schema.Int) }),
  annotations: { readOnlyHint: true },
  handler: ({ city }) => Effect.succeed(`sunny in ${city}`)
})

const Radar = McpServer.tool({
  name: "radar",
  handler: () => Effect.succeed([{ type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" }])
})

const Broken = McpServer.tool({
  name: "broken",
  handler: () => Effect.fail("the station is offline")
})

const slowTool = (started: Deferred.Deferred<void>, interrupted: Deferred.Deferred<void>) =>
  McpServer.tool({
    name: "slow",
    handler: () =>
      Deferred.succeed(started, undefined).pipe(
        Effect.andThen(Effect.never),
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)),
        Effect.as("never")
      )
  })

const saveTool = (saved: Array<unknown>) =>
  McpServer.tool({
    name: "save",
    parameters: Schema.Struct({ path: Schema.String, text: Schema.String }),
    handler: (args) => Effect.sync(() => (saved.push(args), "saved"))
  })

describe("McpToolkit.fromClient: an agent uses two MCP servers", () => {
  for (const era of ["2025", "2026"] as const) {
  it.live(`${era}: prefixed tools, schemas unchanged, a tool error seen by the model, list_changed followed`, () =>
    Effect.gen(function*() {
      const saved: Array<unknown> = []
      const weatherServer = yield* Deferred.make<McpServer.McpServerShape>()
      const weather = yield* startServer(
        Layer.merge(McpServer.register(Forecast, Radar, Broken), captureServer(weatherServer))
      )
      const files = yield* startServer(McpServer.register(saveTool(saved)))
      const weatherClient = yield* connect(weather.url, [], era)
      const filesClient = yield* connect(files.url, [], era)
      assert.strictEqual(weatherClient.era, era)
      const toolkit = McpToolkit.merge(
        yield* McpToolkit.fromClient(weatherClient, { prefix: "weather_" }),
        yield* McpToolkit.fromClient(filesClient, { prefix: "files_" })
      )

      const seen: Array<LanguageModel.ProviderOptions> = []
      const model = scriptedModel([
        () =>
          Effect.succeed([
            call("c1", "weather_forecast", { city: "Paris" }),
            call("c2", "weather_broken", {}),
            call("c4", "weather_radar", {}),
            call("c3", "files_save", { path: "notes.md", text: "sunny" })
          ])
      ], seen)

      const chat = yield* Chat.empty
      const first = yield* chat.generateText({ prompt: "Save tomorrow's forecast for Paris", toolkit }).pipe(
        Effect.provide(model)
      )
      // the model was offered the servers' tools, prefixed, their inputSchema as the servers list them
      const listed = yield* weatherClient.listToolsAll()
      const offered = new Map(seen[0]!.tools.map((tool) => [tool.name, tool]))
      assert.deepStrictEqual([...offered.keys()].sort(), [
        "files_save",
        "weather_broken",
        "weather_forecast",
        "weather_radar"
      ])
      assert.deepStrictEqual(
        Tool.getJsonSchema(offered.get("weather_forecast")!),
        listed.find((tool) => tool.name === "forecast")!.inputSchema as unknown
      )
      assert.strictEqual(offered.get("weather_forecast")!.description, "Tomorrow's weather")
      assert.strictEqual(Context.get(offered.get("weather_forecast")!.annotations, Tool.Readonly), true)
      // the calls went to the right servers, by their own names
      assert.deepStrictEqual(saved, [{ path: "notes.md", text: "sunny" }])
      const results = new Map(first.toolResults.map((part) => [part.name, part]))
      assert.strictEqual(results.get("weather_forecast")!.isFailure, false)
      assert.deepStrictEqual((results.get("weather_forecast")!.result as McpClient.CallToolResult).content, [
        { type: "text", text: "sunny in Paris" }
      ])
      assert.strictEqual(results.get("weather_broken")!.isFailure, true)

      // the next turn: the model sees the tool results, the failure as a failure with the server's text
      const second = yield* chat.generateText({ prompt: "And now?", toolkit }).pipe(Effect.provide(model))
      assert.strictEqual(second.text, "done")
      const seenResults = new Map(toolResultsIn(seen[1]!).map((part) => [part.name, part]))
      const broken = seenResults.get("weather_broken")!
      assert.strictEqual(broken.isFailure, true)
      assert.include(JSON.stringify(broken.result), "the station is offline")
      assert.strictEqual(seenResults.get("weather_forecast")!.isFailure, false)
      assert.deepStrictEqual(
        seenResults.get("weather_forecast")!.modelOutput?.map((part) => part.type === "text" ? part.text : part.type),
        ["sunny in Paris"]
      )
      // an image result reaches the model as a file
      const radar = seenResults.get("weather_radar")!.modelOutput![0] as Prompt.FilePart
      assert.deepStrictEqual([radar.type, radar.mediaType, radar.data], [
        "file",
        "image/png",
        new Uint8Array(Buffer.from("iVBORw0KGgo=", "base64"))
      ])

      // a tool added to the weather server: list_changed, and the next call offers it
      const server = yield* Deferred.await(weatherServer)
      yield* server.add(
        [McpServer.tool({ name: "alerts", handler: () => Effect.succeed("none") })],
        yield* Effect.context<never>()
      )
      const names = toolkit.pipe(Effect.map((kit) => Object.keys(kit.tools).sort()))
      yield* names.pipe(
        Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (all) => all.includes("weather_alerts") }),
        Effect.timeout("10 seconds")
      )
      yield* LanguageModel.generateText({ prompt: "Any alerts?", toolkit }).pipe(Effect.provide(model))
      assert.deepStrictEqual(seen[2]!.tools.map((tool) => tool.name).sort(), [
        "files_save",
        "weather_alerts",
        "weather_broken",
        "weather_forecast",
        "weather_radar"
      ])
    }).pipe(Effect.scoped))
  }

  it.live("merge: two tools of the same name, the first toolkit's is offered and called", () =>
    Effect.gen(function*() {
      const firstSaved: Array<unknown> = []
      const first = yield* startServer(McpServer.register(saveTool(firstSaved)))
      const second = yield* startServer(McpServer.register(saveTool([])))
      const toolkit = McpToolkit.merge(
        yield* McpToolkit.fromClient(yield* connect(first.url)),
        yield* McpToolkit.fromClient(yield* connect(second.url))
      )
      const seen: Array<LanguageModel.ProviderOptions> = []
      const model = scriptedModel([() => Effect.succeed([call("c1", "save", { path: "a", text: "b" })])], seen)
      yield* LanguageModel.generateText({ prompt: "save", toolkit }).pipe(Effect.provide(model))
      assert.deepStrictEqual(seen[0]!.tools.map((tool) => tool.name), ["save"])
      assert.deepStrictEqual(firstSaved, [{ path: "a", text: "b" }])
    }).pipe(Effect.scoped))

  for (const era of ["2025", "2026"] as const) {
  it.live(`${era}: interrupting the agent cancels the MCP call: notifications/cancelled on the wire`, () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const weather = yield* startServer(McpServer.register(slowTool(started, interrupted)))
      const out: Array<JsonRpc.Outgoing> = []
      const client = yield* connect(weather.url, out, era)
      const kit = yield* McpToolkit.fromClient(client)
      const model = scriptedModel([() => Effect.succeed([call("c1", "slow", {})])], [])
      const chat = yield* Chat.empty
      const fiber = yield* chat.generateText({ prompt: "wait", toolkit: kit.toolkit }).pipe(
        Effect.provide(model),
        Effect.forkChild({ startImmediately: true })
      )
      yield* Deferred.await(started).pipe(Effect.timeout("10 seconds"))
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(interrupted).pipe(Effect.timeout("10 seconds"))
      const request = out.find((m) => "method" in m && m.method === "tools/call") as JsonRpc.Request
      const cancelled = out.find((m) => "method" in m && m.method === "notifications/cancelled") as JsonRpc.Notification
      assert.isDefined(cancelled)
      assert.strictEqual((cancelled.params as { readonly requestId: unknown }).requestId, request.id)
    }).pipe(Effect.scoped))
  }
})

describe("McpToolkit.fromClient: a server that refuses the subscription", () => {
  it.live("2026: subscriptions/listen refused, the toolkit keeps its list and logs one warning", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const weatherServer = yield* Deferred.make<McpServer.McpServerShape>()
      // a real server whose listen is refused (an extension's listen hook failing refuses it)
      const { url } = yield* startServer(Layer.mergeAll(
        McpServer.register(Forecast),
        McpServer.registerExtension({ listen: () => Effect.fail(ErrorResponse.invalidParams("no listening here")) }),
        captureServer(weatherServer)
      ))
      const out: Array<JsonRpc.Outgoing> = []
      const client = yield* connect(url, out, "2026")
      const kit = yield* McpToolkit.fromClient(client).pipe(
        Effect.provide(Logger.layer([Logger.make(({ logLevel, message }) => {
          if (logLevel === "Warn") warnings.push(JSON.stringify(message))
        })]))
      )
      const names = kit.toolkit.pipe(Effect.map((toolkit) => Object.keys(toolkit.tools)))
      assert.deepStrictEqual(yield* names, ["forecast"])
      yield* Effect.sleep("50 millis").pipe(
        Effect.repeat({ until: () => warnings.length > 0, times: 200 })
      )
      assert.isTrue(out.some((m) => "method" in m && m.method === "subscriptions/listen"))
      assert.strictEqual(warnings.length, 1)
      assert.include(warnings[0]!, "list_changed cannot be followed")
      assert.include(warnings[0]!, "no listening here")
      // a tool added meanwhile is not seen (nothing told the toolkit), the last list is kept and still works
      const server = yield* Deferred.await(weatherServer)
      yield* server.add([McpServer.tool({ name: "alerts", handler: () => Effect.succeed("none") })], yield* Effect.context<never>())
      yield* Effect.sleep("300 millis")
      assert.deepStrictEqual(yield* names, ["forecast"])
      const seen: Array<LanguageModel.ProviderOptions> = []
      const model = scriptedModel([() => Effect.succeed([call("c1", "forecast", { city: "Oslo" })])], seen)
      const response = yield* LanguageModel.generateText({ prompt: "weather?", toolkit: kit.toolkit }).pipe(Effect.provide(model))
      assert.deepStrictEqual((response.toolResults[0]!.result as McpClient.CallToolResult).content, [
        { type: "text", text: "sunny in Oslo" }
      ])
      assert.strictEqual(warnings.length, 1)
    }).pipe(Effect.scoped))
})

describe("McpToolkit.merge: only fromClient's toolkits", () => {
  it.effect("a structural look-alike is refused by the type system (and dies if forced)", () =>
    Effect.gen(function*() {
      const lookAlike = {
        prefix: "",
        toolkit: Effect.die("unused"),
        listed: Effect.succeed([]),
        refresh: Effect.void
      }
      // @ts-expect-error the McpToolkit type is branded (TypeId): only fromClient makes one
      const exit = yield* Effect.exit(McpToolkit.merge(lookAlike))
      assert.isTrue(exit._tag === "Failure")
    }))
})

// ----------------------------------------------------------------------------
// an effect/ai Toolkit served as MCP tools
// ----------------------------------------------------------------------------

class Refused extends Schema.TaggedError<Refused>()("Refused", { message: Schema.String }) {}

const Add = Tool.make("add", {
  description: "Adds a (given as text) and b",
  parameters: Schema.Struct({ a: Schema.NumberFromString, b: Schema.Number }),
  success: Schema.Number
}).annotate(Tool.Readonly, true).annotate(Tool.Title, "Adder")

const Where = Tool.make("where", {
  success: Schema.Struct({ method: Schema.String }),
  dependencies: [HandlerContext]
})

const Refuse = Tool.make("refuse", { failure: Refused })

const Count = Tool.make("count", { success: Schema.Number })

const CallId = Tool.make("call_id", { success: Schema.String })

const Tools = Toolkit.make(Add, Where, Refuse, Count, CallId)

const ToolsLive = Tools.toLayer({
  add: ({ a, b }) => Effect.succeed(a + b),
  where: () => Effect.map(HandlerContext, (ctx) => ({ method: ctx.method })),
  refuse: () => Effect.fail(new Refused({ message: "not today" })),
  count: (_, context) => Effect.as(Effect.andThen(context.preliminary(1), context.preliminary(2)), 3),
  call_id: (_, context) => Effect.succeed(context.toolCallId ?? "none")
})

const textOf = (result: { readonly content: ReadonlyArray<unknown> }) =>
  result.content.map((block) => (block as { readonly text?: string }).text).join("")

describe("McpToolkit.register: an effect/ai Toolkit served as MCP tools", () => {
  it.live("our client and the official v1 client: decoded once, bad arguments name the field, annotations as set", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(McpToolkit.register(Tools).pipe(Layer.provide(ToolsLive)))
      const out: Array<JsonRpc.Outgoing> = []
      const ours = yield* connect(url, out)
      const tools = new Map((yield* ours.listToolsAll()).map((tool) => [tool.name, tool]))
      assert.deepStrictEqual([...tools.keys()].sort(), ["add", "call_id", "count", "refuse", "where"])
      const add = tools.get("add")!
      assert.strictEqual(add.title, "Adder")
      assert.strictEqual(add.description, "Adds a (given as text) and b")
      assert.deepStrictEqual(add.inputSchema.properties?.a, { type: "string" })
      // only what the tool says: not effect/ai's defaults (destructiveHint: true, openWorldHint: true)
      assert.deepStrictEqual(add.annotations, { readOnlyHint: true })
      assert.isUndefined(tools.get("refuse")!.annotations)
      assert.strictEqual(tools.get("where")!.outputSchema?.type, "object")

      // decoded once: "2" is decoded to 2 by the toolkit alone (twice, NumberFromString would refuse 2)
      const sum = yield* ours.callTool("add", { a: "2", b: 3 })
      assert.deepStrictEqual(sum, { content: [{ type: "text", text: "5" }] })
      const bad = yield* ours.callTool("add", { a: 2, b: 3 })
      assert.strictEqual(bad.isError, true)
      assert.include(textOf(bad), "Invalid arguments for tool add")
      assert.include(textOf(bad), `["a"]`)
      const where = yield* ours.callTool("where", {})
      assert.deepStrictEqual(where.structuredContent, { method: "tools/call" })
      // preliminary results are progress notifications
      const progress: Array<string | undefined> = []
      const counted = yield* ours.callTool("count", {}, {
        onProgress: (p) => Effect.sync(() => void progress.push(p.message))
      })
      assert.deepStrictEqual(counted.content, [{ type: "text", text: "3" }])
      assert.deepStrictEqual(progress, ["1", "2"])
      // the handler's toolCallId is the id of the tools/call request on the wire
      const callId = yield* ours.callTool("call_id", {})
      const sent = out.filter((m): m is JsonRpc.Request => "method" in m && m.method === "tools/call").at(-1)!
      assert.deepStrictEqual(callId.content, [{ type: "text", text: String(sent.id) }])
      const refused = yield* ours.callTool("refuse", {})
      assert.deepStrictEqual(refused, {
        content: [{ type: "text", text: "not today" }],
        isError: true,
        _meta: { "effect-mcp/failure": { _tag: "Refused", message: "not today" } }
      })

      const official = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL(url)))
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const listed = yield* Effect.promise(() => official.listTools())
      assert.deepStrictEqual(listed.tools.find((tool) => tool.name === "add")?.annotations, { readOnlyHint: true })
      const officialSum = yield* Effect.promise(() => official.callTool({ name: "add", arguments: { a: "40", b: 2 } }))
      assert.deepStrictEqual(officialSum.content, [{ type: "text", text: "42" }])
      const officialBad = yield* Effect.promise(() => official.callTool({ name: "add", arguments: { a: 40, b: 2 } }))
      assert.strictEqual(officialBad.isError, true)
      assert.include(textOf(officialBad as { readonly content: ReadonlyArray<unknown> }), `["a"]`)
      const officialWhere = yield* Effect.promise(() => official.callTool({ name: "where", arguments: {} }))
      assert.deepStrictEqual(officialWhere.structuredContent, { method: "tools/call" })
    }).pipe(Effect.scoped))
})

/** A declared failure shaped like effect/ai's `Tool.ExecutionFailure` (`type` and `reason` fields). */
class Denied extends Schema.TaggedError<Denied>()("Denied", { type: Schema.String, reason: Schema.String, message: Schema.String }) {}

const Deny = Tool.make("deny", { failure: Denied })

const Pdf = Tool.make("pdf", {
  success: Schema.String,
  toModelOutput: () => [Prompt.makePart("file", { mediaType: "application/pdf", data: new Uint8Array([37, 80, 68, 70]) })]
})

const MoreTools = Toolkit.make(Deny, Pdf)

describe("McpToolkit.register: declared failures and binary parts", () => {
  it.live("a declared failure with type and reason fields keeps its _meta; a PDF part is a data: URI resource", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(McpToolkit.register(MoreTools).pipe(Layer.provide(MoreTools.toLayer({
        deny: () => Effect.fail(new Denied({ type: "execution-denied", reason: "policy", message: "denied by policy" })),
        pdf: () => Effect.succeed("pdf")
      }))))
      const client = yield* connect(url)
      const denied = yield* client.callTool("deny", {})
      assert.deepStrictEqual(denied, {
        content: [{ type: "text", text: "denied by policy" }],
        isError: true,
        _meta: {
          "effect-mcp/failure": { _tag: "Denied", type: "execution-denied", reason: "policy", message: "denied by policy" }
        }
      })
      const pdf = yield* client.callTool("pdf", {})
      assert.deepStrictEqual(pdf.content, [{
        type: "resource",
        resource: { uri: "data:application/pdf;base64,JVBERg==", mimeType: "application/pdf", blob: "JVBERg==" }
      }])
    }).pipe(Effect.scoped))
})

// ----------------------------------------------------------------------------
// sampling answered by a LanguageModel
// ----------------------------------------------------------------------------

/** What the scripted provider was configured with (as a provider's config reference would be). */
const Settings = Context.Reference<McpSampling.Generation | undefined>("test/Settings", {
  defaultValue: () => undefined
})

const PNG = "iVBORw0KGgo="
const WAV = "UklGRg=="

const samplingRequest: McpSchema.CreateMessageRequestParams = {
  systemPrompt: "Be brief",
  maxTokens: 77,
  temperature: 0.3,
  stopSequences: ["END"],
  modelPreferences: { hints: [{ name: "small" }], speedPriority: 0.9 },
  toolChoice: { mode: "required" },
  tools: [{ name: "lookup", description: "Looks a word up", inputSchema: { type: "object", properties: { word: { type: "string" } } } }],
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in these?" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: WAV, mimeType: "audio/wav" }
      ]
    },
    { role: "assistant", content: { type: "tool_use", id: "t1", name: "lookup", input: { word: "png" } } },
    { role: "user", content: { type: "tool_result", toolUseId: "t1", content: [{ type: "text", text: "an image format" }] } }
  ]
}

const Ask = McpServer.tool({
  name: "ask",
  handler: () => Effect.flatMap(HandlerContext, (ctx) => Effect.map(ctx.sample(samplingRequest), (result) => JSON.stringify(result)))
})

describe("McpSampling.handler: sampling answered by a LanguageModel", () => {
  for (const era of ["2025", "2026"] as const) {
  it.live(`${era}: text, image, audio, tool use and result, tools, tool choice and generation settings reach the model`, () =>
    Effect.gen(function*() {
      const seen: Array<LanguageModel.ProviderOptions> = []
      const settings: Array<McpSampling.Generation | undefined> = []
      const model = scriptedModel([
        () =>
          Effect.map(Effect.service(Settings), (configured) => {
            settings.push(configured)
            return [
              { type: "text", text: "Let me look." },
              { type: "file", mediaType: "image/png", data: PNG },
              call("t2", "lookup", { word: "wav" }),
              { type: "finish", reason: "tool-calls", usage: { inputTokens: {}, outputTokens: {} } }
            ]
          })
      ], seen)
      const { url } = yield* startServer(McpServer.register(Ask))
      const context = yield* Layer.build(
        McpClient.layer({
          name: "host",
          version: "1.0.0",
          era: era === "2025" ? "2025" : "2026-07-28",
          sampling: McpSampling.handler({
            model: "scripted",
            configure: (generation) => (generate) => Effect.provideService(generate, Settings, generation)
          })
        }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })), Layer.provide(model))
      )
      const client = Context.get(context, McpClient.McpClient)
      assert.strictEqual(client.era, era)
      const answer = yield* client.callTool("ask", {})
      assert.notStrictEqual(answer.isError, true, textOf(answer))
      const result = JSON.parse(textOf(answer)) as McpSchema.CreateMessageResult
      assert.deepStrictEqual(result, {
        role: "assistant",
        model: "scripted",
        stopReason: "toolUse",
        content: [
          { type: "text", text: "Let me look." },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "tool_use", id: "t2", name: "lookup", input: { word: "wav" } }
        ]
      })

      const options = seen[0]!
      const messages = messagesOf(options)
      assert.deepStrictEqual(messages.map((m) => m.role), ["system", "user", "assistant", "tool"])
      assert.strictEqual(messages[0]!.content, "Be brief")
      const user = messages[1]!.content as ReadonlyArray<Prompt.UserMessagePart>
      assert.deepStrictEqual(user.map((part) => part.type === "text" ? part.text : part.mediaType), [
        "What is in these?",
        "image/png",
        "audio/wav"
      ])
      const image = user[1] as Prompt.FilePart
      assert.deepStrictEqual(image.data, new Uint8Array(Buffer.from(PNG, "base64")))
      const toolCall = (messages[2]!.content as ReadonlyArray<Prompt.AssistantMessagePart>)[0] as Prompt.ToolCallPart
      assert.deepStrictEqual([toolCall.id, toolCall.name, toolCall.params], ["t1", "lookup", { word: "png" }])
      const toolResult = (messages[3]!.content as ReadonlyArray<Prompt.ToolMessagePart>)[0] as Prompt.ToolResultPart
      assert.deepStrictEqual([toolResult.id, toolResult.name, toolResult.isFailure], ["t1", "lookup", false])
      assert.deepStrictEqual(toolResult.result, [{ type: "text", text: "an image format" }])
      assert.deepStrictEqual(options.tools.map((tool) => [tool.name, tool.description]), [["lookup", "Looks a word up"]])
      assert.deepStrictEqual(Tool.getJsonSchema(options.tools[0]!), samplingRequest.tools![0]!.inputSchema as unknown)
      assert.strictEqual(options.toolChoice, "required")
      assert.deepStrictEqual(settings, [{
        maxTokens: 77,
        temperature: 0.3,
        stopSequences: ["END"],
        modelPreferences: { hints: [{ name: "small" }], speedPriority: 0.9 }
      }])
    }).pipe(Effect.scoped))
  }

  it.live("a file neither image nor audio is left out with a warning; a model failure is -32603 without details", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const model = scriptedModel([
        () =>
          Effect.succeed([
            { type: "text", text: "Here it is" },
            { type: "file", mediaType: "application/pdf", data: "JVBERg==" },
            { type: "finish", reason: "stop", usage: { inputTokens: {}, outputTokens: {} } }
          ]),
        () =>
          Effect.fail(AiError.make({
            module: "Scripted",
            method: "generateText",
            reason: new AiError.RateLimitError({ retryAfter: Duration.seconds(2) })
          }))
      ], [])
      const AskTwice = McpServer.tool({
        name: "ask",
        handler: () =>
          Effect.flatMap(HandlerContext, (ctx) => {
            const sample = Effect.result(
              ctx.sample({ maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: "Hi" } }] })
            )
            return Effect.map(Effect.all([sample, sample]), (results) =>
              JSON.stringify(results.map((r) =>
                Result.isSuccess(r) ? r.success : { code: "code" in r.failure ? r.failure.code : undefined, message: r.failure.message, data: "data" in r.failure ? r.failure.data : undefined }
              )))
          })
      })
      const { url } = yield* startServer(McpServer.register(AskTwice))
      const context = yield* Layer.build(
        McpClient.layer({ name: "host", version: "1.0.0", era: "2025", sampling: McpSampling.handler({ model: "scripted" }) }).pipe(
          Layer.provide(NodeStreamableHttpClient.layer({ url })),
          Layer.provide(model)
        )
      ).pipe(
        Effect.provide(Logger.layer([Logger.make(({ logLevel, message }) => {
          if (logLevel === "Warn") warnings.push(String(message))
        })]))
      )
      const answer = yield* Context.get(context, McpClient.McpClient).callTool("ask", {})
      assert.notStrictEqual(answer.isError, true, textOf(answer))
      assert.deepStrictEqual(JSON.parse(textOf(answer)), [
        { role: "assistant", model: "scripted", stopReason: "endTurn", content: { type: "text", text: "Here it is" } },
        // -32603 is sent without details (the client logs the AiError)
        { code: -32603, message: "Internal error" }
      ])
      assert.deepStrictEqual(warnings, [
        "McpSampling: a sampling answer has image and audio blocks only; left out the model's files: application/pdf"
      ])
    }).pipe(Effect.scoped))

  it.live("2025-06-18: an answer of several blocks is one block, the text joined, what was left out logged", () =>
    Effect.gen(function*() {
      const warnings: Array<string> = []
      const model = scriptedModel([
        () =>
          Effect.succeed([
            { type: "text", text: "Hello, " },
            { type: "file", mediaType: "image/png", data: PNG },
            { type: "text", text: "world" },
            { type: "finish", reason: "stop", usage: { inputTokens: {}, outputTokens: {} } }
          ])
      ], [])
      const AskOld = McpServer.tool({
        name: "ask",
        handler: () =>
          Effect.flatMap(HandlerContext, (ctx) =>
            Effect.map(
              ctx.sample({ maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: "Hi" } }] }),
              (result) => JSON.stringify(result)
            ))
      })
      const { url } = yield* startServer(McpServer.register(AskOld))
      const context = yield* Layer.build(
        McpClient.layer({
          name: "host",
          version: "1.0.0",
          era: "2025",
          protocolVersion: "2025-06-18",
          sampling: McpSampling.handler({ model: "scripted" })
        }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })), Layer.provide(model))
      ).pipe(
        Effect.provide(Logger.layer([Logger.make(({ logLevel, message }) => {
          if (logLevel === "Warn") warnings.push(String(message))
        })]))
      )
      const client = Context.get(context, McpClient.McpClient)
      assert.strictEqual(client.protocolVersion, "2025-06-18")
      const answer = yield* client.callTool("ask", {})
      assert.notStrictEqual(answer.isError, true, textOf(answer))
      // what the server received: one text block (an array is not a 2025-06-18 answer)
      assert.deepStrictEqual(JSON.parse(textOf(answer)), {
        role: "assistant",
        model: "scripted",
        stopReason: "endTurn",
        content: { type: "text", text: "Hello, world" }
      })
      assert.deepStrictEqual(warnings, [
        "McpSampling: protocol 2025-06-18 allows one content block; left out: image"
      ])
    }).pipe(Effect.scoped))
})
