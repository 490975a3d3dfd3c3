/**
 * One server, both eras, the same handlers: the official v2 client (`@modelcontextprotocol/client`
 * 2.4.0) in each of its negotiation modes — `legacy` (initialize, 2025-11-25), `auto` (probes
 * `server/discover`, takes 2026-07-28) and `pin: "2026-07-28"` — against our HTTP server (node
 * listener) and our stdio server (the conformance fixture, a child process). In each: the era it
 * ended on (and that a 2026 client never sent `initialize`), tools listed and called, and an
 * elicitation and a sampling round trip through the client's handlers (server requests on 2025,
 * input requests on 2026) made by the very same handler code.
 */
import { assert, describe, it } from "@effect/vitest"
import * as HttpServer from "effect/http/HttpServer"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))

type Mode = "legacy" | "auto" | { readonly pin: string }
const MODES: ReadonlyArray<readonly [string, Mode, string]> = [
  ["legacy", "legacy", "2025-11-25"],
  ["auto", "auto", "2026-07-28"],
  ["pin 2026-07-28", { pin: "2026-07-28" }, "2026-07-28"]
]

/** A v2 client in `mode` with elicitation and sampling handlers; `sent` records the methods of its requests. */
const makeClient = (mode: Mode, sent: Array<string>) => {
  const client = new Client(
    { name: "official-v2", version: "2.4.0" },
    { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: mode as "legacy" } }
  )
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }))
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
    stopReason: "endTurn"
  }))
  const spy = <T extends Transport>(transport: T): T => {
    const send = transport.send.bind(transport)
    transport.send = (message, options) => {
      if ("method" in message && "id" in message) sent.push(message.method)
      return send(message, options)
    }
    return transport
  }
  return { client, spy }
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!.text)

// -------------------------------------------------------------------- HTTP

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const Name = Schema.Struct({ name: Schema.String })

/** The same handler on both eras: a reverse call each, then the answers combined. */
const Ask = McpServer.tool({
  name: "ask",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const { name } = yield* ctx.elicit({ message: "What is your name?", schema: Name })
      const sampled = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }],
        maxTokens: 10
      })
      const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content
      return `${name}: ${content?.type === "text" ? content.text : ""}`
    })
})

const httpServer = Effect.gen(function*() {
  const layer = NodeStreamableHttp.layer({ port: 0 }).pipe(
    Layer.provideMerge(McpServer.register(Echo, Ask)),
    Layer.provideMerge(McpServer.layer({ name: "eras-http", version: "1.0.0" }))
  )
  const context = yield* Layer.build(layer).pipe(Effect.orDie)
  const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
  const port = "port" in server.address ? server.address.port : 0
  return `http://127.0.0.1:${port}/mcp`
})

describe("official v2 client against our HTTP server, in each negotiation mode", () => {
  for (const [label, mode, era] of MODES) {
    it.live(`${label}: speaks ${era}; tools, elicitation and sampling through the same handler`, () =>
      Effect.gen(function*() {
        const url = yield* httpServer
        const sent: Array<string> = []
        const { client, spy } = makeClient(mode, sent)
        yield* Effect.acquireRelease(
          Effect.promise(() => client.connect(spy(new StreamableHTTPClientTransport(new URL(url))))),
          () => Effect.promise(() => client.close())
        )
        assert.strictEqual(client.getNegotiatedProtocolVersion(), era)
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.sameMembers(tools.map((t) => t.name), ["echo", "ask"])
        const echo = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "hé" } }))
        assert.strictEqual(textOf(echo), "hé")
        const asked = yield* Effect.promise(() => client.callTool({ name: "ask", arguments: {} }))
        assert.strictEqual(textOf(asked), "Ada: Paris")
        if (era === "2026-07-28") {
          assert.notInclude(sent, "initialize")
          // two rounds (elicitation, then sampling) and the call that completes
          assert.deepStrictEqual(sent.filter((m) => m === "tools/call").length, 4)
        } else {
          assert.strictEqual(sent[0], "initialize")
          assert.notInclude(sent, "server/discover")
        }
      }), 30_000)
  }
})

// -------------------------------------------------------------------- stdio

describe("official v2 client spawning our stdio server, in each negotiation mode", () => {
  for (const [label, mode, era] of MODES) {
    it.live(`${label}: speaks ${era}; tools, elicitation and sampling through the same handlers`, () =>
      Effect.gen(function*() {
        const sent: Array<string> = []
        const { client, spy } = makeClient(mode, sent)
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: [bundled("conformance-server"), "--stdio"],
          cwd: repo,
          stderr: "ignore"
        })
        yield* Effect.acquireRelease(
          Effect.promise(() => client.connect(spy(transport))),
          () => Effect.promise(() => client.close())
        )
        assert.strictEqual(client.getNegotiatedProtocolVersion(), era)
        const echo = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "hi" } }))
        assert.strictEqual(textOf(echo), "hi")
        // the fixture's 2025 tools, whose handlers make plain reverse calls, serve a 2026 client too
        const sampled = yield* Effect.promise(() => client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }))
        assert.strictEqual(textOf(sampled), "LLM response: Paris")
        const elicited = yield* Effect.promise(() => client.callTool({ name: "test_elicitation", arguments: { message: "who?" } }))
        assert.include(textOf(elicited), "Ada")
        assert.strictEqual(sent.includes("initialize"), era === "2025-11-25")
      }), 60_000)
  }
})
