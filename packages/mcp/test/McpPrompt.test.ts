/**
 * A prompt declared once (`McpPrompt.make`) types both ends: the server gives
 * it its content (`McpServer.promptHandler`), a client gets it
 * (`client.getPrompt(Summarize, { topic, words })`) with its arguments
 * checked at compile time and encoded to the strings the wire carries. On
 * the wire, in both eras: what `prompts/list` publishes, what `prompts/get`
 * carries (`words: 50` sent as `"50"`), the content decoded on the server.
 */
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpPrompt from "@effect-mcp/mcp/McpPrompt"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { buildServer, connect, parsed } from "./utils/wire.js"

const Summarize = McpPrompt.make({
  name: "summarize",
  title: "Summarize",
  description: "Summarizes a topic",
  parameters: Schema.Struct({
    topic: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "what to summarize" }),
    words: Schema.optional(Schema.FiniteFromString)
  })
})

const Hello = McpPrompt.make({ name: "hello" })

const SummarizeLive = McpServer.promptHandler(
  Summarize,
  ({ topic, words }) => Effect.succeed(`Summarize ${topic} in ${words === undefined ? "a few" : words + 1} words`),
  { complete: { topic: (value) => Effect.succeed(["fibers", "layers"].filter((t) => t.startsWith(value))) } }
)
const HelloLive = McpServer.promptHandler(Hello, () => Effect.succeed("Say hello"))

const textOf = (result: McpSchema.GetPromptResult) => (result.messages[0]!.content as McpSchema.TextContent).text

/** The `params` of every `prompts/get` the client sent. */
const getsOn = (wire: Parameters<typeof parsed>[0]) =>
  parsed(wire).flatMap(({ from, message }) => {
    const m = message as { method?: string; params?: { name: string; arguments?: unknown } }
    return from === "client" && m.method === "prompts/get" ? [{ name: m.params!.name, arguments: m.params!.arguments }] : []
  })

describe("McpPrompt", () => {
  it("make publishes the arguments with the author's descriptions only, and whether each is required", () => {
    assert.deepStrictEqual(Summarize.definition, {
      name: "summarize",
      title: "Summarize",
      description: "Summarizes a topic",
      arguments: [
        { name: "topic", description: "what to summarize", required: true },
        { name: "words", required: false }
      ]
    })
    assert.deepStrictEqual(Hello.definition, { name: "hello" })
    assert.isTrue(McpPrompt.isMcpPrompt(Summarize))
    assert.isFalse(McpPrompt.isMcpPrompt({ name: "summarize" }))
  })

  it("types the content's and the client's arguments; a wrong name or type is a type error", () => {
    expectTypeOf<McpPrompt.Arguments<typeof Summarize>>().toEqualTypeOf<{ readonly topic: string; readonly words?: number }>()
    expectTypeOf<McpPrompt.EncodedArguments<typeof Summarize>>().toEqualTypeOf<
      { readonly topic: string; readonly words?: string }
    >()
    const typeChecks = (client: McpClient.McpClientShape) => [
      client.getPrompt(Summarize, { topic: "fibers" }),
      client.getPrompt(Hello),
      // @ts-expect-error `topic` is required
      client.getPrompt(Summarize, { words: 5 }),
      // @ts-expect-error `words` is a number (sent as a string)
      client.getPrompt(Summarize, { topic: "fibers", words: "5" }),
      // @ts-expect-error `subject` is not an argument
      client.getPrompt(Summarize, { topic: "fibers", subject: "x" }),
      // @ts-expect-error the arguments are required
      client.getPrompt(Summarize),
      McpServer.promptHandler(Summarize, ({ topic }) => Effect.succeed(topic), {
        // @ts-expect-error `subject` is not an argument
        complete: { subject: () => Effect.succeed([]) }
      }),
      // @ts-expect-error the content gets no `subject`
      McpServer.promptHandler(Summarize, ({ subject }) => Effect.succeed(String(subject))),
      McpPrompt.make({
        name: "n",
        // @ts-expect-error prompt arguments are strings on the wire
        parameters: Schema.Struct({ n: Schema.Number })
      })
    ]
    assert.isFunction(typeChecks)
  })

  for (const era of ["2025", "2026-07-28"] as const) {
    it.live(`${era}: a typed getPrompt encodes its arguments to strings; the server decodes them for the content`, () =>
      Effect.gen(function*() {
        const server = yield* buildServer(McpServer.register(SummarizeLive, HelloLive))
        const { client, pair } = yield* connect(server, { client: { era } })
        const listed = yield* client.listPromptsAll()
        assert.deepStrictEqual(listed, [Summarize.definition, Hello.definition])
        assert.strictEqual(textOf(yield* client.getPrompt(Summarize, { topic: "fibers", words: 49 })), "Summarize fibers in 50 words")
        assert.strictEqual(textOf(yield* client.getPrompt(Summarize, { topic: "layers" })), "Summarize layers in a few words")
        assert.strictEqual(textOf(yield* client.getPrompt(Hello)), "Say hello")
        // the same prompt by name, with the strings as they are
        assert.strictEqual(textOf(yield* client.getPrompt("summarize", { topic: "x", words: "1" })), "Summarize x in 2 words")
        // arguments the parameters reject never leave the client
        const rejected = yield* Effect.flip(client.getPrompt(Summarize, { topic: "" }))
        assert.strictEqual(rejected._tag, "SchemaError")
        // a bad string the server decodes: -32602 naming the argument and the value
        const bad = yield* Effect.flip(client.getPrompt("summarize", { topic: "x", words: "many" }))
        assert.include(bad.message, `words: `)
        assert.include(bad.message, `"many"`)
        assert.deepStrictEqual(getsOn(pair.wire), [
          { name: "summarize", arguments: { topic: "fibers", words: "49" } },
          { name: "summarize", arguments: { topic: "layers" } },
          { name: "hello", arguments: undefined },
          { name: "summarize", arguments: { topic: "x", words: "1" } },
          { name: "summarize", arguments: { topic: "x", words: "many" } }
        ])
        const completed = yield* client.complete({ ref: { type: "ref/prompt", name: "summarize" }, argument: { name: "topic", value: "f" } })
        assert.deepStrictEqual(completed.completion.values, ["fibers"])
      }))
  }
})
