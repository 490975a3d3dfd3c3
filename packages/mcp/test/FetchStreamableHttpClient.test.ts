/**
 * `FetchStreamableHttpClient`: the streamable HTTP transport with its exchanges sent by `fetch`
 * (Node's, over real sockets on 127.0.0.1), through a recording `fetch` given as the option:
 * sessions, SSE progress, resumption, DELETE on close, the legacy fallback and a collecting
 * tracer's exchanges (their client spans, as `effect/http`'s client makes them, over the same
 * `fetch`), an interrupted call's exchange aborted, a failing `fetch` named.
 */
import { assert, describe, it } from "@effect/vitest"
import type * as Http from "node:http"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Tracer from "effect/Tracer"
import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as Transport from "@effect-mcp/mcp/Transport"
import {
  accepted,
  type Handler,
  initializeResult,
  officialLegacyServer,
  officialServer,
  openSse,
  posted,
  sendJson,
  serve
} from "./utils/httpClientServers.js"

/** A `fetch` that records `METHOD path` of every exchange it sends. */
const recording = () => {
  const log: Array<string> = []
  const fetch = (input: URL, init: RequestInit) => {
    log.push(`${init.method ?? "GET"} ${input.pathname}`)
    return globalThis.fetch(input, init)
  }
  return { log, fetch }
}

const connect = (url: string, options?: Omit<FetchStreamableHttpClient.FetchStreamableHttpClientOptions, "url">) =>
  Effect.gen(function*() {
    const wire = recording()
    const scope = yield* Scope.make()
    // closes before the servers of the test, which were acquired earlier
    yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
    const context = yield* Layer.buildWithScope(
      McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(
        Layer.provideMerge(FetchStreamableHttpClient.layer({ url, fetch: wire.fetch, ...options }))
      ),
      scope
    )
    return {
      wire,
      client: Context.get(context, McpClient.McpClient),
      transport: Context.get(context, Transport.Transport),
      close: Scope.close(scope, Exit.void)
    }
  })

describe("FetchStreamableHttpClient", () => {
  for (const mode of ["stateful", "stateless", "json"] as const) {
    it.live(`against the official server (${mode}): initializes, lists, calls with progress, DELETEs on close, all through the fetch given`, () =>
      Effect.gen(function*() {
        const server = yield* officialServer(mode)
        const { client, close, transport, wire } = yield* connect(server.url)
        assert.strictEqual(client.serverInfo.name, "official")
        assert.deepStrictEqual((yield* client.listToolsAll()).map((t) => t.name).sort(), ["count", "echo", "poll"])
        const progress: Array<number> = []
        const counted = yield* client.callTool("count", { n: 3 }, {
          onProgress: (p) => Effect.sync(() => void progress.push(p.progress))
        })
        assert.deepStrictEqual(counted.content, [{ type: "text", text: "counted to 3" }])
        // JSON answers carry no notifications
        assert.deepStrictEqual(progress, mode === "json" ? [] : [1, 2, 3])
        const sessionId = transport.info?.sessionId
        const afterInit = posted(server).slice(1)
        for (const p of afterInit) {
          assert.strictEqual(p.headers["mcp-protocol-version"], "2025-11-25")
          assert.strictEqual(p.headers["mcp-session-id"], sessionId)
        }
        if (mode === "stateless") assert.isUndefined(sessionId)
        else assert.isTrue(server.seen.some((s) => s.method === "GET" && s.headers["mcp-session-id"] === sessionId))
        yield* close
        const deletes = server.seen.filter((s) => s.method === "DELETE")
        assert.strictEqual(deletes.length, mode === "stateless" ? 0 : 1)
        if (mode !== "stateless") assert.strictEqual(deletes[0]!.headers["mcp-session-id"], sessionId)
        // every exchange the server saw went through the fetch given
        assert.deepStrictEqual(wire.log, server.seen.map((s) => `${s.method} ${s.url.split("?")[0]}`))
      }))
  }

  it.live("resumes a stream the server closes mid-call (GET + Last-Event-ID)", () =>
    Effect.gen(function*() {
      const server = yield* officialServer("stateful", { resumable: true })
      const { client } = yield* connect(server.url)
      const progress: Array<number> = []
      const polled = yield* client.callTool("poll", {}, {
        onProgress: (p) => Effect.sync(() => void progress.push(p.progress))
      })
      assert.deepStrictEqual(polled.content, [{ type: "text", text: "polled" }])
      assert.deepStrictEqual(progress, [1, 2])
      assert.strictEqual(server.seen.filter((s) => s.method === "GET" && s.headers["last-event-id"] !== undefined).length, 1)
    }))

  it.live("falls back to the legacy HTTP+SSE transport on a 405, its exchanges through the same fetch", () =>
    Effect.gen(function*() {
      const server = yield* officialLegacyServer()
      const { client, wire } = yield* connect(server.url)
      const echo = yield* client.callTool("echo", { text: "old" })
      assert.deepStrictEqual(echo.content, [{ type: "text", text: "echo: old" }])
      assert.deepStrictEqual(wire.log.slice(0, 2), ["POST /mcp", "GET /mcp"])
      assert.isTrue(wire.log.includes("POST /messages"))
    }))

  it.live("an interrupted call aborts its exchange (the server sees the connection closed) and is cancelled", () =>
    Effect.gen(function*() {
      let aborted = false
      const handler: Handler = (req: Http.IncomingMessage, res: Http.ServerResponse, body) => {
        if (req.method === "GET") return void res.writeHead(405).end()
        if (req.method === "DELETE") return void res.writeHead(200).end()
        const m = body as { id?: number; method?: string }
        if (m.method === "initialize") {
          return void sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s1" })
        }
        if (m.id === undefined) return void accepted(res)
        // a call answered never: its stream stays open until the client drops it
        openSse(res)
        res.on("close", () => {
          aborted = true
        })
      }
      const server = yield* serve(handler)
      const { client } = yield* connect(server.url)
      const call = yield* Effect.forkChild(client.callTool("echo", { text: "never" }))
      while (!posted(server).some((p) => p.message.method === "tools/call")) yield* Effect.sleep("5 millis")
      yield* Fiber.interrupt(call)
      const start = Date.now()
      while (!aborted && Date.now() - start < 5000) yield* Effect.sleep("10 millis")
      assert.isTrue(aborted)
      while (!posted(server).some((p) => p.message.method === "notifications/cancelled") && Date.now() - start < 5000) {
        yield* Effect.sleep("10 millis")
      }
      assert.isTrue(posted(server).some((p) => p.message.method === "notifications/cancelled"))
    }))

  it.live("under a collecting tracer, a call's exchange has its client span (the call's child) and sends its traceparent, through the same fetch", () =>
    Effect.gen(function*() {
      const handler: Handler = (req, res, body) => {
        if (req.method === "GET") return void res.writeHead(405).end()
        if (req.method === "DELETE") return void res.writeHead(200).end()
        const m = body as { id?: number; method?: string }
        if (m.method === "initialize") {
          return void sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s1" })
        }
        if (m.id === undefined) return void accepted(res)
        sendJson(res, { jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "traced" }] } })
      }
      const server = yield* serve(handler)
      const { client, wire } = yield* connect(server.url)
      const base = yield* Effect.tracer
      const spans: Array<Tracer.Span> = []
      const tracer = Tracer.make({
        span: (...args) => {
          const span = base.span(...args)
          spans.push(span)
          return span
        },
        context: base.context
      })
      const before = wire.log.length
      yield* client.callTool("traced", {}).pipe(Effect.withTracer(tracer))
      const call = spans.find((span) => span.name === "tools/call traced")
      const exchange = spans.find((span) => span.name === "POST" && span.kind === "client")
      assert.isDefined(call)
      assert.isDefined(exchange)
      assert.strictEqual(Option.getOrUndefined(exchange!.parent)?.spanId, call!.spanId)
      const traced = posted(server).find((p) => p.message.method === "tools/call")!
      assert.include(traced.headers["traceparent"] ?? "", call!.traceId)
      // still through the fetch given
      assert.deepStrictEqual(wire.log.slice(before), ["POST /mcp"])
    }))

  it.live("a fetch that fails: the call fails with a TransportError naming the cause and the URL", () =>
    Effect.gen(function*() {
      const url = "http://127.0.0.1:9/mcp"
      const error = yield* Effect.flip(Layer.build(
        McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(
          Layer.provide(FetchStreamableHttpClient.layer({
            url,
            fetch: () => Promise.reject(new TypeError("Failed to fetch"))
          }))
        )
      ))
      assert.instanceOf(error, ProtocolError)
      const cause = (error as ProtocolError).cause
      assert.instanceOf(cause, TransportError)
      assert.include((cause as TransportError).message, "Failed to fetch")
      assert.include((cause as TransportError).message, url)
    }))
})
