/**
 * Typed both ends: one `McpTool` declaration, given a handler by the server
 * (`McpServer.toolHandler`) and called by the client (`client.callTool(Haiku,
 * args)`): arguments encoded with `parameters`, results decoded with
 * `success`, declared failures carried in a tool error's `_meta` and decoded
 * with `failure`. Asserted on what crosses the wire.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Layer from "effect/Layer"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTest from "@effect-mcp/mcp/McpTest"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import type { WireRecord } from "@effect-mcp/mcp/Transport"
import { assertWireValid, buildServer, connect, requests, responseTo } from "./utils/wire.js"

class TopicRejected extends Schema.TaggedError<TopicRejected>()("TopicRejected", {
  topic: Schema.String,
  message: Schema.String
}) {}

/** The shared declaration: no handler, no server code. */
const Haiku = McpTool.make({
  name: "haiku",
  description: "A haiku about a topic",
  parameters: Schema.Struct({ topic: Schema.String, lines: Schema.optional(Schema.Int) }),
  success: Schema.Struct({ haiku: Schema.String }),
  failure: TopicRejected,
  annotations: { readOnlyHint: true }
})

const HaikuLive = McpServer.toolHandler(Haiku, ({ lines, topic }) =>
  topic === "war"
    ? Effect.fail(new TopicRejected({ topic, message: `No haiku about ${topic}` }))
    : Effect.succeed({ haiku: `${topic} (${lines ?? 3} lines)` }))

/** A transformed parameter and a non-object success: both ends encode and decode. */
const NextDay = McpTool.make({
  name: "next_day",
  parameters: Schema.Struct({ day: Schema.DateFromString }),
  success: Schema.DateFromString
})

const NextDayLive = McpServer.toolHandler(NextDay, ({ day }) => Effect.succeed(new Date(day.getTime() + 86_400_000)))

/** No success or failure schema: the client gets the raw result; a failure is a ToolError. */
const Shout = McpTool.make({ name: "shout", parameters: Schema.Struct({ text: Schema.String }) })

const ShoutLive = McpServer.toolHandler(Shout, ({ text }) =>
  text === "" ? Effect.fail("nothing to shout") : Effect.succeed(text.toUpperCase()))

const server = buildServer(McpServer.register(HaikuLive, NextDayLive, ShoutLive))

describe("McpTool", () => {
  it.effect("callTool(declaration, args) sends the name and encoded arguments and decodes success", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* connect(yield* server)
      const result: { readonly haiku: string } = yield* client.callTool(Haiku, { topic: "fibers" })
      assert.deepStrictEqual(result, { haiku: "fibers (3 lines)" })
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(call.params, { name: "haiku", arguments: { topic: "fibers" } })
      assert.deepStrictEqual((responseTo(pair.wire, "server", call.id)?.result as McpSchema.CallToolResult).structuredContent, {
        haiku: "fibers (3 lines)"
      })
      const [listed] = yield* client.listToolsAll()
      assert.deepStrictEqual(listed, Haiku.definition)
      assert.deepStrictEqual(listed?.annotations, { readOnlyHint: true })
      assertWireValid(pair.wire)
    }))

  it.effect("a transformed parameter is encoded on the wire; a non-object success is unwrapped and decoded", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* connect(yield* server)
      const next = yield* client.callTool(NextDay, { day: new Date("2026-01-01T00:00:00.000Z") })
      assert.instanceOf(next, Date)
      assert.strictEqual(next.toISOString(), "2026-01-02T00:00:00.000Z")
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(call.params, { name: "next_day", arguments: { day: "2026-01-01T00:00:00.000Z" } })
      assert.deepStrictEqual((responseTo(pair.wire, "server", call.id)?.result as McpSchema.CallToolResult).structuredContent, {
        result: "2026-01-02T00:00:00.000Z"
      })
      assertWireValid(pair.wire)
    }))

  it.effect("a declared failure is a tool error with the encoded failure in _meta, decoded by the client", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* connect(yield* server)
      const error = yield* Effect.flip(client.callTool(Haiku, { topic: "war" }))
      assert.instanceOf(error, TopicRejected)
      assert.strictEqual((error as TopicRejected).topic, "war")
      assert.strictEqual((error as TopicRejected).message, "No haiku about war")
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(responseTo(pair.wire, "server", call.id)?.result, {
        content: [{ type: "text", text: "No haiku about war" }],
        isError: true,
        _meta: { "effect-mcp/failure": { _tag: "TopicRejected", topic: "war", message: "No haiku about war" } }
      })
      // the untyped call gets the same answer as a result
      const raw = yield* client.callTool("haiku", { topic: "war" })
      assert.isTrue(raw.isError)
      assertWireValid(pair.wire)
    }))

  it.effect("a tool error that is not the declared failure is a ToolError with the result's text", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* connect(yield* server)
      const error = yield* Effect.flip(client.callTool(Shout, { text: "" }))
      assert.instanceOf(error, McpTool.ToolError)
      assert.strictEqual((error as McpTool.ToolError).message, "nothing to shout")
      assert.strictEqual((error as McpTool.ToolError).tool, "shout")
      // invalid arguments answered by the server (sent untyped): a ToolError for a typed caller too
      const Loose = McpTool.make({ name: "haiku", parameters: Schema.Struct({ topic: Schema.Number }), failure: TopicRejected })
      const invalid = yield* Effect.flip(client.callTool(Loose, { topic: 1 }))
      assert.instanceOf(invalid, McpTool.ToolError)
      assert.include((invalid as McpTool.ToolError).message, "Invalid arguments for tool haiku")
      // without a success schema the result is the raw one
      const shouted: McpClient.CallToolResult = yield* client.callTool(Shout, { text: "hi" })
      assert.deepStrictEqual(shouted, { content: [{ type: "text", text: "HI" }] })
      assertWireValid(pair.wire)
    }))

  it.effect("arguments the parameters reject fail locally with a SchemaError; nothing is sent", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* connect(yield* server)
      const error = yield* Effect.flip(client.callTool(Haiku, { topic: "x", lines: 1.5 }))
      assert.strictEqual(error._tag, "SchemaError")
      assert.strictEqual(requests(pair.wire, "client", "tools/call").length, 0)
    }))

  it.effect("structuredContent the success schema rejects is a ProtocolError InvalidResult", () =>
    Effect.gen(function*() {
      const { client } = yield* connect(yield* server)
      const Wrong = McpTool.make({ name: "haiku", parameters: Schema.Struct({ topic: Schema.String }), success: Schema.Struct({ n: Schema.Number }) })
      const error = yield* Effect.flip(client.callTool(Wrong, { topic: "a" }))
      assert.strictEqual(error._tag, "ProtocolError")
      assert.strictEqual((error as { reason: string }).reason, "InvalidResult")
    }))

  it("arguments and results are checked at compile time", () => {
    const typeChecks = (client: McpClient.McpClientShape) => {
      // @ts-expect-error a wrong argument type
      client.callTool(Haiku, { topic: 1 })
      // @ts-expect-error a missing required argument
      client.callTool(Haiku, {})
      // @ts-expect-error the arguments are required when the tool has required parameters
      client.callTool(Haiku)
      // @ts-expect-error the handler must return the success type
      McpServer.toolHandler(Haiku, () => Effect.succeed({ poem: "x" }))
      // @ts-expect-error the handler may only fail with the declared failure
      McpServer.toolHandler(Haiku, () => Effect.fail("undeclared"))
      const ok: Effect.Effect<{ readonly haiku: string }, unknown> = client.callTool(Haiku, { topic: "t" })
      return ok
    }
    assert.isFunction(typeChecks)
    assert.isTrue(McpTool.isMcpTool(Haiku))
    assert.isTrue(Result.isSuccess(McpTool.encodeSuccess(NextDay, new Date(0))))
  })
})

// ----------------------------------------------------------------------------
// a declared failure and the reverse calls' errors
// ----------------------------------------------------------------------------

/**
 * A declared tool whose handler makes reverse calls: declaring `failure` keeps their errors
 * in its error channel (a type error before), and they are still tool errors naming the call.
 */
const Styled = McpTool.make({
  name: "styled",
  parameters: Schema.Struct({ topic: Schema.String }),
  success: Schema.Struct({ haiku: Schema.String }),
  failure: TopicRejected
})

const StyledLive = McpServer.toolHandler(Styled, ({ topic }) =>
  Effect.gen(function*() {
    if (topic === "war") return yield* Effect.fail(new TopicRejected({ topic, message: `No haiku about ${topic}` }))
    const ctx = yield* HandlerContext
    const answer = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: topic } }], maxTokens: 20 })
    const { style } = yield* ctx.elicit({ message: "Which style?", schema: Schema.Struct({ style: Schema.String }) })
    return { haiku: `${answer.model} ${style}` }
  }))

/** A structural failure schema, which a reverse call's McpError (it has a `message`) would satisfy. */
const Asking = McpTool.make({
  name: "asking",
  success: Schema.String,
  failure: Schema.Struct({ message: Schema.String })
})

const AskingLive = McpServer.toolHandler(Asking, () =>
  Effect.flatMap(HandlerContext, (ctx) =>
    ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 })).pipe(
      Effect.map((answer) => answer.model)
    ))

/** The same structural failure, which a declined form's ElicitationDeclined (`action`, `message`) would satisfy. */
const AskingForm = McpTool.make({
  name: "asking_form",
  success: Schema.String,
  failure: Schema.Struct({ message: Schema.String })
})

const AskingFormLive = McpServer.toolHandler(AskingForm, () =>
  Effect.flatMap(HandlerContext, (ctx) => ctx.elicit({ message: "ok?", schema: Schema.Struct({ ok: Schema.Boolean }) })).pipe(
    Effect.map(({ ok }) => String(ok))
  ))

const StyledServer = McpServer.register(StyledLive, AskingLive, AskingFormLive).pipe(
  Layer.provideMerge(McpServer.layer({ name: "styled", version: "1" }))
)

const sampled = () => Effect.succeed({ role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m" })

describe("a declared failure and the reverse calls' errors", () => {
  for (const era of ["2025", "2026"] as const) {
    it.effect(`${era}: ElicitationDeclined left uncaught is a tool error, not the declared failure`, () =>
      Effect.gen(function*() {
        const wire: Array<WireRecord> = []
        const declined = yield* McpTest.client(StyledServer, {
          era,
          onWire: (record) => wire.push(record),
          sampling: sampled,
          elicitation: { form: () => Effect.succeed({ action: "decline" as const }) }
        })
        const refusal = yield* Effect.flip(declined.callTool(Styled, { topic: "fibers" }))
        assert.instanceOf(refusal, McpTool.ToolError)
        // on the wire: a tool error result without the failure's `_meta`
        const result = lastToolResult(wire) as McpClient.CallToolResult
        assert.deepStrictEqual(result.content, [{ type: "text", text: "The user chose to decline the form" }])
        assert.isTrue(result.isError)
        assert.isFalse(McpTool.FAILURE_META_KEY in (result._meta ?? {}), "sent as the declared failure")
        assert.strictEqual((refusal as McpTool.ToolError).message, "The user chose to decline the form")
        // a failure schema the ElicitationDeclined would satisfy does not take it: a tool error still, no `_meta`
        assert.instanceOf(yield* Effect.flip(declined.callTool(AskingForm)), McpTool.ToolError)
        const formResult = lastToolResult(wire) as McpClient.CallToolResult
        assert.deepStrictEqual(formResult.content, [{ type: "text", text: "The user chose to decline the form" }])
        assert.isFalse(McpTool.FAILURE_META_KEY in (formResult._meta ?? {}), "ElicitationDeclined sent as the declared failure")

        // the declared failure is still the declared failure, and a success a success
        const ok = yield* McpTest.client(StyledServer, {
          era,
          sampling: sampled,
          elicitation: { form: () => Effect.succeed({ action: "accept" as const, content: { style: "basho" } }) }
        })
        assert.instanceOf(yield* Effect.flip(ok.callTool(Styled, { topic: "war" })), TopicRejected)
        assert.deepStrictEqual(yield* ok.callTool(Styled, { topic: "fibers" }), { haiku: "m basho" })
      }))
  }

  it.effect("2025: the client's error answer to ctx.sample left uncaught is a tool error naming the call", () =>
    Effect.gen(function*() {
      const wire: Array<WireRecord> = []
      const declining = yield* McpTest.client(StyledServer, {
        era: "2025",
        onWire: (record) => wire.push(record),
        sampling: () => Effect.fail(new ErrorResponse({ code: -1, message: "the user said no" })),
        elicitation: { form: () => Effect.succeed({ action: "accept" as const, content: { style: "basho" } }) }
      })
      const error = yield* Effect.flip(declining.callTool(Styled, { topic: "fibers" }))
      assert.instanceOf(error, McpTool.ToolError)
      const text = "sampling/createMessage failed: the client answered with error -1: the user said no"
      assert.strictEqual((error as McpTool.ToolError).message, text)
      assert.deepStrictEqual(lastToolResult(wire), { content: [{ type: "text", text }], isError: true })
      // a failure schema the McpError would satisfy does not take it: a tool error still, no `_meta`
      const structural = yield* Effect.flip(declining.callTool(Asking))
      assert.instanceOf(structural, McpTool.ToolError)
      assert.deepStrictEqual(lastToolResult(wire), { content: [{ type: "text", text }], isError: true })
    }))

  it.effect("2026: a client handler's failure has no way to the server: the call fails on the client (InputRequest)", () =>
    Effect.gen(function*() {
      const declining = yield* McpTest.client(StyledServer, {
        era: "2026",
        sampling: () => Effect.fail(new ErrorResponse({ code: -1, message: "the user said no" }))
      })
      const error = yield* Effect.flip(declining.callTool(Styled, { topic: "fibers" }))
      assert.strictEqual(error._tag, "ProtocolError")
      assert.strictEqual((error as { reason: string }).reason, "InputRequest")
    }))
})

/** The result of the last `tools/call` answered on the wire. */
const lastToolResult = (wire: ReadonlyArray<WireRecord>): unknown => {
  const messages = wire.map((w) => ({ from: w.from, message: JSON.parse(w.json) as { [key: string]: unknown } }))
  const calls = messages.filter((m) => m.from === "client" && m.message.method === "tools/call").map((m) => m.message.id)
  const id = calls.at(-1)
  return messages.find((m) => m.from === "server" && m.message.id === id && "result" in m.message)?.message.result
}
