/**
 * Multi-round-trip requests with the official v2 client (`@modelcontextprotocol/client` 2.4.0,
 * pinned to 2026-07-28) against our conformance fixture server: the client fulfils each
 * `InputRequiredResult` through the handlers it registered (elicitation, sampling, roots) and
 * retries; our handlers are the ones that make plain reverse calls on 2025 sessions. Every round
 * the client sees is checked: what was asked, in how many rounds, and the final result.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/client"
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"

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
        args: ["--import", "tsx", "--conditions=effect-mcp-source", "packages/conformance/src/server.ts", "--stdio"],
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
  it.scopedLive("elicitation and sampling rounds complete through the client's handlers", () =>
    Effect.gen(function*() {
      const asked: Asked = []
      const client = yield* stdioClient(asked)
      const greeting = yield* Effect.promise(() => client.callTool({ name: "test_input_required_result_elicitation", arguments: {} }))
      assert.strictEqual(textOf(greeting), "Hello, Ada!")
      const answer = yield* Effect.promise(() => client.callTool({ name: "test_input_required_result_sampling", arguments: {} }))
      assert.strictEqual(textOf(answer), "Paris")
      assert.deepStrictEqual(asked, ["elicitation: What is your name?", "sampling: What is the capital of France?"])
    }), 60_000)

  it.scopedLive("parallel calls are one round, sequential ones several; a prompt asks too", () =>
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
