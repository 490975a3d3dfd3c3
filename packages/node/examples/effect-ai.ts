/**
 * The README's "With effect/ai" example, type-checked (Packaging.test.ts checks the README shows it verbatim).
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpSampling from "@effect-mcp/mcp/McpSampling"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Chat from "effect/ai/Chat"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

// 1. an agent using two MCP servers' tools
const connect = (url: string) =>
  Effect.map(
    Layer.build(McpClient.layer({ name: "agent", version: "1.0.0" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))),
    (context) => Context.get(context, McpClient.McpClient)
  )

export const agent = Effect.gen(function*() {
  const toolkit = McpToolkit.merge(
    yield* McpToolkit.fromClient(yield* connect("http://127.0.0.1:3001/mcp"), { prefix: "weather_" }),
    yield* McpToolkit.fromClient(yield* connect("http://127.0.0.1:3002/mcp"), { prefix: "files_" })
  )
  const chat = yield* Chat.empty
  let response = yield* chat.generateText({ prompt: "Save tomorrow's forecast to notes.md", toolkit })
  while (response.toolCalls.length > 0) response = yield* chat.generateText({ prompt: [], toolkit })
  return response.text
}).pipe(Effect.scoped)
// it needs a LanguageModel: provide your provider's (an OpenAiLanguageModel.model(...) layer, …)

// 2. an effect/ai Toolkit served as MCP tools
const Add = Tool.make("add", {
  parameters: Schema.Struct({ a: Schema.Number, b: Schema.Number }),
  success: Schema.Number
}).annotate(Tool.Readonly, true)
const Calculator = Toolkit.make(Add)

export const CalculatorLive = McpToolkit.register(Calculator).pipe(
  Layer.provide(Calculator.toLayer({ add: ({ a, b }) => Effect.succeed(a + b) })),
  Layer.provideMerge(McpServer.layer({ name: "calculator", version: "1.0.0" }))
)
// serve it as any server: McpServer.run with NodeStdio.layerServer(), or NodeStreamableHttp.layer(...)

// 3. the servers' sampling requests answered by your LanguageModel
export const HostLive = McpClient.layer({ name: "host", version: "1.0.0", sampling: McpSampling.handler() })
// Layer<McpClient, ClientError, Transport | LanguageModel>
