import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClient from "effect/http/HttpClient"
import { assert, describe, it } from "@effect/vitest"
import type * as Http from "node:http"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Tracer from "effect/Tracer"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import type { McpError, ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as Transport from "@effect-mcp/mcp/Transport"
import {
  accepted,
  officialLegacyServer,
  officialServer,
  openSse,
  posted,
  postedMethods,
  sendJson,
  serve,
  sseEvent,
  type Handler,
  initializeResult
} from "./utils/httpClientServers.js"
import { testHttp } from "./utils/testHttp.js"

type Message = {
  readonly jsonrpc: "2.0"
  readonly id?: string | number
  readonly method?: string
  // `any`: tests read deep into params the wire shape does not type
  readonly params?: Record<string, any>
}

const connect = (
  url: string,
  options?: Omit<StreamableHttpClient.StreamableHttpClientOptions, "url">,
  clientOptions?: Partial<McpClient.ClientOptions>,
  http: Layer.Layer<HttpClient.HttpClient> = testHttp.layer
) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    // closes before the servers of the test, which were acquired earlier
    yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
    const context = yield* Layer.buildWithScope(
      McpClient.layer({ era: "2025", name: "test", version: "1.0.0", ...clientOptions }).pipe(
        Layer.provideMerge(StreamableHttpClient.layer({ url, ...options })),
        Layer.provide(http)
      ),
      scope
    )
    return {
      client: Context.get(context, McpClient.McpClient),
      transport: Context.get(context, Transport.Transport),
      close: Scope.close(scope, Exit.void)
    }
  })

const failureOf = <A>(exit: Exit.Exit<A, McpError | ProtocolError>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

/** Polls until `f` holds (real time), at most `ms`. */
const eventually = (f: () => boolean, ms = 2000) =>
  Effect.gen(function*() {
    const start = Date.now()
    while (!f()) {
      if (Date.now() - start > ms) return yield* Effect.die(new Error("condition not met in time"))
      yield* Effect.sleep("10 millis")
    }
  })

/** A hand-written server: initialize (with a session id), notifications (202), GET 405, DELETE 200; the rest to `onRequest`. */
const scripted = (
  onRequest: (message: Message, req: Http.IncomingMessage, res: Http.ServerResponse) => void,
  onGet: (req: Http.IncomingMessage, res: Http.ServerResponse) => void = (_, res) => {
    res.writeHead(405).end()
  }
) => {
  const handler: Handler = (req, res, body) => {
    if (req.method === "GET") return onGet(req, res)
    if (req.method === "DELETE") return void res.writeHead(200).end()
    const m = body as Message
    if (m.method === "initialize") {
      return void sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s1" })
    }
    if (m.id === undefined || m.method === undefined) return void accepted(res)
    onRequest(m, req, res)
  }
  return serve(handler)
}

const toolResult = (id: unknown, text: string) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }] }
})

describe("StreamableHttpClient", () => {
  describe("against the official SDK server", () => {
    for (const mode of ["stateful", "stateless", "json"] as const) {
      it.live(`initializes, lists, calls, reports progress (${mode})`, () =>
        Effect.gen(function*() {
          const server = yield* officialServer(mode)
          const { client, close, transport } = yield* connect(server.url)
          assert.strictEqual(client.serverInfo.name, "official")
          assert.strictEqual(client.protocolVersion, "2025-11-25")
          const tools = yield* client.listToolsAll()
          assert.deepStrictEqual(tools.map((t) => t.name).sort(), ["count", "echo", "poll"])
          const echo = yield* client.callTool("echo", { text: "hi" })
          assert.deepStrictEqual(echo.content, [{ type: "text", text: "echo: hi" }])
          const progress: Array<number> = []
          const counted = yield* client.callTool("count", { n: 3 }, {
            onProgress: (p) => Effect.sync(() => void progress.push(p.progress))
          })
          assert.deepStrictEqual(counted.content, [{ type: "text", text: "counted to 3" }])
          // JSON responses cannot carry notifications
          if (mode !== "json") assert.deepStrictEqual(progress, [1, 2, 3])

          const afterInit = posted(server).slice(1)
          assert.isTrue(afterInit.length >= 4)
          for (const p of afterInit) assert.strictEqual(p.headers["mcp-protocol-version"], "2025-11-25")
          assert.isUndefined(posted(server)[0]!.headers["mcp-session-id"])
          const sessionId = transport.info?.sessionId
          if (mode === "stateless") {
            assert.isUndefined(sessionId)
          } else {
            assert.isString(sessionId)
            for (const p of afterInit) assert.strictEqual(p.headers["mcp-session-id"], sessionId)
            // the standing GET stream was opened
            assert.isTrue(server.seen.some((s) => s.method === "GET" && s.headers["mcp-session-id"] === sessionId))
          }

          yield* close
          const deletes = server.seen.filter((s) => s.method === "DELETE")
          if (mode === "stateless") {
            assert.strictEqual(deletes.length, 0)
          } else {
            assert.strictEqual(deletes.length, 1)
            assert.strictEqual(deletes[0]!.headers["mcp-session-id"], sessionId)
          }
        }))
    }

    it.live("resumes a stream the server closes mid-call (event store, retry:, priming event)", () =>
      Effect.gen(function*() {
        const server = yield* officialServer("stateful", { resumable: true })
        const { client } = yield* connect(server.url)
        const progress: Array<number> = []
        const polled = yield* client.callTool("poll", {}, {
          onProgress: (p) => Effect.sync(() => void progress.push(p.progress))
        })
        assert.deepStrictEqual(polled.content, [{ type: "text", text: "polled" }])
        assert.deepStrictEqual(progress, [1, 2])
        const resumes = server.seen.filter((s) => s.method === "GET" && s.headers["last-event-id"] !== undefined)
        assert.strictEqual(resumes.length, 1)
        assert.strictEqual(postedMethods(server).filter((m) => m === "tools/call").length, 1)
      }))

    it.live("works over FetchHttpClient too", () =>
      Effect.gen(function*() {
        const server = yield* officialServer("stateful")
        const { client } = yield* connect(server.url, {}, {}, FetchHttpClient.layer)
        const progress: Array<number> = []
        const counted = yield* client.callTool("count", { n: 2 }, {
          onProgress: (p) => Effect.sync(() => void progress.push(p.progress))
        })
        assert.deepStrictEqual(counted.content, [{ type: "text", text: "counted to 2" }])
        assert.deepStrictEqual(progress, [1, 2])
      }))

    it.live("falls back to the legacy HTTP+SSE transport on a 405 to initialize", () =>
      Effect.gen(function*() {
        const server = yield* officialLegacyServer()
        const { client, transport } = yield* connect(server.url)
        const echo = yield* client.callTool("echo", { text: "old" })
        assert.deepStrictEqual(echo.content, [{ type: "text", text: "echo: old" }])
        assert.isUndefined(transport.info?.sessionId)
        assert.deepStrictEqual(
          server.seen.slice(0, 2).map((s) => `${s.method} ${s.url.split("?")[0]}`),
          ["POST /mcp", "GET /mcp"]
        )
        assert.isTrue(server.seen.some((s) => s.method === "POST" && s.url.startsWith("/messages?sessionId=")))
      }))
  })

  it.live("resumes a dropped POST stream with GET + Last-Event-ID, honouring retry:", () =>
    Effect.gen(function*() {
      let dropAt = 0
      let callId: unknown
      let token: unknown
      const progressOf = (n: number) => ({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: n, total: 2 }
      })
      const server = yield* scripted(
        (m, _req, res) => {
          callId = m.id
          token = m.params?._meta?.progressToken
          openSse(res)
          sseEvent(res, { id: "e1", retry: 200, data: "" })
          sseEvent(res, { id: "e2", data: progressOf(1) })
          setTimeout(() => {
            dropAt = Date.now()
            res.destroy()
          }, 20)
        },
        (req, res) => {
          if (req.headers["last-event-id"] === undefined) return void res.writeHead(405).end()
          openSse(res)
          sseEvent(res, { id: "e3", data: progressOf(2) })
          sseEvent(res, { id: "e4", data: toolResult(callId, "resumed") })
          res.end()
        }
      )
      const { client } = yield* connect(server.url, { reconnect: { initialDelay: "10 millis", jitter: 0 } })
      const progress: Array<number> = []
      const result = yield* client.callTool("slow", {}, {
        onProgress: (p) => Effect.sync(() => void progress.push(p.progress))
      })
      assert.deepStrictEqual(result.content, [{ type: "text", text: "resumed" }])
      assert.deepStrictEqual(progress, [1, 2])
      const resumes = server.seen.filter((s) => s.method === "GET" && s.headers["last-event-id"] !== undefined)
      assert.strictEqual(resumes.length, 1)
      assert.strictEqual(resumes[0]!.headers["last-event-id"], "e2")
      assert.strictEqual(resumes[0]!.headers["mcp-session-id"], "s1")
      // the server's retry: (200 ms) wins over the 10 ms backoff
      assert.isAtLeast(resumes[0]!.at - dropAt, 180)
      assert.strictEqual(postedMethods(server).filter((m) => m === "tools/call").length, 1)
    }))

  describe("session loss", () => {
    const restartable = (options?: { readonly get?: boolean }) => {
      const streams: Array<Http.ServerResponse> = []
      const state = {
        valid: new Set<string>(),
        sessions: 0,
        rejectCalls: false,
        /** The protocol version of a new session (by its number). */
        version: (_session: number) => "2025-11-25",
        /** How long the answer to a re-initialization (not the first initialize) waits. */
        reinitializeDelayMs: 0,
        restart: () => {
          state.valid.clear()
          for (const res of streams.splice(0)) res.destroy()
        }
      }
      const handler: Handler = (req, res, body) => {
        const sid = req.headers["mcp-session-id"]
        if (req.method === "GET") {
          if (options?.get !== true) return void res.writeHead(405).end()
          if (typeof sid !== "string" || !state.valid.has(sid)) return void res.writeHead(404).end()
          openSse(res)
          sseEvent(res, { id: `${sid}-g`, data: "" })
          streams.push(res)
          return
        }
        const m = body as Message
        if (m?.method === "initialize") {
          const n = ++state.sessions
          const id = `s${n}`
          const answer = () => {
            state.valid.add(id)
            sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult(state.version(n)) }, { "mcp-session-id": id })
          }
          if (n > 1 && state.reinitializeDelayMs > 0) return void setTimeout(answer, state.reinitializeDelayMs)
          return void answer()
        }
        const notFound = () =>
          res.writeHead(404, { "content-type": "application/json" }).end(
            JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null })
          )
        if (typeof sid !== "string" || !state.valid.has(sid)) return void notFound()
        if (req.method === "DELETE") return void res.writeHead(200).end()
        if (m.id === undefined) return void accepted(res)
        if (state.rejectCalls) return void notFound()
        sendJson(res, toolResult(m.id, `called in ${sid}`))
      }
      return Effect.map(serve(handler), (server) => ({ server, state }))
    }

    it.live("re-initializes once when the server forgot the session, then retries", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable()
        const { client, transport, close } = yield* connect(server.url)
        const first = yield* client.callTool("t", {})
        assert.deepStrictEqual(first.content, [{ type: "text", text: "called in s1" }])
        state.valid.clear() // the server restarts
        const second = yield* client.callTool("t", {})
        assert.deepStrictEqual(second.content, [{ type: "text", text: "called in s2" }])
        assert.strictEqual(transport.info?.sessionId, "s2")
        const inits = posted(server).filter((p) => p.message.method === "initialize")
        assert.strictEqual(inits.length, 2)
        assert.isUndefined(inits[1]!.headers["mcp-session-id"])
        assert.deepStrictEqual(inits[1]!.message.params, inits[0]!.message.params)
        // the engine's own request ids, not ids the transport made up
        assert.isNumber(inits[1]!.message.id)
        assert.isNumber(inits[0]!.message.id)
        assert.notStrictEqual(inits[1]!.message.id, inits[0]!.message.id)
        assert.strictEqual(postedMethods(server).filter((m) => m === "notifications/initialized").length, 2)
        const calls = posted(server).filter((p) => p.message.method === "tools/call")
        assert.deepStrictEqual(calls.map((c) => c.headers["mcp-session-id"]), ["s1", "s1", "s2"])
        // the retried call carries the negotiated version the engine told the transport
        assert.strictEqual(calls[2]!.headers["mcp-protocol-version"], "2025-11-25")
        yield* close
        const deletes = server.seen.filter((s) => s.method === "DELETE")
        assert.deepStrictEqual(deletes.map((d) => d.headers["mcp-session-id"]), ["s2"])
      }))

    it.live("concurrent calls that find the session gone re-initialize once, then all succeed", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable()
        const { client } = yield* connect(server.url)
        yield* client.callTool("t", {})
        state.valid.clear()
        // the new session's initialize answer is slow: every call sees the loss before it is in place
        state.reinitializeDelayMs = 150
        const results = yield* Effect.all(
          [client.callTool("t", {}), client.callTool("t", {}), client.callTool("t", {}), client.ping],
          { concurrency: "unbounded" }
        )
        for (const result of results.slice(0, 3)) {
          assert.deepStrictEqual((result as { content: unknown }).content, [{ type: "text", text: "called in s2" }])
        }
        assert.strictEqual(postedMethods(server).filter((m) => m === "initialize").length, 2)
        assert.strictEqual(postedMethods(server).filter((m) => m === "notifications/initialized").length, 2)
        // a call is sent again only once the new session exists; none reached the server twice in s2
        const calls = posted(server).filter((p) => p.message.method === "tools/call" && p.headers["mcp-session-id"] === "s2")
        assert.strictEqual(calls.length, 3)
      }))

    it.live("a notification the server refused for a forgotten session is sent again after re-initialization", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable()
        const { client, transport } = yield* connect(server.url)
        state.valid.clear()
        yield* client.notify("notifications/custom", { n: 1 })
        assert.strictEqual(transport.info?.sessionId, "s2")
        const sent = posted(server).filter((p) => p.message.method === "notifications/custom")
        assert.deepStrictEqual(sent.map((p) => p.headers["mcp-session-id"]), ["s1", "s2"])
        assert.strictEqual(postedMethods(server).filter((m) => m === "initialize").length, 2)
      }))

    it.live("a server that changes protocol version on re-initialization fails the call clearly and closes", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable()
        const { client } = yield* connect(server.url)
        yield* client.callTool("t", {})
        state.version = (n) => n === 1 ? "2025-11-25" : "2025-06-18"
        state.valid.clear()
        const error = failureOf(yield* Effect.exit(client.callTool("t", {})))
        assert.strictEqual(error?._tag, "ProtocolError")
        assert.strictEqual((error as ProtocolError).reason, "NotInitialized")
        assert.include(error?.message, "re-initialization failed: the server now speaks protocol version 2025-06-18, not 2025-11-25")
        // no initialized notification for a session this client cannot speak to
        assert.strictEqual(postedMethods(server).filter((m) => m === "notifications/initialized").length, 1)
        yield* client.closed
        const after = failureOf(yield* Effect.exit(client.callTool("t", {})))
        assert.strictEqual((after as ProtocolError | undefined)?.reason, "ConnectionClosed")
      }))

    it.live("re-initializes when the standing GET finds the session gone", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable({ get: true })
        const { client, transport } = yield* connect(server.url, { reconnect: { initialDelay: "10 millis", jitter: 0 } })
        const gets = () => server.seen.filter((s) => s.method === "GET")
        yield* eventually(() => gets().some((s) => s.headers["mcp-session-id"] === "s1"))
        state.restart()
        yield* eventually(() => gets().some((s) => s.headers["mcp-session-id"] === "s2"))
        assert.strictEqual(transport.info?.sessionId, "s2")
        // the engine re-initialized on the transport's signal, with its own ids
        const inits = posted(server).filter((p) => p.message.method === "initialize")
        assert.strictEqual(inits.length, 2)
        assert.isNumber(inits[1]!.message.id)
        assert.isUndefined(inits[1]!.headers["mcp-session-id"])
        assert.strictEqual(postedMethods(server).filter((m) => m === "notifications/initialized").length, 2)
        // the resumption after the drop carried the old cursor; the new session starts afresh
        const s2 = gets().filter((s) => s.headers["mcp-session-id"] === "s2")
        assert.isUndefined(s2[0]!.headers["last-event-id"])
        assert.isTrue(gets().some((s) => s.headers["mcp-session-id"] === "s1" && s.headers["last-event-id"] === "s1-g"))
        const result = yield* client.callTool("t", {})
        assert.deepStrictEqual(result.content, [{ type: "text", text: "called in s2" }])
        const calls = posted(server).filter((p) => p.message.method === "tools/call")
        assert.deepStrictEqual(calls.map((c) => c.headers["mcp-session-id"]), ["s2"])
      }))

    it.live("a second 404 after re-initialization fails the call", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable()
        const { client } = yield* connect(server.url)
        state.rejectCalls = true
        const exit = yield* Effect.exit(client.callTool("t", {}))
        const error = failureOf(exit)
        // the session is lost: a transport failure, not an answer of the peer
        assert.strictEqual(error?._tag, "ProtocolError")
        assert.strictEqual((error as ProtocolError).reason, "Transport")
        const cause = (error as ProtocolError).cause as TransportError
        assert.strictEqual(cause._tag, "TransportError")
        assert.strictEqual(cause.status, 404)
        assert.include(error?.message, "Session not found (HTTP 404), even after re-initialization")
        assert.strictEqual(postedMethods(server).filter((m) => m === "initialize").length, 2)
        assert.strictEqual(postedMethods(server).filter((m) => m === "tools/call").length, 2)
        // the client is still usable: the server forgot s2 as well, so the next call starts s3
        state.rejectCalls = false
        const ok = yield* client.callTool("t", {})
        assert.deepStrictEqual(ok.content, [{ type: "text", text: "called in s3" }])
      }))

    it.live("with reinitializeOnSessionLoss: false, a 404 closes the connection and no DELETE is sent", () =>
      Effect.gen(function*() {
        const { server, state } = yield* restartable()
        const { client, close } = yield* connect(server.url, { reinitializeOnSessionLoss: false })
        state.valid.clear()
        const error = failureOf(yield* Effect.exit(client.callTool("t", {})))
        assert.strictEqual(error?._tag, "ProtocolError")
        assert.strictEqual((error as ProtocolError).reason, "ConnectionClosed")
        assert.include(error?.message, "HTTP 404")
        yield* client.closed
        yield* close
        assert.strictEqual(postedMethods(server).filter((m) => m === "initialize").length, 1)
        assert.strictEqual(server.seen.filter((s) => s.method === "DELETE").length, 0)
      }))
  })

  it.live("close: the DELETE is bounded in time", () =>
    Effect.gen(function*() {
      const server = yield* serve((req, res, body) => {
        if (req.method === "DELETE") return // never answers
        if (req.method === "GET") return void res.writeHead(405).end()
        const m = body as Message
        if (m.method === "initialize") {
          return void sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s9" })
        }
        accepted(res)
      })
      const { close } = yield* connect(server.url, { deleteOnClose: "100 millis" })
      const started = Date.now()
      yield* close
      assert.isBelow(Date.now() - started, 1000)
      const deletes = server.seen.filter((s) => s.method === "DELETE")
      assert.deepStrictEqual(deletes.map((d) => d.headers["mcp-session-id"]), ["s9"])
    }))

  it.live("close by an interruption (Ctrl-C, SIGTERM) still sends the call's notifications/cancelled, then the DELETE", () =>
    Effect.gen(function*() {
      const server = yield* serve((req, res, body) => {
        if (req.method === "DELETE") return void res.writeHead(200).end()
        if (req.method === "GET") return void res.writeHead(405).end()
        const m = body as Message
        if (m.method === "initialize") {
          return void sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s8" })
        }
        if (m.method === "tools/call") return // never answers
        accepted(res)
      })
      const session = yield* Effect.forkChild(
        Effect.gen(function*() {
          const context = yield* Layer.build(
            McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(
              Layer.provideMerge(StreamableHttpClient.layer({ url: server.url })),
              Layer.provide(testHttp.layer)
            )
          )
          return yield* Context.get(context, McpClient.McpClient).callTool("hang", {})
        }).pipe(Effect.scoped)
      )
      while (!postedMethods(server).includes("tools/call")) yield* Effect.sleep("10 millis")
      // the whole fiber interrupted: its scope closes in an interrupted fiber (the DELETE was skipped)
      yield* Fiber.interrupt(session)
      const ends = server.seen.filter((s) => s.method === "DELETE" || (s.body as Message | undefined)?.method === "notifications/cancelled")
      assert.deepStrictEqual(ends.map((s) => s.method), ["POST", "DELETE"])
      assert.strictEqual(ends[1]!.headers["mcp-session-id"], "s8")
    }))

  describe("failures reach the caller", () => {
    it.live("a server that never answers: the request timeout fires, the exchange is aborted", () =>
      Effect.gen(function*() {
        let aborted = false
        const server = yield* scripted((_m, _req, res) => {
          res.on("close", () => {
            aborted = true
          })
        })
        const { client } = yield* connect(server.url, {}, { requestTimeout: "300 millis" })
        const started = Date.now()
        const error = failureOf(yield* Effect.exit(client.callTool("hang", {})))
        assert.strictEqual(error?._tag, "ProtocolError")
        assert.strictEqual((error as ProtocolError).reason, "Timeout")
        assert.isBelow(Date.now() - started, 2000)
        yield* eventually(() => aborted && postedMethods(server).includes("notifications/cancelled"))
        const cancelled = posted(server).find((p) => p.message.method === "notifications/cancelled")!
        const call = posted(server).find((p) => p.message.method === "tools/call")!
        assert.strictEqual(cancelled.message.params?.requestId, call.message.id)
      }))

    /**
     * A `hang` call interrupted while its POST is open (`respond` answers it or not): the
     * exchange is aborted (the server sees its response closed) and `notifications/cancelled` names it.
     */
    const interruptedHang = (respond: (res: Http.ServerResponse) => void) =>
      Effect.gen(function*() {
        let aborted = false
        const server = yield* scripted((m, _req, res) => {
          if (m.params?.name !== "hang") return void sendJson(res, toolResult(m.id, "after"))
          respond(res)
          res.on("close", () => {
            aborted = true
          })
        })
        const { client } = yield* connect(server.url)
        const fiber = yield* Effect.forkChild(client.callTool("hang", {}))
        yield* eventually(() => postedMethods(server).includes("tools/call"))
        yield* Effect.sleep("50 millis")
        assert.isFalse(aborted)
        yield* Fiber.interrupt(fiber)
        yield* eventually(() => aborted && postedMethods(server).includes("notifications/cancelled"))
        const call = posted(server).find((p) => p.message.method === "tools/call")!
        const cancelled = posted(server).find((p) => p.message.method === "notifications/cancelled")!
        assert.strictEqual(cancelled.message.params?.requestId, call.message.id)
        // the client goes on: the next call is answered
        const next = yield* client.callTool("next", {})
        assert.deepStrictEqual(next.content, [{ type: "text", text: "after" }])
      })

    it.live("interrupting a call before its answer's headers aborts its POST and sends notifications/cancelled", () =>
      interruptedHang(() => {}))

    it.live("interrupting a call sends notifications/cancelled and releases its SSE stream", () =>
      interruptedHang((res) => {
        openSse(res)
        sseEvent(res, { id: "p1", data: "" })
      }))

    it.live("an SSE answer of known length is read whole: priming, retry, progress and the response", () =>
      Effect.gen(function*() {
        const server = yield* scripted((m, _req, res) => {
          const events = [
            "id: s1-1-0\nretry: 1500\ndata: \n\n",
            `id: s1-1-1\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: m.params?._meta?.progressToken, progress: 1, total: 2 } })}\n\n`,
            `id: s1-1-2\nevent: message\ndata: ${JSON.stringify(toolResult(m.id, "whole"))}\n\n`
          ].join("")
          res.writeHead(200, { "content-type": "text/event-stream", "content-length": String(Buffer.byteLength(events)) })
          res.end(events)
        })
        const { client } = yield* connect(server.url)
        const progress: Array<number> = []
        const result = yield* client.callTool("whole", {}, { onProgress: (p) => Effect.sync(() => progress.push(p.progress)) })
        assert.deepStrictEqual(result.content, [{ type: "text", text: "whole" }])
        assert.deepStrictEqual(progress, [1])
        // the connection is reused for the next call
        const again = yield* client.callTool("whole", {})
        assert.deepStrictEqual(again.content, [{ type: "text", text: "whole" }])
      }))

    it.live("under a collecting tracer, a call makes the engine's span with the HTTP exchange's inside it", () =>
      Effect.gen(function*() {
        const server = yield* scripted((m, _req, res) => void sendJson(res, toolResult(m.id, "traced")))
        const { client } = yield* connect(server.url)
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
        yield* client.callTool("traced", {}).pipe(Effect.withTracer(tracer))
        const call = spans.find((span) => span.name === "tools/call traced")
        // Effect 4's HttpClient names its span after the method (`SpanNameGenerator`: "POST"; Effect 3 said "http.client POST")
        const exchange = spans.find((span) => span.name === "POST" && span.kind === "client")
        assert.isDefined(call)
        assert.isDefined(exchange)
        assert.strictEqual(Option.getOrUndefined(exchange!.parent)?.spanId, call!.spanId)
        // the trace context went out with the POST
        const traced = posted(server).find((p) => p.message.method === "tools/call")!
        assert.include(traced.headers["traceparent"] ?? "", call!.traceId)
        // and in the request's `_meta` (SEP-414): the engine's span, which the server parents on
        const meta = (traced.message as { readonly params?: { readonly _meta?: { readonly traceparent?: string } } }).params?._meta
        assert.strictEqual(meta?.traceparent, `00-${call!.traceId}-${call!.spanId}-01`)
      }))

    it.live("a broken response fails its call at once", () =>
      Effect.gen(function*() {
        const server = yield* scripted((m, _req, res) => sendJson(res, { jsonrpc: "2.0", id: m.id, result: "nope" }))
        const { client } = yield* connect(server.url)
        const started = Date.now()
        const error = failureOf(yield* Effect.exit(client.callTool("t", {})))
        assert.strictEqual(error?._tag, "McpError")
        assert.strictEqual((error as McpError).code, -32600)
        assert.isBelow(Date.now() - started, 1000)
      }))

    it.live("a GET answered 404 or 400 before any stream opened means no standing stream, not a failure", () =>
      Effect.gen(function*() {
        const server = yield* scripted(
          (m, _req, res) => sendJson(res, toolResult(m.id, "fine")),
          (_req, res) => res.writeHead(404).end()
        )
        const { client } = yield* connect(server.url, { reconnect: { initialDelay: "10 millis", jitter: 0 } })
        yield* Effect.sleep("100 millis")
        const result = yield* client.callTool("t", {})
        assert.deepStrictEqual(result.content, [{ type: "text", text: "fine" }])
        assert.strictEqual(server.seen.filter((s) => s.method === "GET").length, 1)
        assert.strictEqual(postedMethods(server).filter((m) => m === "initialize").length, 1)
      }))

    it.live("a non-2xx answer without a JSON-RPC error fails that call with a TransportError naming the status", () =>
      Effect.gen(function*() {
        const server = yield* scripted((_m, _req, res) => {
          res.writeHead(500, { "content-type": "text/plain" }).end("boom")
        })
        const { client } = yield* connect(server.url)
        const error = failureOf(yield* Effect.exit(client.callTool("t", {})))
        assert.strictEqual(error?._tag, "ProtocolError")
        assert.strictEqual((error as ProtocolError).reason, "Transport")
        const cause = (error as ProtocolError).cause as TransportError
        assert.strictEqual(cause._tag, "TransportError")
        assert.strictEqual(cause.reason, "HttpStatus")
        assert.strictEqual(cause.status, 500)
        assert.strictEqual(error?.message, `POST ${server.url} answered HTTP 500: boom`)
      }))

    it.live("a non-2xx answer whose body is a JSON-RPC error is the peer's answer: McpError", () =>
      Effect.gen(function*() {
        const server = yield* scripted((m, _req, res) => {
          res.writeHead(400, { "content-type": "application/json" }).end(
            JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "bad arguments", data: { field: "x" } } })
          )
        })
        const { client } = yield* connect(server.url)
        const error = failureOf(yield* Effect.exit(client.callTool("t", {})))
        assert.strictEqual(error?._tag, "McpError")
        const e = error as McpError
        assert.strictEqual(e.code, -32602)
        assert.strictEqual(e.message, "bad arguments")
        assert.deepStrictEqual(e.data, { field: "x" })
      }))

    it.live("a GET stream that closes every time: bounded, spaced attempts, then pending calls fail", () =>
      Effect.gen(function*() {
        let gets = 0
        const server = yield* scripted(
          (_m, _req, res) => openSse(res), // a call that never gets its answer
          (_req, res) => {
            openSse(res)
            sseEvent(res, { id: `g${++gets}`, data: "" })
            res.end()
          }
        )
        const { client } = yield* connect(server.url, {
          reconnect: { initialDelay: "50 millis", factor: 2, maxDelay: "1 second", jitter: 0 },
          maxRetries: 3
        })
        const error = failureOf(yield* Effect.exit(client.callTool("hang", {}, { timeout: "10 seconds" })))
        assert.strictEqual(error?._tag, "ProtocolError")
        assert.strictEqual((error as ProtocolError).reason, "ConnectionClosed")
        assert.include(error?.message, "3 reconnection attempts")
        yield* Effect.sleep("300 millis")
        const seen = server.seen.filter((s) => s.method === "GET")
        assert.strictEqual(seen.length, 4)
        assert.isUndefined(seen[0]!.headers["last-event-id"])
        assert.deepStrictEqual(seen.slice(1).map((s) => s.headers["last-event-id"]), ["g1", "g2", "g3"])
        const gaps = seen.slice(1).map((s, i) => s.at - seen[i]!.at)
        assert.isAtLeast(gaps[0]!, 45)
        assert.isAtLeast(gaps[1]!, 95)
        assert.isAtLeast(gaps[2]!, 195)
        // a send after the failure fails at once
      }))
  })
})
