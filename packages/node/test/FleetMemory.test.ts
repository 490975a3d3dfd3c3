/**
 * The fleet seam (`SessionStore`) with its in-memory model: two instances of
 * one logical server in this process, each with its own `McpServer`, behind a
 * round-robin proxy (no stickiness). The Redis backend keeps the same
 * contract (packages/redis/test).
 */
import * as HttpServer from "effect/http/HttpServer"
import { assert, describe, it } from "@effect/vitest"
import * as HandlerContext from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Fiber from "effect/Fiber"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { headers, INIT, messagesOf, parseSse } from "./httpUtil.js"
import { roundRobin } from "./roundRobin.js"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.map(ServerSession, (s) => `${text} (${s.protocolVersion()}, ${s.clientInfo()?.name})`)
})
const Ask = McpServer.tool({
  name: "ask",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext.HandlerContext
      yield* ctx.progress(1, { total: 2 })
      yield* ctx.log("debug", "asking")
      yield* ctx.log("warning", "asking loudly")
      const answer = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
      return content?.type === "text" ? content.text : "?"
    })
})
/** Progress, a moment, then the answer: its POST is answered with a stream. */
const Talk = McpServer.tool({
  name: "talk",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext.HandlerContext
      yield* ctx.progress(1, { total: 1 })
      yield* Effect.sleep("5 millis")
      return "talked"
    })
})
const Note = McpServer.resource({ uri: "memo://note", name: "note", content: Effect.succeed("a note") })

const instance = (fleet: SessionStore.MemoryFleet, id: string, options: Partial<NodeStreamableHttp.Options> = {}) =>
  Effect.gen(function*() {
    const layer = NodeStreamableHttp.layer({
      port: 0,
      sessionStore: options.sessionStore ?? fleet.instance(id),
      eventStore: fleet.events,
      sseFastPath: "5 millis",
      ...options
    }).pipe(
      Layer.provideMerge(McpServer.register(Echo, Ask, Talk, Note)),
      Layer.provideMerge(McpServer.layer({ name: `instance-${id}`, version: "1.0.0" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    return "port" in server.address ? server.address.port : 0
  })

const client = (url: string) =>
  Layer.build(
    McpClient.layer({
      name: "fleet-test",
      version: "1.0.0",
      era: "2025",
      sampling: () => Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "sampled" } })
    }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
  ).pipe(Effect.orDie, Effect.map((context) => McpClient.McpClient.pipe(Effect.provide(context))))

describe("SessionStore: one logical server on two instances (in-memory fleet)", () => {
  it.live("a session served alternately by both instances: state, reverse calls, progress and logs cross over", () =>
    Effect.gen(function*() {
      const fleet = yield* SessionStore.makeMemoryFleet()
      const ports = [yield* instance(fleet, "a"), yield* instance(fleet, "b")]
      const proxy = yield* roundRobin(ports)
      const mcp = yield* yield* client(proxy.url)
      for (let i = 0; i < 4; i++) {
        const result = yield* mcp.callTool("echo", { text: `hi ${i}` })
        assert.deepStrictEqual(result.content, [{ type: "text", text: `hi ${i} (2025-11-25, fleet-test)` }])
      }
      yield* mcp.setLogLevel("info")
      const logs = yield* Effect.forkChild(mcp.notifications.pipe(
        Stream.filter((n) => n.method === "notifications/message"),
        Stream.take(1),
        Stream.runCollect
      ))
      const progress: Array<number> = []
      const asked = yield* mcp.callTool("ask", {}, { onProgress: (p) => Effect.sync(() => void progress.push(p.progress)) })
      assert.deepStrictEqual(asked.content, [{ type: "text", text: "sampled" }])
      assert.deepStrictEqual(progress, [1])
      const logged = yield* Fiber.join(logs)
      // the level set on one instance filtered the log on the other
      assert.deepStrictEqual(logged.map((n) => n.params), [{ level: "warning", data: "asking loudly" }])
      const targets = new Set(proxy.routed.filter((r) => r.method === "POST").map((r) => r.target))
      assert.deepStrictEqual(Array.from(targets).sort(), [0, 1])
    }))

  it.live("a resource update made on any instance reaches the standing GET wherever it is held", () =>
    Effect.gen(function*() {
      const fleet = yield* SessionStore.makeMemoryFleet()
      const ports = [yield* instance(fleet, "a"), yield* instance(fleet, "b")]
      const proxy = yield* roundRobin(ports)
      const mcp = yield* yield* client(proxy.url)
      const updates = yield* mcp.subscribe("memo://note")
      const got = yield* Effect.forkChild(Stream.runCollect(Stream.take(updates, 2)))
      yield* Effect.sleep("200 millis")
      yield* SessionStore.resourceUpdated(fleet.instance("a"), "memo://note")
      yield* SessionStore.resourceUpdated(fleet.instance("b"), "memo://note")
      const received = yield* Fiber.join(got)
      assert.deepStrictEqual(received, [{ uri: "memo://note" }, { uri: "memo://note" }])
    }))

  it.live("the maximum session count holds across the fleet; DELETE on one instance ends the session on all", () =>
    Effect.gen(function*() {
      const fleet = yield* SessionStore.makeMemoryFleet()
      const [a, b] = [yield* instance(fleet, "a", { maxSessions: 1 }), yield* instance(fleet, "b", { maxSessions: 1 })]
      const post = (port: number, body: unknown, sid?: string) =>
        Effect.promise(async () => {
          const extra: Record<string, string> = sid === undefined ? {} : { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
          const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: headers(extra), body: JSON.stringify(body) })
          return { status: response.status, sid: response.headers.get("mcp-session-id"), text: await response.text() }
        })
      const first = yield* post(a, INIT)
      assert.strictEqual(first.status, 200)
      const second = yield* post(b, INIT)
      assert.strictEqual(second.status, 503)
      assert.include(second.text, "too many sessions")
      const sid = first.sid!
      const ping = { jsonrpc: "2.0", id: 2, method: "ping" }
      assert.strictEqual((yield* post(b, ping, sid)).status, 200)
      const deleted = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${b}/mcp`, { method: "DELETE", headers: headers({ "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }) })
      )
      assert.strictEqual(deleted.status, 200)
      assert.strictEqual((yield* post(a, ping, sid)).status, 404)
      assert.strictEqual((yield* post(b, INIT)).status, 200)
    }))

  it.live("stores that answer later (as Redis does): a streamed 2026 POST's answer still reaches its stream", () =>
    Effect.gen(function*() {
      // the POST's own write (the streamed requests) outlasts the handler; the answer's event takes longer still
      const fleet = yield* SessionStore.makeMemoryFleet()
      const store = fleet.instance("a")
      const events = fleet.events
      const port = yield* instance(fleet, "a", {
        sessionStore: { ...store, saveStream: (...args) => Effect.andThen(Effect.sleep("20 millis"), store.saveStream(...args)) },
        eventStore: {
          ...events,
          append: (session, stream, data, answers) =>
            Effect.andThen(answers === undefined ? Effect.void : Effect.sleep("40 millis"), events.append(session, stream, data, answers))
        }
      })
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        progressToken: "t"
      }
      const text = yield* Effect.promise(async () => {
        const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: "POST",
          headers: headers({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "talk" }),
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "talk", arguments: {}, _meta: meta } })
        })
        return response.text()
      })
      // a 2026 POST cannot be resumed: its stream must carry the answer
      assert.deepStrictEqual(messagesOf(text).map((m) => m.method ?? m.result?.content?.[0]?.text), ["notifications/progress", "talked"])
    }))
  it.live("a replica closed for idleness and opened again numbers its streams anew: no event id is used twice", () =>
    Effect.gen(function*() {
      const fleet = yield* SessionStore.makeMemoryFleet()
      const a = yield* instance(fleet, "a")
      const b = yield* instance(fleet, "b", { sessionIdleTimeout: "200 millis" })
      const post = (port: number, body: unknown, sid?: string) =>
        Effect.promise(async () => {
          const extra: Record<string, string> = sid === undefined ? {} : { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
          const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: headers(extra), body: JSON.stringify(body) })
          return { sid: response.headers.get("mcp-session-id"), text: await response.text() }
        })
      const sid = (yield* post(a, INIT)).sid!
      yield* post(a, { jsonrpc: "2.0", method: "notifications/initialized" }, sid)
      const talk = (id: number) =>
        Effect.map(
          post(b, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "talk", arguments: {} } }, sid),
          (r) => parseSse(r.text).flatMap((e) => (e.id === undefined ? [] : [e.id]))
        )
      const first = yield* talk(2)
      // b's replica goes idle and is swept while the session lives on at a
      for (let i = 0; i < 6; i++) {
        yield* Effect.sleep("100 millis")
        yield* post(a, { jsonrpc: "2.0", id: 10 + i, method: "ping" }, sid)
      }
      const second = yield* talk(3)
      assert.isAbove(first.length, 0)
      assert.isAbove(second.length, 0)
      assert.deepStrictEqual(first.filter((id) => second.includes(id)), [])
    }))
})
