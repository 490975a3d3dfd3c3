import * as HttpServer from "effect/http/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, describe, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as http from "node:http"
import { chunkedRequest, headers, initialize, INIT, messagesOf, parseSse, rawRequest, startServer } from "./httpUtil.js"

const Echo = McpServer.tool({
  name: "echo",
  description: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const Steps = McpServer.tool({
  name: "steps",
  description: "progress then answer",
  parameters: Schema.Struct({ n: Schema.Number, ms: Schema.optional(Schema.Number) }),
  handler: ({ ms, n }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= n; i++) {
        yield* Effect.sleep(ms ?? 5)
        yield* ctx.progress(i, { total: n })
      }
      return `did ${n}`
    })
})
const Announce = McpServer.tool({
  name: "announce",
  description: "a session message, not related to this request",
  handler: () => Effect.flatMap(ServerSession, (session) => session.log("info", "announced")).pipe(Effect.as("ok"))
})
let floodSent = 0
const Flood = McpServer.tool({
  name: "flood",
  description: "1000 progress notifications of 32 KiB each",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= 1000; i++) {
        yield* ctx.progress(i, { message: "x".repeat(32 * 1024) })
        floodSent = i
      }
      return "flooded"
    })
})
const Features = McpServer.register(Echo, Steps, Announce, Flood)

/** Reads an SSE response for `ms`, then aborts it. */
const readFor = (url: string, init: RequestInit, ms: number) =>
  Effect.promise(async () => {
    const controller = new AbortController()
    const response = await fetch(url, { ...init, signal: controller.signal })
    const reader = response.body!.getReader()
    let text = ""
    const timer = setTimeout(() => controller.abort(), ms)
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        text += new TextDecoder().decode(value)
      }
    } catch {
      // aborted
    }
    clearTimeout(timer)
    return { status: response.status, text }
  })

const post = (url: string, body: unknown, extra: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", headers: headers(extra), body: typeof body === "string" ? body : JSON.stringify(body) })
    return { status: response.status, headers: response.headers, text: await response.text() }
  })

describe("StreamableHttpServer", () => {
  it.live("initialize issues a session id and answers requests on SSE", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features)
      const init = yield* post(url, INIT)
      assert.strictEqual(init.status, 200)
      const sid = init.headers.get("mcp-session-id")
      assert.match(sid ?? "", /^[0-9a-f]{32}$/)
      assert.strictEqual(messagesOf(init.text)[0].result.protocolVersion, "2025-11-25")
      const s = { "mcp-session-id": sid!, "mcp-protocol-version": "2025-11-25" }
      const note = yield* post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, s)
      assert.strictEqual(note.status, 202)
      assert.strictEqual(note.text, "")
      // an empty body framed by its length, not chunked: a client sees its end from the headers
      assert.strictEqual(note.headers.get("content-length"), "0")
      assert.strictEqual(note.headers.get("transfer-encoding"), null)
      const call = yield* post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "steps", arguments: { n: 3 }, _meta: { progressToken: "p" } } }, s)
      assert.strictEqual(call.headers.get("content-type"), "text/event-stream")
      const messages = messagesOf(call.text)
      assert.deepStrictEqual(messages.map((m) => m.method ?? "response"), [
        "notifications/progress",
        "notifications/progress",
        "notifications/progress",
        "response"
      ])
      assert.deepStrictEqual(messages[3].result.content, [{ type: "text", text: "did 3" }])
    }))

  it.live("answers each bad request with the right status and a JSON-RPC error", () =>
    Effect.gen(function*() {
      const { port, url } = yield* startServer(Features, { maxBodyBytes: 1024 })
      const sid = yield* initialize(url)
      const s = { "mcp-session-id": sid }
      const cases: Array<[string, Promise<Response>, number]> = [
        ["wrong accept", fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/html" }, body: JSON.stringify(INIT) }), 406],
        ["wrong content type", fetch(url, { method: "POST", headers: { ...headers(), "content-type": "text/plain" }, body: "x" }), 415],
        ["too large", fetch(url, { method: "POST", headers: headers(s), body: JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "x".repeat(2000) } }) }), 413],
        ["invalid JSON", fetch(url, { method: "POST", headers: headers(s), body: "{nope" }), 400],
        ["missing session", fetch(url, { method: "POST", headers: headers(), body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }) }), 400],
        ["unknown session", fetch(url, { method: "POST", headers: headers({ "mcp-session-id": "nope" }), body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }) }), 404],
        ["bad version", fetch(url, { method: "POST", headers: headers({ ...s, "mcp-protocol-version": "1999-01-01" }), body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }) }), 400],
        ["other method", fetch(url, { method: "PUT", headers: headers(s), body: "{}" }), 405],
        ["bad origin", fetch(url, { method: "POST", headers: { ...headers(), origin: "http://evil.example.com" }, body: JSON.stringify(INIT) }), 403],
        ["GET wrong accept", fetch(url, { method: "GET", headers: { ...s, accept: "application/json" } }), 406],
        ["batch after 2025-03-26", fetch(url, { method: "POST", headers: headers(s), body: JSON.stringify([{ jsonrpc: "2.0", id: 8, method: "ping" }]) }), 400]
      ]
      for (const [name, pending, status] of cases) {
        const response = yield* Effect.promise(() => pending)
        assert.strictEqual(response.status, status, name)
        if (status !== 202) {
          const body = (yield* Effect.promise(() => response.json())) as { jsonrpc: string; error: { code: number } }
          assert.strictEqual(body.jsonrpc, "2.0", name)
          assert.isNumber(body.error.code, name)
        }
      }
      const evil = yield* rawRequest(url, { method: "POST", headers: { ...headers(), host: "evil.example.com" }, body: JSON.stringify(INIT) })
      assert.strictEqual(evil.status, 403)
      assert.strictEqual(JSON.parse(evil.text).error.message, "Invalid Host: evil.example.com")
      const local = yield* rawRequest(url, { method: "POST", headers: { ...headers(), host: `localhost:${port}`, origin: `http://localhost:${port}` }, body: JSON.stringify(INIT) })
      assert.strictEqual(local.status, 200)
      const parse = yield* post(url, "{nope", s)
      assert.strictEqual(JSON.parse(parse.text).error.code, -32700)
      // the session still works
      const ping = yield* post(url, { jsonrpc: "2.0", id: 9, method: "ping" }, s)
      assert.deepStrictEqual(messagesOf(ping.text)[0], { jsonrpc: "2.0", id: 9, result: {} })
    }))

  it.live("a body over the limit sent in chunks, without a length, is 413; one at the limit passes", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { maxBodyBytes: 1024 })
      const sid = yield* initialize(url)
      const s = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
      const big = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "ping", params: { pad: "x".repeat(64 * 1024) } })
      const chunks = Array.from({ length: Math.ceil(big.length / 1000) }, (_, i) => big.slice(i * 1000, (i + 1) * 1000))
      const tooLarge = yield* chunkedRequest(url, headers(s), chunks)
      assert.strictEqual(tooLarge.status, 413)
      assert.strictEqual(JSON.parse(tooLarge.text).error.code, -32000)
      // exactly at the limit is fine
      const padded = JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping", params: { pad: "" } })
      const exact = JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping", params: { pad: "x".repeat(1024 - padded.length) } })
      assert.strictEqual(exact.length, 1024)
      const ok = yield* chunkedRequest(url, headers(s), [exact.slice(0, 500), exact.slice(500)])
      assert.strictEqual(ok.status, 200)
      assert.deepStrictEqual(messagesOf(ok.text)[0], { jsonrpc: "2.0", id: 6, result: {} })
    }))

  it.live("the endpoint as an HttpApp on @effect/platform's own server answers the same", () =>
    Effect.gen(function*() {
      const layer = Layer.unwrap(
        Effect.map(StreamableHttpServer.StreamableHttpServer, (mcp) => HttpServer.serve(mcp.app))
      ).pipe(
        Layer.provideMerge(StreamableHttpServer.layer({ maxBodyBytes: 1024 })),
        Layer.provideMerge(Features),
        Layer.provideMerge(McpServer.layer({ name: "platform", version: "1.0.0" })),
        Layer.provideMerge(NodeHttpServer.layer(() => http.createServer(), { port: 0, host: "127.0.0.1" }))
      )
      const context = yield* Layer.build(layer).pipe(Effect.orDie)
      const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
      const url = `http://127.0.0.1:${"port" in server.address ? server.address.port : 0}/`
      const sid = yield* initialize(url)
      const s = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
      const echo = yield* post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }, s)
      assert.strictEqual(echo.status, 200)
      assert.strictEqual(echo.headers.get("content-type"), "text/event-stream")
      assert.deepStrictEqual(messagesOf(echo.text)[0].result.content, [{ type: "text", text: "hi" }])
      const steps = yield* post(url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "steps", arguments: { n: 2 }, _meta: { progressToken: 1 } } }, s)
      assert.deepStrictEqual(messagesOf(steps.text).map((m) => m.method ?? m.result.content[0].text), [
        "notifications/progress",
        "notifications/progress",
        "did 2"
      ])
      const declared = yield* post(url, { jsonrpc: "2.0", id: 4, method: "ping", params: { pad: "x".repeat(2000) } }, s)
      assert.strictEqual(declared.status, 413)
      const parse = yield* post(url, "{nope", s)
      assert.strictEqual(parse.status, 400)
      assert.strictEqual(JSON.parse(parse.text).error.code, -32700)
    }))

  it.live("NodeStreamableHttpClient: our client on undici calls, gets progress, and ends its session on close", () =>
    Effect.gen(function*() {
      const { mcp, url } = yield* startServer(Features)
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        McpClient.layer({ era: "2025", name: "node-client", version: "1.0.0" }).pipe(
          Layer.provide(NodeStreamableHttpClient.layer({ url }))
        ),
        scope
      )
      const client = Context.get(context, McpClient.McpClient)
      const echo = yield* client.callTool("echo", { text: "hi" })
      assert.deepStrictEqual(echo.content, [{ type: "text", text: "hi" }])
      const progress: Array<number> = []
      const steps = yield* client.callTool("steps", { n: 2 }, { onProgress: (p) => Effect.sync(() => void progress.push(p.progress)) })
      assert.deepStrictEqual(steps.content, [{ type: "text", text: "did 2" }])
      assert.deepStrictEqual(progress, [1, 2])
      assert.strictEqual(yield* mcp.sessionCount, 1)
      yield* Scope.close(scope, Exit.void)
      assert.strictEqual(yield* mcp.sessionCount, 0)
    }))

  it.live("DELETE ends the session; its id is then unknown", () =>
    Effect.gen(function*() {
      const { mcp, url } = yield* startServer(Features)
      const sid = yield* initialize(url)
      assert.strictEqual(yield* mcp.sessionCount, 1)
      const del = yield* Effect.promise(() => fetch(url, { method: "DELETE", headers: { "mcp-session-id": sid } }))
      assert.strictEqual(del.status, 200)
      assert.strictEqual(del.headers.get("content-length"), "0")
      assert.strictEqual(yield* mcp.sessionCount, 0)
      const after = yield* post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": sid })
      assert.strictEqual(after.status, 404)
    }))

  it.live("JSON mode answers with JSON and switches to SSE for a handler that sends progress", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { jsonResponse: true })
      const sid = yield* initialize(url)
      const s = { "mcp-session-id": sid }
      const echo = yield* post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }, s)
      assert.strictEqual(echo.headers.get("content-type"), "application/json")
      assert.deepStrictEqual(JSON.parse(echo.text).result.content, [{ type: "text", text: "hi" }])
      const steps = yield* post(url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "steps", arguments: { n: 2 }, _meta: { progressToken: 1 } } }, s)
      assert.strictEqual(steps.headers.get("content-type"), "text/event-stream")
      assert.deepStrictEqual(messagesOf(steps.text).map((m) => m.method ?? m.id), ["notifications/progress", "notifications/progress", 3])
    }))

  it.live("JSON mode sends a large answer, not ASCII, whole with its length in bytes", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { jsonResponse: true })
      const sid = yield* initialize(url)
      // over the size from which the body is sent encoded; "é" and "😀" are 2 and 4 bytes
      const text = `${"x".repeat(70_000)}é${"y".repeat(1000)}😀`
      const echo = yield* post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text } } }, { "mcp-session-id": sid })
      assert.strictEqual(echo.headers.get("content-type"), "application/json")
      assert.strictEqual(echo.headers.get("content-length"), String(Buffer.byteLength(echo.text, "utf8")))
      assert.deepStrictEqual(JSON.parse(echo.text).result.content, [{ type: "text", text }])
    }))

  it.live("a small answer, not ASCII, is sent as text with its length in bytes (JSON and SSE)", () =>
    Effect.gen(function*() {
      // under the size from which the body is sent encoded: its length is counted, not encoded for node
      const text = "é😀 ü ✓ x"
      for (const jsonResponse of [true, false]) {
        const { url } = yield* startServer(Features, { jsonResponse })
        const sid = yield* initialize(url)
        const echo = yield* post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text } } }, { "mcp-session-id": sid })
        assert.strictEqual(echo.headers.get("content-length"), String(Buffer.byteLength(echo.text, "utf8")))
        assert.notStrictEqual(Buffer.byteLength(echo.text, "utf8"), echo.text.length)
        const answer = jsonResponse ? JSON.parse(echo.text) : messagesOf(echo.text)[0]
        assert.deepStrictEqual(answer.result.content, [{ type: "text", text }])
      }
    }))

  it.live("stateless mode serves each POST alone and refuses GET and DELETE", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { sessionPerRequest: true })
      const call = yield* post(url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } })
      assert.strictEqual(call.status, 200)
      assert.isNull(call.headers.get("mcp-session-id"))
      assert.deepStrictEqual(messagesOf(call.text)[0].result.content, [{ type: "text", text: "x" }])
      const get = yield* Effect.promise(() => fetch(url, { headers: { accept: "text/event-stream" } }))
      assert.strictEqual(get.status, 405)
      const del = yield* Effect.promise(() => fetch(url, { method: "DELETE" }))
      assert.strictEqual(del.status, 405)
    }))

  it.live("with an event store, streams are primed and a dropped POST stream resumes exactly once", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { eventStore: true, retry: 500 })
      const sid = yield* initialize(url)
      const s = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
      const controller = new AbortController()
      const first: Array<{ id?: string; data?: string; retry?: number }> = yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: headers(s),
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "steps", arguments: { n: 6, ms: 40 }, _meta: { progressToken: 7 } } }),
          signal: controller.signal
        })
        const reader = response.body!.getReader()
        let text = ""
        // read until two progress events arrived, then drop the connection
        while ((text.match(/notifications\/progress/g) ?? []).length < 2) {
          const { value } = await reader.read()
          text += new TextDecoder().decode(value)
        }
        controller.abort()
        return parseSse(text.slice(0, text.lastIndexOf("\n\n") + 2))
      })
      assert.strictEqual(first[0]!.retry, 500)
      assert.strictEqual(first[0]!.data, "")
      assert.isString(first[0]!.id)
      const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!
      const resumed = yield* Effect.promise(async () => {
        const response = await fetch(url, { headers: { ...s, accept: "text/event-stream", "last-event-id": lastId } })
        return { status: response.status, text: await response.text() }
      })
      assert.strictEqual(resumed.status, 200)
      const seen = [...messagesOf(first.map((e) => e.data === undefined ? "" : `data: ${e.data}\n\n`).join("")), ...messagesOf(resumed.text)]
      const progress = seen.filter((m) => m.method === "notifications/progress").map((m) => m.params.progress)
      assert.deepStrictEqual(progress, [1, 2, 3, 4, 5, 6])
      assert.strictEqual(seen.filter((m) => m.id === 2).length, 1)
      const ids = [...first, ...parseSse(resumed.text)].map((e) => e.id).filter((id) => id !== undefined)
      assert.strictEqual(new Set(ids).size, ids.length, `an event id was used twice: ${ids.join(" ")}`)
    }))

  it.live("messages for one session never reach another", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features)
      const a = yield* initialize(url)
      const b = yield* initialize(url)
      assert.notStrictEqual(a, b)
      const [ra, rb] = yield* Effect.all([
        post(url, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { text: "for a" } } }, { "mcp-session-id": a }),
        post(url, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { text: "for b" } } }, { "mcp-session-id": b })
      ], { concurrency: 2 })
      assert.deepStrictEqual(messagesOf(ra.text)[0].result.content[0].text, "for a")
      assert.deepStrictEqual(messagesOf(rb.text)[0].result.content[0].text, "for b")
    }))

  it.live("the standing GET carries session messages, keep-alive comments, and is single", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { keepAlive: 40 })
      const sid = yield* initialize(url)
      const s = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
      const standing = yield* Effect.forkChild(readFor(url, { headers: { ...s, accept: "text/event-stream" } }, 300))
      yield* Effect.sleep(50)
      const second = yield* Effect.promise(() => fetch(url, { headers: { ...s, accept: "text/event-stream" } }))
      assert.strictEqual(second.status, 409)
      const call = yield* post(url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "announce", arguments: {} } }, s)
      assert.deepStrictEqual(messagesOf(call.text).map((m) => m.id), [2], "a session message went to the POST stream")
      const got = yield* Fiber.join(standing)
      assert.strictEqual(got.status, 200)
      assert.deepStrictEqual(messagesOf(got.text).map((m) => m.params?.data), ["announced"])
      assert.isAbove(parseSse(got.text).filter((e) => e.comment).length, 2, "no keep-alive comments")
    }))

  it.live("a maximum session count answers 503, and idle sessions are closed", () =>
    Effect.gen(function*() {
      const { mcp, url } = yield* startServer(Features, { maxSessions: 2, sessionIdleTimeout: 400 })
      const a = yield* initialize(url)
      yield* initialize(url)
      const third = yield* post(url, INIT)
      assert.strictEqual(third.status, 503)
      assert.strictEqual(JSON.parse(third.text).error.code, -32000)
      // no request and no open stream for longer than the idle timeout: gone
      yield* Effect.sleep(1200)
      assert.strictEqual(yield* mcp.sessionCount, 0)
      const after = yield* post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": a })
      assert.strictEqual(after.status, 404)
      // and new sessions can be opened again
      const fresh = yield* post(url, INIT)
      assert.strictEqual(fresh.status, 200)
    }))

  it.live("a slow reader holds the sender back instead of growing a buffer", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { streamBuffer: 4 })
      const sid = yield* initialize(url)
      // 32 MiB of progress events, more than socket buffers hold; the reader takes nothing for a while
      const response = yield* Effect.promise(() =>
        fetch(url, {
          method: "POST",
          headers: headers({ "mcp-session-id": sid }),
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "flood", arguments: {}, _meta: { progressToken: 1 } } })
        })
      )
      yield* Effect.sleep(300)
      // the handler waits on the full stream (socket buffers hold some, the server at most 4 events)
      const sentWhileBlocked = floodSent
      assert.isBelow(sentWhileBlocked, 1000, "the server buffered everything for a reader that reads nothing")
      // the session still answers other requests meanwhile
      const ping = yield* post(url, { jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-session-id": sid })
      assert.strictEqual(ping.status, 200)
      const text = yield* Effect.promise(() => response.text())
      const messages = messagesOf(text)
      assert.strictEqual(messages.filter((m) => m.method === "notifications/progress").length, 1000)
      assert.strictEqual(messages.at(-1).id, 2)
    }))
})
