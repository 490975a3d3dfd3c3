/**
 * Spans, trace context and metrics as OpenTelemetry's MCP conventions give them, read from a real
 * pipeline (`@effect/opentelemetry` over `@opentelemetry/sdk-trace-base` and `sdk-metrics`, see
 * `otelPipeline.ts`), our client and server over the in-memory transport in this process, both
 * eras (and over HTTP on 127.0.0.1, for `client.address`/`client.port`). What crosses the wire
 * (`_meta.traceparent`) is read off the pair's wire log. The same over
 * stdio and HTTP between processes, and the official client joining a trace, are in
 * `deploy/Telemetry.test.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTelemetry from "@effect-mcp/mcp/McpTelemetry"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import { startPlatform, startServer } from "./httpUtil.js"
import * as OtelPipeline from "./otelPipeline.js"
import { CLIENT_KIND, ERROR_STATUS, SERVER_KIND, type SpanRecord } from "./otelPipeline.js"

class Refused extends Schema.TaggedError<Refused>()("Refused", { message: Schema.String }) {}

const features = McpServer.register(
  McpServer.tool({
    name: "echo",
    parameters: Schema.Struct({ text: Schema.String }),
    handler: ({ text }) => Effect.succeed(text)
  }),
  McpServer.tool({
    name: "ask",
    parameters: Schema.Struct({ question: Schema.String }),
    handler: ({ question }) =>
      Effect.gen(function*() {
        const ctx = yield* HandlerContext
        const answer = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens: 5 })
        const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
        return content?.type === "text" ? content.text : "?"
      })
  }),
  McpServer.tool({
    name: "slow",
    handler: () =>
      Effect.gen(function*() {
        const ctx = yield* HandlerContext
        yield* ctx.progress(1, { total: 2 })
        yield* ctx.progress(2, { total: 2 })
        return "done"
      })
  }),
  McpServer.tool({ name: "hang", handler: () => Effect.never }),
  McpServer.tool({
    name: "chatty",
    handler: () =>
      Effect.gen(function*() {
        const ctx = yield* HandlerContext
        yield* ctx.log("info", "working")
        return "said"
      })
  }),
  McpServer.tool({ name: "broken", handler: () => Effect.fail(new Refused({ message: "refused" })) }),
  McpServer.prompt({
    name: "greet",
    parameters: Schema.Struct({ who: Schema.String }),
    content: ({ who }) => Effect.succeed(`Hello ${who}`)
  })
)

const serverLayer = features.pipe(Layer.provideMerge(McpServer.layer({ name: "traced", version: "1.0.0" })))

const sampling = () => Effect.succeed({ role: "assistant" as const, model: "m", content: { type: "text" as const, text: "42" } })

/** Our server and client over memory, in `scope`; the pair's wire log is returned with the client. */
const connect = (era: "2025" | "2026") =>
  Effect.gen(function*() {
    const server = Context.get(yield* Layer.build(serverLayer), McpServer.McpServer)
    const pair = yield* Transport.makeMemoryPair()
    yield* server.serve(pair.server).pipe(Effect.forkScoped)
    const client = yield* McpClient.make({ era: era === "2026" ? "2026-07-28" : "2025", name: "c", version: "1", sampling }).pipe(
      Effect.provideService(Transport.Transport, pair.client)
    )
    return { client, wire: pair.wire }
  })

const one = (spans: ReadonlyArray<SpanRecord>, name: string, kind: number): SpanRecord => {
  const found = spans.filter((s) => s.name === name && s.kind === kind)
  assert.strictEqual(found.length, 1, `one ${kind === CLIENT_KIND ? "CLIENT" : "SERVER"} span ${name}: ${spans.map((s) => `${s.name}/${s.kind}`).join(", ")}`)
  return found[0]!
}

/** The `_meta` of the requests of `method` the client sent, in order. */
const sentMeta = (wire: ReadonlyArray<Transport.WireRecord>, from: "client" | "server", method: string) =>
  wire.filter((w) => w.from === from).map((w) => JSON.parse(w.json)).filter((m) => m.method === method && "id" in m)
    .map((m) => m.params?._meta as Record<string, unknown> | undefined)

const traceparentOf = (span: SpanRecord) => `00-${span.traceId}-${span.spanId}-01`

describe("spans on both sides (2025-11-25)", () => {
  it.live("a tool call: client span → _meta.traceparent → server span, named and attributed as the conventions say", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client, wire } = yield* connect("2025")
      yield* client.callTool("echo", { text: "secret" }).pipe(Effect.withSpan("host"))
      const spans = pipeline.spans()
      const host = spans.find((s) => s.name === "host")!
      const sent = one(spans, "tools/call echo", CLIENT_KIND)
      const handled = one(spans, "tools/call echo", SERVER_KIND)
      assert.strictEqual(sent.parentSpanId, host.spanId)
      assert.strictEqual(handled.traceId, host.traceId)
      assert.strictEqual(handled.parentSpanId, sent.spanId)
      assert.deepStrictEqual(sentMeta(wire, "client", "tools/call")[0], { traceparent: traceparentOf(sent) })
      for (const span of [sent, handled]) {
        assert.strictEqual(span.attributes["mcp.method.name"], "tools/call")
        assert.strictEqual(span.attributes["gen_ai.tool.name"], "echo")
        assert.strictEqual(span.attributes["gen_ai.operation.name"], "execute_tool")
        assert.strictEqual(span.attributes["mcp.protocol.version"], "2025-11-25")
        assert.strictEqual(typeof span.attributes["jsonrpc.request.id"], "string")
        assert.isUndefined(span.attributes["error.type"])
        assert.notStrictEqual(span.status.code, ERROR_STATUS)
        // user data is opt-in
        assert.isUndefined(span.attributes["gen_ai.tool.call.arguments"])
        assert.isUndefined(span.attributes["gen_ai.tool.call.result"])
        assert.isUndefined(span.attributes["mcp.method"])
        assert.isUndefined(span.attributes["mcp.side"])
      }
      assert.strictEqual(sent.attributes["jsonrpc.request.id"], handled.attributes["jsonrpc.request.id"])
      // initialize is a span too (its own trace: the client was made outside `host`)
      one(spans, "initialize", CLIENT_KIND)
      one(spans, "initialize", SERVER_KIND)
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("a reverse call is CLIENT on the server and SERVER on the client, in the same trace", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client, wire } = yield* connect("2025")
      yield* client.callTool("ask", { question: "?" }).pipe(Effect.withSpan("host"))
      const spans = pipeline.spans()
      const host = spans.find((s) => s.name === "host")!
      const handled = one(spans, "tools/call ask", SERVER_KIND)
      const reverse = one(spans, "sampling/createMessage", CLIENT_KIND)
      const answered = one(spans, "sampling/createMessage", SERVER_KIND)
      assert.strictEqual(reverse.parentSpanId, handled.spanId)
      assert.strictEqual(answered.parentSpanId, reverse.spanId)
      assert.isTrue([handled, reverse, answered].every((s) => s.traceId === host.traceId))
      assert.strictEqual(sentMeta(wire, "server", "sampling/createMessage")[0]?.traceparent, traceparentOf(reverse))
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("a tool error result is error.type tool_error on both sides, with an error status", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      const result = yield* client.callTool("broken")
      assert.isTrue(result.isError)
      for (const kind of [CLIENT_KIND, SERVER_KIND]) {
        const span = one(pipeline.spans(), "tools/call broken", kind)
        assert.strictEqual(span.attributes["error.type"], "tool_error")
        assert.strictEqual(span.status.code, ERROR_STATUS)
      }
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("a JSON-RPC error: an error for the sender; for the receiver -32602 is the caller's, recorded but not an error", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      const error = yield* Effect.flip(client.callTool("nope"))
      assert.strictEqual((error as { code?: number }).code, -32602)
      const sent = one(pipeline.spans(), "tools/call nope", CLIENT_KIND)
      assert.strictEqual(sent.attributes["error.type"], "-32602")
      assert.strictEqual(sent.attributes["rpc.response.status_code"], "-32602")
      assert.strictEqual(sent.status.code, ERROR_STATUS)
      assert.isString(sent.status.message)
      const handled = one(pipeline.spans(), "tools/call nope", SERVER_KIND)
      assert.strictEqual(handled.attributes["rpc.response.status_code"], "-32602")
      assert.isUndefined(handled.attributes["error.type"])
      assert.notStrictEqual(handled.status.code, ERROR_STATUS)
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("a timed-out call: timeout on the client, cancelled on the server, the cancellation an event on both", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      const error = yield* Effect.flip(client.callTool("hang", {}, { timeout: "50 millis" }))
      assert.strictEqual((error as { reason?: string }).reason, "Timeout")
      yield* Effect.sleep("50 millis")
      const sent = one(pipeline.spans(), "tools/call hang", CLIENT_KIND)
      assert.strictEqual(sent.attributes["error.type"], "timeout")
      assert.strictEqual(sent.status.code, ERROR_STATUS)
      assert.include(sent.events.map((e) => e.name), "notifications/cancelled")
      const handled = one(pipeline.spans(), "tools/call hang", SERVER_KIND)
      assert.strictEqual(handled.attributes["error.type"], "cancelled")
      assert.include(handled.events.map((e) => e.name), "notifications/cancelled")
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("an interrupted call is cancelled on the client's span", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      yield* client.callTool("hang").pipe(Effect.timeoutOption("50 millis"))
      yield* Effect.sleep("50 millis")
      const sent = one(pipeline.spans(), "tools/call hang", CLIENT_KIND)
      assert.strictEqual(sent.attributes["error.type"], "cancelled")
      assert.strictEqual(sent.status.code, ERROR_STATUS)
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("progress notifications are events of the call's span", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      yield* client.callTool("slow", {}, { onProgress: () => Effect.void })
      const sent = one(pipeline.spans(), "tools/call slow", CLIENT_KIND)
      const progress = sent.events.filter((e) => e.name === "notifications/progress")
      assert.deepStrictEqual(progress.map((e) => e.attributes["mcp.progress"]), [1, 2])
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("notifications have spans of their own: CLIENT where sent, SERVER where handled, its trace context in its _meta", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client, wire } = yield* connect("2025")
      // a log message of a tool call: sent in the server's span of the call, handled by the client
      yield* client.setLogLevel("debug")
      yield* client.callTool("chatty", {})
      // the client's notifications/initialized, sent while connecting (handled by the server since)
      const initialized = one(pipeline.spans(), "notifications/initialized", CLIENT_KIND)
      const initializedHandled = one(pipeline.spans(), "notifications/initialized", SERVER_KIND)
      assert.strictEqual(initializedHandled.parentSpanId, initialized.spanId)
      assert.strictEqual(initialized.attributes["mcp.method.name"], "notifications/initialized")
      assert.isUndefined(initialized.attributes["jsonrpc.request.id"])
      // the client's handling of the log message ends in its own time: waited for
      for (let i = 0; i < 50 && !pipeline.spans().some((s) => s.name === "notifications/message" && s.kind === SERVER_KIND); i++) {
        yield* Effect.sleep("10 millis")
      }
      const handledCall = one(pipeline.spans(), "tools/call chatty", SERVER_KIND)
      const logged = one(pipeline.spans(), "notifications/message", CLIENT_KIND)
      const received = one(pipeline.spans(), "notifications/message", SERVER_KIND)
      assert.strictEqual(logged.parentSpanId, handledCall.spanId)
      assert.strictEqual(received.parentSpanId, logged.spanId)
      assert.strictEqual(received.traceId, handledCall.traceId)
      assert.strictEqual(logged.attributes["mcp.protocol.version"], "2025-11-25")
      const sentLog = wire.filter((w) => w.from === "server").map((w) => JSON.parse(w.json))
        .find((m) => m.method === "notifications/message")
      assert.strictEqual(sentLog?.params?._meta?.traceparent, traceparentOf(logged))
      const sentInitialized = wire.filter((w) => w.from === "client").map((w) => JSON.parse(w.json))
        .find((m) => m.method === "notifications/initialized")
      assert.strictEqual(sentInitialized?.params?._meta?.traceparent, traceparentOf(initialized))
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("a prompt: named for it, gen_ai.prompt.name; arguments, variables and results only with RecordContent", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      yield* client.getPrompt("greet", { who: "Ada" })
      yield* client.callTool("echo", { text: "hi" })
      const prompt = one(pipeline.spans(), "prompts/get greet", SERVER_KIND)
      assert.strictEqual(prompt.attributes["gen_ai.prompt.name"], "greet")
      assert.strictEqual(prompt.attributes["gen_ai.prompt.variable.who"], "Ada")
      const tool = one(pipeline.spans(), "tools/call echo", CLIENT_KIND)
      assert.strictEqual(tool.attributes["gen_ai.tool.call.arguments"], JSON.stringify({ text: "hi" }))
      assert.include(String(tool.attributes["gen_ai.tool.call.result"]), "hi")
    }).pipe(Effect.scoped, Effect.provide(McpTelemetry.layerRecordContent), Effect.provide(pipeline.layer))
  })

  it.live("the caller's _meta goes out untouched: its own traceparent wins, other keys are kept beside ours", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client, wire } = yield* connect("2025")
      const theirs = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
      yield* client.callTool("echo", { text: "a" }, { _meta: { traceparent: theirs, custom: 1 } })
      yield* client.callTool("echo", { text: "b" }, { _meta: { custom: 2 } })
      yield* client.readResource("file:///none").pipe(Effect.ignore, Effect.withSpan("r"))
      const metas = sentMeta(wire, "client", "tools/call")
      assert.deepStrictEqual(metas[0], { traceparent: theirs, custom: 1 })
      assert.strictEqual(metas[1]?.custom, 2)
      assert.match(String(metas[1]?.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
      const handled = pipeline.spans().filter((s) => s.name === "tools/call echo" && s.kind === SERVER_KIND)
      assert.strictEqual(handled[0]?.traceId, "0af7651916cd43dd8448eb211c80319c")
      assert.strictEqual(handled[0]?.parentSpanId, "b7ad6b7169203331")
      const read = one(pipeline.spans(), "resources/read", CLIENT_KIND)
      assert.strictEqual(read.attributes["mcp.resource.uri"], "file:///none")
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })

  it.live("without a tracer nothing is added: no trace context on the wire", () =>
    Effect.gen(function*() {
      const { client, wire } = yield* connect("2025")
      yield* client.callTool("echo", { text: "x" })
      yield* client.callTool("ask", { question: "?" })
      assert.deepStrictEqual(sentMeta(wire, "client", "tools/call"), [undefined, undefined])
      assert.deepStrictEqual(sentMeta(wire, "server", "sampling/createMessage"), [undefined])
      // nor in notifications
      const notifications = wire.map((w) => JSON.parse(w.json)).filter((m) => typeof m.method === "string" && !("id" in m))
      assert.isTrue(notifications.length > 0)
      for (const n of notifications) assert.isUndefined(n.params?._meta?.traceparent, n.method)
    }).pipe(Effect.scoped))
})

describe("client.address and client.port (HTTP)", () => {
  const servers = [
    ["node's listener (NodeStreamableHttp)", (Effect.map(startServer(features), (s) => s.url))],
    ["@effect/platform-node's request (StreamableHttpServer.make's app)", startPlatform(features)]
  ] as const
  for (const [name, start] of servers) {
    it.live(`a server span of a request over HTTP has the connection's remote end: ${name}`, () => {
      const pipeline = OtelPipeline.make("test")
      return Effect.gen(function*() {
        const url = yield* start
        yield* Effect.gen(function*() {
          const client = yield* McpClient.McpClient
          yield* client.callTool("echo", { text: "x" })
        }).pipe(
          Effect.provide(McpClient.layer({ era: "2025", name: "c", version: "1" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))),
          Effect.scoped
        )
        const handled = one(pipeline.spans(), "tools/call echo", SERVER_KIND)
        assert.include(["127.0.0.1", "::ffff:127.0.0.1"], handled.attributes["client.address"])
        const port = handled.attributes["client.port"]
        assert.isTrue(typeof port === "number" && port > 0 && port !== Number(new URL(url).port), `client.port ${String(port)}`)
        assert.isUndefined(one(pipeline.spans(), "tools/call echo", CLIENT_KIND).attributes["client.address"])
      }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
    })
  }

  it.live("over memory (no HTTP request) a server span has none", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client } = yield* connect("2025")
      yield* client.callTool("echo", { text: "x" })
      assert.isUndefined(one(pipeline.spans(), "tools/call echo", SERVER_KIND).attributes["client.address"])
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })
})

describe("metrics", () => {
  it.live("operation and session durations, in seconds, with the conventions' attributes, through @effect/opentelemetry", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const scope = yield* Scope.make()
      const { client } = yield* connect("2025").pipe(Scope.provide(scope))
      yield* client.callTool("echo", { text: "x" })
      yield* client.callTool("broken")
      yield* Scope.close(scope, Exit.void)
      const collected = yield* Effect.promise(() => pipeline.metrics())
      const metrics = collected.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)
      const byName = (name: string) => metrics.find((m) => m.descriptor.name === name)
      for (const name of ["mcp.client.operation.duration", "mcp.server.operation.duration"]) {
        const metric = byName(name)
        assert.isDefined(metric, name)
        assert.strictEqual(metric!.descriptor.unit, "s")
        const echo = metric!.dataPoints.find((p) => p.attributes["gen_ai.tool.name"] === "echo")
        assert.isDefined(echo, `${name}: a point for echo`)
        assert.strictEqual(echo!.attributes["mcp.method.name"], "tools/call")
        assert.strictEqual(echo!.attributes["gen_ai.operation.name"], "execute_tool")
        assert.strictEqual(echo!.attributes["mcp.protocol.version"], "2025-11-25")
        assert.isUndefined(echo!.attributes["jsonrpc.request.id"])
        const broken = metric!.dataPoints.find((p) => p.attributes["gen_ai.tool.name"] === "broken")
        assert.strictEqual(broken?.attributes["error.type"], "tool_error")
      }
      for (const name of ["mcp.client.session.duration", "mcp.server.session.duration"]) {
        const metric = byName(name)
        assert.isDefined(metric, name)
        assert.strictEqual(metric!.descriptor.unit, "s")
        assert.strictEqual(metric!.dataPoints[0]?.attributes["mcp.protocol.version"], "2025-11-25")
      }
    }).pipe(Effect.provide(pipeline.layer))
  })
})

describe("spans on both sides (2026-07-28)", () => {
  it.live("a multi-round call is one trace: each round a child of the caller's span, the input request a child of the server's round that asked it", () => {
    const pipeline = OtelPipeline.make("test")
    return Effect.gen(function*() {
      const { client, wire } = yield* connect("2026")
      yield* client.callTool("ask", { question: "?" }).pipe(Effect.withSpan("host"))
      const spans = pipeline.spans()
      const host = spans.find((s) => s.name === "host")!
      const rounds = spans.filter((s) => s.name === "tools/call ask" && s.kind === CLIENT_KIND)
      const handled = spans.filter((s) => s.name === "tools/call ask" && s.kind === SERVER_KIND)
      assert.strictEqual(rounds.length, 2)
      assert.strictEqual(handled.length, 2)
      for (const round of rounds) assert.strictEqual(round.parentSpanId, host.spanId)
      assert.deepStrictEqual(handled.map((s) => s.parentSpanId).sort(), rounds.map((s) => s.spanId).sort())
      const input = one(spans, "sampling/createMessage", SERVER_KIND)
      // the server's first round asked it: its trace context came in the InputRequiredResult's `_meta`
      const asked = handled.find((s) => s.parentSpanId === rounds[0]!.spanId)!
      assert.strictEqual(input.parentSpanId, asked.spanId)
      assert.isTrue([...rounds, ...handled, input].every((s) => s.traceId === host.traceId))
      for (const span of [...rounds, ...handled]) assert.strictEqual(span.attributes["mcp.protocol.version"], "2026-07-28")
      const metas = sentMeta(wire, "client", "tools/call")
      assert.strictEqual(metas.length, 2)
      metas.forEach((meta, i) => assert.strictEqual(meta?.traceparent, traceparentOf(rounds[i]!)))
      // the answer that asked for input carries the asking round's trace context in its `_meta`
      const answers = wire.filter((w) => w.from === "server").map((w) => JSON.parse(w.json))
        .filter((m) => m.result?.resultType === "input_required")
      assert.strictEqual(answers.length, 1)
      assert.strictEqual(answers[0].result._meta?.traceparent, traceparentOf(asked))
    }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
  })
})
