/**
 * One trace across processes, read from real pipelines (`otelPipeline.ts`): our client in this
 * process, our server (`fixtures/otel-server.ts`) a child appending its spans to a file, over
 * stdio and streamable HTTP, both eras: client span → `_meta.traceparent` → server span → reverse
 * call (a request in 2025, an input request in 2026) → the client's handler. And the official v1
 * client, sending `_meta.traceparent` by hand (stdio) or only the HTTP `traceparent` header:
 * our server joins its trace.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as child from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bundled } from "../../../../vitest.bundled.js"
import * as OtelPipeline from "../otelPipeline.js"
import { CLIENT_KIND, SERVER_KIND, type SpanRecord } from "../otelPipeline.js"

const spansFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "otel-spans-")), "server.jsonl")

/** The fixture listening on HTTP: its URL, killed with the scope. */
const httpServer = (file: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly proc: child.ChildProcess }>((resume) => {
      const proc = child.spawn(process.execPath, [bundled("otel-server"), "http"], {
        env: { ...process.env, OTEL_SPANS: file },
        stdio: ["ignore", "pipe", "inherit"]
      })
      let out = ""
      proc.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8")
        const port = /port=(\d+)/.exec(out)
        if (port !== null) resume(Effect.succeed({ url: `http://127.0.0.1:${port[1]}/mcp`, proc }))
      })
    }),
    ({ proc }) =>
      Effect.callback<void>((resume) => {
        if (proc.exitCode !== null) return resume(Effect.void)
        proc.once("exit", () => resume(Effect.void))
        proc.kill("SIGKILL")
      })
  )

const sampling = () => Effect.succeed({ role: "assistant" as const, model: "m", content: { type: "text" as const, text: "42" } })

const named = (spans: ReadonlyArray<SpanRecord>, name: string, kind: number) => spans.filter((s) => s.name === name && s.kind === kind)

/** The server's spans, once it wrote `count` of those named `name` (it writes them as they end). */
const serverSpans = (file: string, name: string, count: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < 100; i++) {
      const spans = OtelPipeline.readSpans(file)
      if (spans.filter((s) => s.name === name).length >= count) return spans
      yield* Effect.sleep("20 millis")
    }
    return OtelPipeline.readSpans(file)
  })

/** The one trace of a call of `ask` in `era`, checked on both sides. */
const assertOneTrace = (era: "2025" | "2026", client: ReadonlyArray<SpanRecord>, server: ReadonlyArray<SpanRecord>) => {
  const host = client.find((s) => s.name === "host")!
  const rounds = named(client, "tools/call ask", CLIENT_KIND)
  const handled = named(server, "tools/call ask", SERVER_KIND)
  assert.strictEqual(rounds.length, era === "2025" ? 1 : 2, "the client's calls")
  assert.strictEqual(handled.length, rounds.length, "the server's spans")
  for (const round of rounds) assert.strictEqual(round.parentSpanId, host.spanId)
  assert.deepStrictEqual(handled.map((s) => s.parentSpanId).sort(), rounds.map((s) => s.spanId).sort())
  assert.isTrue([...rounds, ...handled].every((s) => s.traceId === host.traceId), "one trace")
  const answered = named(client, "sampling/createMessage", SERVER_KIND)
  assert.strictEqual(answered.length, 1, "the client's handler of the reverse call")
  assert.strictEqual(answered[0]!.traceId, host.traceId)
  if (era === "2025") {
    const reverse = named(server, "sampling/createMessage", CLIENT_KIND)
    assert.strictEqual(reverse.length, 1)
    assert.strictEqual(reverse[0]!.parentSpanId, handled[0]!.spanId)
    assert.strictEqual(answered[0]!.parentSpanId, reverse[0]!.spanId)
  } else {
    // the server's round that asked (its trace context in the InputRequiredResult's `_meta`)
    const asked = handled.find((s) => s.parentSpanId === rounds[0]!.spanId)
    assert.isDefined(asked)
    assert.strictEqual(answered[0]!.parentSpanId, asked!.spanId)
  }
  for (const span of [...rounds, ...handled]) {
    assert.strictEqual(span.attributes["mcp.method.name"], "tools/call")
    assert.strictEqual(span.attributes["gen_ai.tool.name"], "ask")
    assert.strictEqual(span.attributes["gen_ai.operation.name"], "execute_tool")
    assert.strictEqual(span.attributes["mcp.protocol.version"], era === "2025" ? "2025-11-25" : "2026-07-28")
    assert.strictEqual(typeof span.attributes["jsonrpc.request.id"], "string")
    assert.isUndefined(span.attributes["gen_ai.tool.call.arguments"])
  }
}

const eras = ["2025", "2026"] as const

describe("one trace between processes", () => {
  for (const era of eras) {
    it.live(`stdio, ${era}: client span → server span → reverse call → the client's handler`, () => {
      const file = spansFile()
      const pipeline = OtelPipeline.make("client")
      return Effect.gen(function*() {
        const client = yield* McpClient.McpClient
        yield* client.callTool("ask", { question: "?" }).pipe(Effect.withSpan("host"))
        const server = yield* serverSpans(file, "tools/call ask", era === "2025" ? 1 : 2)
        assertOneTrace(era, pipeline.spans(), server)
        for (const span of named(server, "tools/call ask", SERVER_KIND)) {
          assert.strictEqual(span.attributes["network.transport"], "pipe")
          // stdio has no session id of its own (not an internal counter), and no client address
          assert.isUndefined(span.attributes["mcp.session.id"])
          assert.isUndefined(span.attributes["client.address"])
        }
        for (const span of named(pipeline.spans(), "tools/call ask", CLIENT_KIND)) {
          assert.strictEqual(span.attributes["network.transport"], "pipe")
        }
      }).pipe(
        Effect.provide(
          McpClient.layer({ era: era === "2026" ? "2026-07-28" : "2025", name: "c", version: "1", sampling }).pipe(
            Layer.provide(NodeStdio.layerClient({
              command: process.execPath,
              args: [bundled("otel-server"), "stdio"],
              env: { ...process.env, OTEL_SPANS: file }
            }))
          )
        ),
        Effect.provide(pipeline.layer)
      )
    })

    it.live(`streamable HTTP, ${era}: client span → server span → reverse call → the client's handler`, () => {
      const file = spansFile()
      const pipeline = OtelPipeline.make("client")
      return Effect.gen(function*() {
        const { url } = yield* httpServer(file)
        yield* Effect.gen(function*() {
          const client = yield* McpClient.McpClient
          yield* client.callTool("ask", { question: "?" }).pipe(Effect.withSpan("host"))
          const server = yield* serverSpans(file, "tools/call ask", era === "2025" ? 1 : 2)
          assertOneTrace(era, pipeline.spans(), server)
          const sent = named(pipeline.spans(), "tools/call ask", CLIENT_KIND)[0]!
          assert.strictEqual(sent.attributes["network.transport"], "tcp")
          assert.strictEqual(sent.attributes["server.address"], "127.0.0.1")
          assert.strictEqual(sent.attributes["server.port"], Number(new URL(url).port))
          const handled = named(server, "tools/call ask", SERVER_KIND)[0]!
          assert.strictEqual(handled.attributes["network.transport"], "tcp")
          assert.strictEqual(handled.attributes["network.protocol.name"], "http")
          if (era === "2025") assert.isString(handled.attributes["mcp.session.id"])
          // the HTTP request's remote end: this process's side of the connection
          for (const span of named(server, "tools/call ask", SERVER_KIND)) {
            assert.include(["127.0.0.1", "::ffff:127.0.0.1"], span.attributes["client.address"])
            const port = span.attributes["client.port"]
            assert.isTrue(typeof port === "number" && port > 0 && port !== Number(new URL(url).port), `client.port ${String(port)}`)
          }
          // a client's span has none
          assert.isUndefined(sent.attributes["client.address"])
        }).pipe(
          Effect.provide(
            McpClient.layer({ era: era === "2026" ? "2026-07-28" : "2025", name: "c", version: "1", sampling }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
          )
        )
      }).pipe(Effect.scoped, Effect.provide(pipeline.layer))
    })
  }
})

describe("the official v1 client joins a trace by hand", () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
  const parent = "00f067aa0ba902b7"

  it.live("stdio: _meta.traceparent set by hand parents our server's span", () => {
    const file = spansFile()
    return Effect.gen(function*() {
      const client = new Client({ name: "official", version: "1" })
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bundled("otel-server"), "stdio"],
        env: { ...process.env, OTEL_SPANS: file } as Record<string, string>
      })
      yield* Effect.acquireRelease(Effect.promise(() => client.connect(transport)), () => Effect.promise(() => client.close()))
      yield* Effect.promise(() =>
        client.callTool({ name: "echo", arguments: { text: "x" }, _meta: { traceparent: `00-${traceId}-${parent}-01`, tracestate: "k=v" } })
      )
      const spans = yield* serverSpans(file, "tools/call echo", 1)
      const handled = named(spans, "tools/call echo", SERVER_KIND)[0]!
      assert.strictEqual(handled.traceId, traceId)
      assert.strictEqual(handled.parentSpanId, parent)
      // its initialize carried none: a root of its own
      const init = named(spans, "initialize", SERVER_KIND)[0]!
      assert.notStrictEqual(init.traceId, traceId)
      assert.isUndefined(init.parentSpanId)
    }).pipe(Effect.scoped)
  })

  it.live("HTTP: with no _meta trace context, the POST's traceparent header parents our server's span", () => {
    const file = spansFile()
    return Effect.gen(function*() {
      const { url } = yield* httpServer(file)
      const client = new Client({ name: "official", version: "1" })
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { traceparent: `00-${traceId}-${parent}-01` } }
      })
      yield* Effect.acquireRelease(Effect.promise(() => client.connect(transport)), () => Effect.promise(() => client.close()))
      yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "x" } }))
      const other = "11111111111111111111111111111111"
      yield* Effect.promise(() =>
        client.callTool({ name: "echo", arguments: { text: "y" }, _meta: { traceparent: `00-${other}-2222222222222222-01` } })
      )
      const spans = yield* serverSpans(file, "tools/call echo", 2)
      const handled = named(spans, "tools/call echo", SERVER_KIND)
      assert.strictEqual(handled[0]!.traceId, traceId)
      assert.strictEqual(handled[0]!.parentSpanId, parent)
      // `_meta` wins over the header
      assert.strictEqual(handled[1]!.traceId, other)
    }).pipe(Effect.scoped)
  })
})
