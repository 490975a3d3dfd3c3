/**
 * Multi-round-trip requests with the official v2 client (`@modelcontextprotocol/client` 2.4.0,
 * pinned to 2026-07-28) against our conformance fixture server: the client fulfils each
 * `InputRequiredResult` through the handlers it registered (elicitation, sampling, roots) and
 * retries; our handlers are the ones that make plain reverse calls on 2025 sessions. Every round
 * the client sees is checked: what was asked, in how many rounds, and the final result.
 *
 * Over stdio against the conformance server (a child process); over HTTP against two instances
 * behind a round-robin proxy, so that each retry reaches the other instance: with the same
 * `requestState` keys the rounds complete, with different ones the retry is refused (-32602).
 */
import { assert, describe, it } from "@effect/vitest"
import * as HttpServer from "effect/http/HttpServer"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"
import { roundRobin } from "./roundRobin.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))

type Asked = Array<string>

/** The methods of the requests the client sent, in order. */
type Sent = Array<string>

/** A v2 client with handlers for every input request; `asked` records them in order. */
const makeClient = (asked: Asked) => {
  const client = new Client(
    { name: "official-v2", version: "2.4.0" },
    {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: "2026-07-28" } }
    }
  )
  client.setRequestHandler("elicitation/create", async (request) => {
    const message = String((request.params as { message: string }).message)
    asked.push(`elicitation: ${message}`)
    const content = message.includes("color")
      ? { color: "teal" }
      : message.includes("confirm")
      ? { ok: true }
      : message.includes("context")
      ? { context: "tests" }
      : { name: "Ada" }
    return { action: "accept", content }
  })
  client.setRequestHandler("sampling/createMessage", async (request) => {
    const first = (request.params as { messages: Array<{ content: { text?: string } }> }).messages[0]
    asked.push(`sampling: ${first?.content.text}`)
    return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model", stopReason: "endTurn" }
  })
  client.setRequestHandler("roots/list", async () => {
    asked.push("roots")
    return { roots: [{ uri: "file:///work", name: "work" }] }
  })
  return client
}

const stdioClient = (asked: Asked, sent: Sent = []) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = makeClient(asked)
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bundled("conformance-server"), "--stdio"],
        cwd: repo,
        stderr: "ignore"
      })
      const send = transport.send.bind(transport)
      transport.send = (message) => {
        if ("method" in message && "id" in message) sent.push(message.method)
        return send(message)
      }
      await client.connect(transport)
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!.text)

describe("official v2 client, pinned to 2026-07-28, over stdio", () => {
  it.live("elicitation and sampling rounds complete through the client's handlers", () =>
    Effect.gen(function*() {
      const asked: Asked = []
      const client = yield* stdioClient(asked)
      const greeting = yield* Effect.promise(() => client.callTool({ name: "test_input_required_result_elicitation", arguments: {} }))
      assert.strictEqual(textOf(greeting), "Hello, Ada!")
      const answer = yield* Effect.promise(() => client.callTool({ name: "test_input_required_result_sampling", arguments: {} }))
      assert.strictEqual(textOf(answer), "Paris")
      assert.deepStrictEqual(asked, ["elicitation: What is your name?", "sampling: What is the capital of France?"])
    }), 60_000)

  it.live("parallel calls are one round, sequential ones several; a prompt asks too", () =>
    Effect.gen(function*() {
      const asked: Asked = []
      const sent: Sent = []
      const client = yield* stdioClient(asked, sent)
      sent.length = 0
      const all = yield* Effect.promise(() => client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} }))
      assert.strictEqual(textOf(all), "Paris Ada (1 roots)")
      assert.sameMembers(asked, ["elicitation: What is your name?", "sampling: Generate a greeting", "roots"])
      // one round: the call and its retry
      assert.deepStrictEqual(sent, ["tools/call", "tools/call"])
      asked.length = 0
      sent.length = 0
      const rounds = yield* Effect.promise(() => client.callTool({ name: "test_input_required_result_multi_round", arguments: {} }))
      assert.strictEqual(textOf(rounds), "Ada likes teal")
      assert.deepStrictEqual(asked, ["elicitation: Step 1: What is your name?", "elicitation: Step 2: What is your favorite color?"])
      assert.deepStrictEqual(sent, ["tools/call", "tools/call", "tools/call"])
      asked.length = 0
      const prompt = yield* Effect.promise(() => client.getPrompt({ name: "test_input_required_result_prompt" }))
      assert.deepStrictEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "Use this context: tests" } }])
      assert.deepStrictEqual(asked, ["elicitation: What context should the prompt use?"])
    }), 60_000)
})

// -----------------------------------------------------------------------------
// over HTTP: two instances behind a round-robin proxy
// -----------------------------------------------------------------------------

const Name = Schema.Struct({ name: Schema.String })
const Color = Schema.Struct({ color: Schema.String })
const askName = Effect.flatMap(HandlerContext, (ctx) => ctx.elicit({ message: "What is your name?", schema: Name }))
const askColor = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.elicit({ message: "What is your favorite color?", schema: Color }))
const askModel = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 10 }))
const sampled = (r: McpSchema.CreateMessageResult) => {
  const content = Array.isArray(r.content) ? r.content[0] : r.content
  return content?.type === "text" ? content.text : ""
}

const httpTools = McpServer.register(
  McpServer.tool({
    name: "profile",
    description: "Asks a name, then a colour, then the model",
    handler: () =>
      Effect.gen(function*() {
        const { name } = yield* askName
        const { color } = yield* askColor
        const capital = sampled(yield* askModel)
        return `${name} likes ${color}; ${capital}`
      })
  }),
  McpServer.tool({
    name: "together",
    description: "Asks a name and the model at once",
    handler: () =>
      Effect.map(
        Effect.all([askName, askModel], { concurrency: "unbounded" }),
        ([{ name }, r]) => `${name}: ${sampled(r)}`
      )
  })
)

const KEY = "k".repeat(32)

/** One server instance on 127.0.0.1:0 signing its states with `keys`. */
const instance = (keys: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const layer = NodeStreamableHttp.layer({ port: 0 }).pipe(
      Layer.provideMerge(httpTools),
      Layer.provideMerge(McpServer.layer({ name: "mrtr-http", version: "1.0.0", requestState: { keys } }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = Context.get(context, HttpServer.HttpServer)
    return "port" in server.address ? server.address.port : 0
  })

const httpClient = (url: string, asked: Asked) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = makeClient(asked)
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

describe("official v2 client, pinned to 2026-07-28, over HTTP", () => {
  it.live("rounds complete whichever instance takes each retry, when the instances share the keys", () =>
    Effect.gen(function*() {
      const ports = [yield* instance([KEY]), yield* instance([KEY])]
      const proxy = yield* roundRobin(ports)
      const asked: Asked = []
      const client = yield* httpClient(proxy.url, asked)
      proxy.routed.length = 0
      const profile = yield* Effect.promise(() => client.callTool({ name: "profile", arguments: {} }))
      assert.strictEqual(textOf(profile), "Ada likes teal; Paris")
      assert.deepStrictEqual(asked, [
        "elicitation: What is your name?",
        "elicitation: What is your favorite color?",
        "sampling: Capital of France?"
      ])
      // four POSTs (three rounds and the call that completes), alternating between the instances
      assert.deepStrictEqual(proxy.routed.map((r) => r.target), [0, 1, 0, 1].map((t) => (t + (proxy.routed[0]?.target ?? 0)) % 2))
      asked.length = 0
      const together = yield* Effect.promise(() => client.callTool({ name: "together", arguments: {} }))
      assert.strictEqual(textOf(together), "Ada: Paris")
      assert.sameMembers(asked, ["elicitation: What is your name?", "sampling: Capital of France?"])
    }), 60_000)

  it.live("an instance without the key refuses the state: the call fails with -32602", () =>
    Effect.gen(function*() {
      const ports = [yield* instance([KEY]), yield* instance(["o".repeat(32)])]
      const proxy = yield* roundRobin(ports)
      const client = yield* httpClient(proxy.url, [])
      proxy.routed.length = 0
      const error = yield* Effect.flip(Effect.tryPromise(() => client.callTool({ name: "together", arguments: {} })))
      assert.include(String(error.cause), "requestState")
      assert.strictEqual((error.cause as { code?: number }).code, -32602)
    }), 60_000)
})
