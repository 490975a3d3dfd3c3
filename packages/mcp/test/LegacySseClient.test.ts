import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { assert, describe, it } from "@effect/vitest"
import type * as Http from "node:http"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import type { McpError, ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import { type Handler, initializeResult, openSse, serve } from "./utils/httpClientServers.js"

type Message = {
  readonly jsonrpc: "2.0"
  readonly id?: string | number
  readonly method?: string
  // `any`: tests read deep into params the wire shape does not type
  readonly params?: Record<string, any>
}

const connect = (url: string, options?: Omit<LegacySseClient.LegacySseClientOptions, "url">) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    // closes before the servers of the test, which were acquired earlier
    yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
    const context = yield* Layer.buildWithScope(
      McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(
        Layer.provide(
          LegacySseClient.layer({ url, reconnect: { initialDelay: "20 millis", jitter: 0 }, maxRetries: 3, ...options })
        ),
        Layer.provide(NodeHttpClient.layerUndici)
      ),
      scope
    )
    return Context.get(context, McpClient.McpClient)
  })

/** The streamable HTTP client, which falls back to the legacy transport when its initialize POST gets 405. */
const connectStreamable = (url: string) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
    const context = yield* Layer.buildWithScope(
      McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(
        Layer.provide(StreamableHttpClient.layer({ url, reconnect: { initialDelay: "20 millis", jitter: 0 }, maxRetries: 3 })),
        Layer.provide(NodeHttpClient.layerUndici)
      ),
      scope
    )
    return Context.get(context, McpClient.McpClient)
  })

const failureOf = <A>(exit: Exit.Exit<A, McpError | ProtocolError>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

/** What a hand-written legacy server lets a test decide, per session (1, 2, …). */
interface Script {
  /** Answers a tools/call; `undefined` leaves it unanswered. */
  readonly onCall?: (session: Session, message: Message) => void
  /** Whether a new GET is served at all; otherwise the stream is closed right after its endpoint event. */
  readonly accept?: (session: number) => boolean
}

interface Session {
  readonly number: number
  readonly res: Http.ServerResponse
  /** Writes a message event. */
  readonly write: (message: unknown) => void
  /** Ends the stream and forgets the session (later POSTs get 404). */
  readonly drop: () => void
  /** Forgets the session but leaves its stream open. */
  readonly forget: () => void
}

/** A 2024-11-05 HTTP+SSE server: GET /sse, POST /messages?session=n (202, answers on the stream). */
const legacyServer = (script: Script) =>
  Effect.gen(function*() {
    const sessions = new Map<number, Session>()
    let count = 0
    const handler: Handler = (req, res, body) => {
      const url = new URL(req.url ?? "", "http://x")
      if (req.method === "GET" && url.pathname === "/sse") {
        const number = ++count
        openSse(res)
        res.write(`event: endpoint\ndata: /messages?session=${number}\n\n`)
        if (script.accept !== undefined && !script.accept(number)) return void res.end()
        const session: Session = {
          number,
          res,
          write: (message) => res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
          drop: () => {
            sessions.delete(number)
            res.end()
          },
          forget: () => void sessions.delete(number)
        }
        sessions.set(number, session)
        res.on("close", () => sessions.delete(number))
        return
      }
      if (req.method === "POST" && url.pathname === "/messages") {
        const session = sessions.get(Number(url.searchParams.get("session")))
        if (session === undefined) return void res.writeHead(404).end("Could not find session")
        res.writeHead(202).end("Accepted")
        const m = body as Message
        if (m.method === "initialize") {
          return session.write({ jsonrpc: "2.0", id: m.id, result: initializeResult("2024-11-05") })
        }
        if (m.method === "tools/call") return script.onCall?.(session, m)
        if (m.method === "tools/list") return session.write({ jsonrpc: "2.0", id: m.id, result: { tools: [] } })
        return
      }
      res.writeHead(405).end()
    }
    const server = yield* serve(handler, "/sse")
    return { ...server, sessions }
  })

const text = (id: unknown, value: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: value }] } })

const gets = (server: { readonly seen: ReadonlyArray<{ readonly method: string }> }) =>
  server.seen.filter((s) => s.method === "GET").length

const initializes = (server: { readonly seen: ReadonlyArray<{ readonly body: unknown }> }) =>
  server.seen.filter((s) => (s.body as Message | undefined)?.method === "initialize").map((s) => s.body as Message)

describe("LegacySseClient", () => {
  it.live("reconnects after the server closes the stream, re-initializes, and later calls succeed", () =>
    Effect.gen(function*() {
      const server = yield* legacyServer({
        onCall: (session, m) => {
          session.write(text(m.id, `${m.params?.name} on session ${session.number}`))
          if (session.number === 1) session.drop()
        }
      })
      const client = yield* connect(server.url)
      const first = yield* client.callTool("echo", {})
      assert.deepStrictEqual(first.content, [{ type: "text", text: "echo on session 1" }])
      const second = yield* client.callTool("again", {})
      assert.deepStrictEqual(second.content, [{ type: "text", text: "again on session 2" }])
      assert.strictEqual(gets(server), 2)
      const inits = initializes(server)
      assert.strictEqual(inits.length, 2)
      assert.notStrictEqual(inits[1]!.id, inits[0]!.id)
      // the engine's own request id: the engine re-initialized, not the transport
      assert.isNumber(inits[1]!.id)
      assert.deepStrictEqual(inits[1]!.params, inits[0]!.params)
      // the new session was initialized before the call went to it
      const onSession2 = server.seen
        .filter((s) => s.method === "POST" && s.url.endsWith("session=2"))
        .map((s) => (s.body as Message).method)
      assert.deepStrictEqual(onSession2, ["initialize", "notifications/initialized", "tools/call"])
    }))

  it.live("through the streamable client's fallback: a new legacy session is re-initialized by the engine", () =>
    Effect.gen(function*() {
      const server = yield* legacyServer({
        onCall: (session, m) => {
          session.write(text(m.id, `${m.params?.name} on session ${session.number}`))
          if (session.number === 1) session.drop()
        }
      })
      const client = yield* connectStreamable(server.url)
      const first = yield* client.callTool("echo", {})
      assert.deepStrictEqual(first.content, [{ type: "text", text: "echo on session 1" }])
      // the legacy transport's loss reaches the engine through the streamable transport's own signal
      const second = yield* client.callTool("again", {})
      assert.deepStrictEqual(second.content, [{ type: "text", text: "again on session 2" }])
      const onSession2 = server.seen
        .filter((s) => s.method === "POST" && s.url.endsWith("session=2"))
        .map((s) => (s.body as Message).method)
      assert.deepStrictEqual(onSession2, ["initialize", "notifications/initialized", "tools/call"])
    }))

  it.live("fails a call pending on a dropped stream at once with a TransportError, then recovers", () =>
    Effect.gen(function*() {
      const server = yield* legacyServer({
        onCall: (session, m) => {
          if (m.params?.name === "hang") return session.drop()
          session.write(text(m.id, `ok on session ${session.number}`))
        }
      })
      const client = yield* connect(server.url)
      const started = Date.now()
      const exit = yield* Effect.exit(client.callTool("hang", {}, { timeout: "20 seconds" }))
      const error = failureOf(exit)
      // not an answer of the peer: the transport lost the answer
      assert.strictEqual(error?._tag, "ProtocolError")
      assert.strictEqual((error as ProtocolError).reason, "Transport")
      assert.strictEqual(((error as ProtocolError).cause as TransportError)._tag, "TransportError")
      assert.match(error!.message, new RegExp(`connection to the server at ${server.url} was lost`))
      assert.isBelow(Date.now() - started, 2000)
      const later = yield* client.callTool("next", {})
      assert.deepStrictEqual(later.content, [{ type: "text", text: "ok on session 2" }])
    }))

  it.live("gives up after maxRetries when every new stream closes at once: pending calls fail with ConnectionClosed", () =>
    Effect.gen(function*() {
      const server = yield* legacyServer({
        accept: (n) => n === 1,
        onCall: (session) => session.drop()
      })
      const client = yield* connect(server.url, { maxRetries: 3 })
      const dropped = failureOf(yield* Effect.exit(client.callTool("drop", {})))
      assert.strictEqual((dropped as ProtocolError | undefined)?.reason, "Transport")
      // sent while the transport reconnects: waits, then fails with the transport
      const started = Date.now()
      const pending = failureOf(yield* Effect.exit(client.callTool("pending", {}, { timeout: "20 seconds" })))
      assert.strictEqual(pending?._tag, "ProtocolError")
      assert.strictEqual((pending as ProtocolError).reason, "ConnectionClosed")
      assert.match(pending!.message, /could not be reopened after 3 reconnection attempts/)
      assert.isBelow(Date.now() - started, 5000)
      assert.strictEqual(gets(server), 4)
      // the connection is over for good
      const after = failureOf(yield* Effect.exit(client.callTool("after", {})))
      assert.strictEqual((after as ProtocolError | undefined)?.reason, "ConnectionClosed")
    }))

  it.live("a POST answered 404 reconnects and sends the request to the new endpoint", () =>
    Effect.gen(function*() {
      const server = yield* legacyServer({
        onCall: (session, m) => session.write(text(m.id, `ok on session ${session.number}`))
      })
      const client = yield* connect(server.url)
      const first = yield* client.callTool("a", {})
      assert.deepStrictEqual(first.content, [{ type: "text", text: "ok on session 1" }])
      // the server forgets the session but leaves the stream open
      for (const session of server.sessions.values()) session.forget()
      const second = yield* client.callTool("b", {})
      assert.deepStrictEqual(second.content, [{ type: "text", text: "ok on session 2" }])
      const calls = server.seen
        .filter((s) => (s.body as Message | undefined)?.method === "tools/call")
        .map((s) => `${(s.body as Message).params?.name} ${s.url.split("?")[1]}`)
      assert.deepStrictEqual(calls, ["a session=1", "b session=1", "b session=2"])
      assert.strictEqual(initializes(server).length, 2)
    }))

  it.live("waits the server's retry: before reconnecting", () =>
    Effect.gen(function*() {
      const server = yield* legacyServer({
        onCall: (session, m) => {
          session.write(text(m.id, `ok on session ${session.number}`))
          if (session.number === 1) {
            session.res.write("retry: 300\n\n")
            session.drop()
          }
        }
      })
      const client = yield* connect(server.url, { reconnect: { initialDelay: "1 millis", jitter: 0 } })
      yield* client.callTool("a", {})
      const droppedAt = Date.now()
      yield* client.callTool("b", {})
      const gets2 = server.seen.filter((s) => s.method === "GET")
      assert.strictEqual(gets2.length, 2)
      assert.isAtLeast(gets2[1]!.at - droppedAt, 250)
    }))
})
