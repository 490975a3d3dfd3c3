/**
 * Streamable HTTP on 2026-07-28, against a real server on 127.0.0.1 (node listener) and raw
 * `fetch`: no session, no GET stream, DELETE 405, no batches; the header rules
 * (`MCP-Protocol-Version` = `_meta`, `Mcp-Method`, `Mcp-Name` base64-wrapped or not,
 * `Mcp-Param-*`) and their error codes and HTTP statuses, each echoing the request's id;
 * closing a request's SSE stream cancels it; `subscriptions/listen`. Every 2026 message is
 * validated against the 2026-07-28 JSON Schema.
 */
import { assert, describe, it } from "@effect/vitest"
import * as HttpServer from "effect/http/HttpServer"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { assertValid2026 } from "../../mcp/test/utils/wire2026.js"
import { messagesOf } from "./httpUtil.js"

const V = "2026-07-28"
const meta = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  ...extra
})

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const Regional = McpServer.tool({
  name: "regional",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      priority: { type: "integer", "x-mcp-header": "Priority" }
    },
    required: ["region"]
  } as McpSchema.Tool["inputSchema"],
  parameters: Schema.Struct({ region: Schema.String, priority: Schema.optional(Schema.Int) }),
  handler: ({ region }) => Effect.succeed(`in ${region}`)
})

const NeedsSampling = McpServer.tool({
  name: "needs_sampling",
  handler: () =>
    Effect.flatMap(HandlerContext, (ctx) =>
      ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })).pipe(
        Effect.as("sampled")
      )
})

const Dynamic = McpServer.tool({ name: "dynamic", handler: () => Effect.succeed("d") })

const Trigger = McpServer.tool({
  name: "trigger",
  handler: () =>
    Effect.gen(function*() {
      const server = yield* McpServer.McpServer
      yield* Effect.scoped(server.add([Dynamic as McpServer.Feature<unknown>], yield* Effect.context<never>()))
      return "changed"
    })
})

/** Reports progress, then waits until interrupted; tells the test it was. */
const interrupted = Deferred.makeUnsafe<void>()
const Hang = McpServer.tool({
  name: "hang",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(1, { total: 2 })
      return yield* Effect.never
    }).pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))
})

/** The connection a 2026 POST was served on (its engine's session id); `wait` holds it until the gate opens. */
const gate = Deferred.makeUnsafe<void>()
const Connection = McpServer.tool({
  name: "connection",
  parameters: Schema.Struct({ wait: Schema.optional(Schema.Boolean) }),
  handler: ({ wait }) =>
    Effect.flatMap(ServerSession, (session) =>
      Effect.as(wait === true ? Deferred.await(gate) : Effect.void, session.sessionId))
})

/** Reports progress before it answers: its answer is streamed (headers first), not a whole body. */
const Talks = McpServer.tool({
  name: "talks",
  handler: () => Effect.flatMap(HandlerContext, (ctx) => Effect.as(ctx.progress(1, { total: 1 }), "talked"))
})

const features = McpServer.register(Echo, Regional, NeedsSampling, Trigger, Hang, Connection, Talks)

const start = (options: Partial<McpServer.ServerOptions> = {}, http: Omit<NodeStreamableHttp.Options, "port"> = {}) =>
  Effect.gen(function*() {
    const layer = NodeStreamableHttp.layer({ port: 0, ...http }).pipe(
      Layer.provideMerge(features),
      Layer.provideMerge(McpServer.layer({ name: "test-http", version: "1.0.0", ...options }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    const mcp = yield* StreamableHttpServer.StreamableHttpServer.pipe(Effect.provide(context))
    const port = "port" in server.address ? server.address.port : 0
    return { url: `http://127.0.0.1:${port}/mcp`, mcp }
  })

/** The headers a 2026 client sends for `method` (and `name`), overridable one by one (undefined drops one). */
const headersFor = (method: string, name?: string, extra: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": V,
    "mcp-method": method,
    ...(name !== undefined ? { "mcp-name": name } : {}),
    ...extra
  }
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>
}

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly frames: ReadonlyArray<any>
}

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) })
    const text = await response.text()
    const type = response.headers.get("content-type") ?? ""
    const frames = type.includes("text/event-stream") ? messagesOf(text) : text === "" ? [] : [JSON.parse(text)]
    return { status: response.status, headers: response.headers, body: frames.at(-1), frames }
  })

const call = (url: string, id: number, method: string, params: Record<string, unknown>, headers?: Record<string, string>) =>
  post(url, { jsonrpc: "2.0", id, method, params }, headers ?? headersFor(method, (params.name ?? params.uri) as string | undefined))

describe("streamable HTTP on 2026-07-28", () => {
  it.live("a 2026 POST is served statelessly: no session id, resultType, serverInfo; SSE and JSON", () =>
    Effect.gen(function*() {
      for (const jsonResponse of [false, true]) {
        const { mcp, url } = yield* start({}, { jsonResponse })
        const discover = yield* call(url, 1, "server/discover", { _meta: meta() })
        assert.strictEqual(discover.status, 200)
        assertValid2026(discover.body, "server/discover")
        assert.isNull(discover.headers.get("mcp-session-id"))
        const echo = yield* call(url, 2, "tools/call", { _meta: meta(), name: "echo", arguments: { text: "hi" } })
        assert.strictEqual(echo.status, 200)
        assertValid2026(echo.body, "tools/call")
        assert.deepStrictEqual(echo.body.result.content, [{ type: "text", text: "hi" }])
        assert.strictEqual(echo.body.result._meta["io.modelcontextprotocol/serverInfo"].name, "test-http")
        assert.isNull(echo.headers.get("mcp-session-id"))
        assert.strictEqual(yield* mcp.sessionCount, 0)
      }
    }), 30_000)

  it.live("envelope and version: -32602 (400) for a bad envelope, -32022 (400) with supported and requested", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const bare = yield* call(url, 11, "tools/list", {})
      assert.strictEqual(bare.status, 400)
      assertValid2026(bare.body)
      assert.deepStrictEqual([bare.body.id, bare.body.error.code], [11, -32602])
      const noCaps = yield* call(url, 12, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": V } })
      assert.deepStrictEqual([noCaps.status, noCaps.body.id, noCaps.body.error.code], [400, 12, -32602])
      const v999 = { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "v999.0.0" }) }
      const unsupported = yield* call(url, 13, "server/discover", v999, headersFor("server/discover", undefined, {
        "mcp-protocol-version": "v999.0.0"
      }))
      assert.strictEqual(unsupported.status, 400)
      assertValid2026(unsupported.body)
      assert.deepStrictEqual(unsupported.body.id, 13)
      assert.deepStrictEqual(unsupported.body.error.data, { supported: [V], requested: "v999.0.0" })
    }), 30_000)

  it.live("headers: -32020 (400) when MCP-Protocol-Version, Mcp-Method or Mcp-Name disagree or are missing", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const params = { _meta: meta(), name: "echo", arguments: { text: "x" } }
      const refused: ReadonlyArray<readonly [string, Record<string, string | undefined>]> = [
        ["version header missing", { "mcp-protocol-version": undefined }],
        ["version header differs from _meta", { "mcp-protocol-version": "2025-11-25" }],
        ["Mcp-Method missing", { "mcp-method": undefined }],
        ["Mcp-Method differs", { "mcp-method": "tools/list" }],
        ["Mcp-Method differs in case", { "mcp-method": "TOOLS/CALL" }],
        ["Mcp-Name missing", { "mcp-name": undefined }],
        ["Mcp-Name differs", { "mcp-name": "other" }],
        ["Mcp-Name invalid base64", { "mcp-name": "=?base64?ZWNo?=" }]
      ]
      for (const [i, [what, extra]] of refused.entries()) {
        const answer = yield* call(url, 20 + i, "tools/call", params, headersFor("tools/call", "echo", extra))
        assert.strictEqual(answer.status, 400, what)
        assertValid2026(answer.body)
        assert.deepStrictEqual([answer.body.id, answer.body.error.code], [20 + i, -32020], what)
      }
      // the version mismatch of the body against the header: -32020 too
      const mismatch = yield* call(url, 30, "server/discover", {
        _meta: meta({ "io.modelcontextprotocol/protocolVersion": "v999.0.0" })
      })
      assert.deepStrictEqual([mismatch.status, mismatch.body.error.code], [400, -32020])
      const accepted: ReadonlyArray<readonly [string, Record<string, string>]> = [
        ["whitespace around values", { "mcp-name": "  echo  ", "mcp-method": " tools/call\t" }],
        ["base64-wrapped name", { "mcp-name": `=?base64?${Buffer.from("echo").toString("base64")}?=` }]
      ]
      for (const [what, extra] of accepted) {
        const answer = yield* call(url, 40, "tools/call", params, headersFor("tools/call", "echo", extra))
        assert.strictEqual(answer.status, 200, what)
        assertValid2026(answer.body, "tools/call")
      }
    }), 30_000)

  it.live("Mcp-Param-* headers of x-mcp-header arguments: missing, differing or invalid base64 is -32020", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const callWith = (id: number, args: Record<string, unknown>, extra: Record<string, string | undefined>) =>
        call(url, id, "tools/call", { _meta: meta(), name: "regional", arguments: args }, headersFor("tools/call", "regional", extra))
      const ok = yield* callWith(1, { region: "eu-west", priority: 3 }, { "mcp-param-region": "eu-west", "mcp-param-priority": "3.0" })
      assert.deepStrictEqual(ok.body.result.content, [{ type: "text", text: "in eu-west" }])
      const wrapped = yield* callWith(2, { region: "Zürich" }, {
        "mcp-param-region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`
      })
      assert.strictEqual(wrapped.status, 200)
      // not wrapped (no ?= suffix): literal
      const literal = yield* callWith(3, { region: "=?base64?SGVsbG8=" }, { "mcp-param-region": "=?base64?SGVsbG8=" })
      assert.strictEqual(literal.status, 200)
      for (
        const [i, extra] of [
          {},
          { "mcp-param-region": "us-east" },
          { "mcp-param-region": "=?base64?SGVsbG8?=" },
          { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }
        ].entries()
      ) {
        const refused = yield* callWith(10 + i, { region: "eu-west" }, extra)
        assert.strictEqual(refused.status, 400, JSON.stringify(extra))
        assertValid2026(refused.body)
        assert.deepStrictEqual([refused.body.id, refused.body.error.code], [10 + i, -32020])
      }
      // an argument the body does not carry needs no header
      const absent = yield* callWith(20, { region: "eu" }, { "mcp-param-region": "eu" })
      assert.strictEqual(absent.status, 200)
    }), 30_000)

  it.live("removed and unknown methods are 404 -32601; a missing capability 400 -32021; a batch 400", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      for (const [i, method] of ["ping", "initialize", "logging/setLevel", "resources/subscribe", "unknown/method"].entries()) {
        const answer = yield* call(url, 50 + i, method, { _meta: meta() })
        assert.strictEqual(answer.status, 404, method)
        assertValid2026(answer.body)
        assert.deepStrictEqual([answer.body.id, answer.body.error.code], [50 + i, -32601])
      }
      const capability = yield* call(url, 60, "tools/call", { _meta: meta(), name: "needs_sampling" })
      assert.strictEqual(capability.status, 400)
      assert.deepStrictEqual(capability.body.error.data, { requiredCapabilities: { sampling: {} } })
      const batch = yield* post(url, [
        { jsonrpc: "2.0", id: 61, method: "tools/list", params: { _meta: meta() } },
        { jsonrpc: "2.0", id: 62, method: "tools/list", params: { _meta: meta() } }
      ], headersFor("tools/list"))
      assert.deepStrictEqual([batch.status, batch.body.error.code], [400, -32600])
      // a params error a handler answers stays in-band
      const unknownTool = yield* call(url, 63, "tools/call", { _meta: meta(), name: "nope" })
      assert.deepStrictEqual([unknownTool.status, unknownTool.body.error.code], [200, -32602])
    }), 30_000)

  it.live("no GET stream and no DELETE on 2026 (405); the 2025 path never answers -32022", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      for (const method of ["GET", "DELETE"]) {
        const response = yield* Effect.promise(() =>
          fetch(url, { method, headers: { accept: "text/event-stream", "mcp-protocol-version": V } })
        )
        assert.strictEqual(response.status, 405, method)
        assert.strictEqual(response.headers.get("allow"), "POST")
      }
      // an unknown version header without an envelope is the 2025 path: -32600 (or the session error), never -32022
      const legacy = yield* post(url, { jsonrpc: "2.0", id: 70, method: "tools/list" }, {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "v999.0.0"
      })
      assert.strictEqual(legacy.status, 400)
      assert.notStrictEqual(legacy.body.error.code, -32022)
    }), 30_000)

  it.live("closing a request's SSE stream cancels the request", () =>
    Effect.gen(function*() {
      const { mcp, url } = yield* start()
      const controller = new AbortController()
      yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: headersFor("tools/call", "hang"),
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { _meta: meta({ progressToken: "p" }), name: "hang" }
          }),
          signal: controller.signal
        })
        const reader = response.body!.getReader()
        await reader.read() // the progress event: the handler runs
        controller.abort()
      })
      yield* Deferred.await(interrupted).pipe(Effect.timeout("5 seconds"))
      yield* Effect.sleep("50 millis")
      assert.strictEqual(yield* mcp.sessionCount, 0)
    }), 30_000)

  it.live("subscriptions/listen: acknowledged first, then the list changes it asked for, tagged with its id", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const listen = (id: number, notifications: Record<string, unknown>) =>
        Effect.promise(async () => {
          const controller = new AbortController()
          const response = await fetch(url, {
            method: "POST",
            headers: headersFor("subscriptions/listen"),
            body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta(), notifications } }),
            signal: controller.signal
          })
          const reader = response.body!.getReader()
          const decoder = new TextDecoder()
          let text = ""
          const got: Array<any> = []
          const read = async (frames: number) => {
            while (got.length < frames) {
              const { done, value } = await reader.read()
              if (done) break
              text += decoder.decode(value, { stream: true })
              got.splice(0, got.length, ...messagesOf(text.slice(0, text.lastIndexOf("\n\n") + 2)))
            }
          }
          return { read, got, close: () => controller.abort() }
        })
      const tools = yield* listen(100, { toolsListChanged: true })
      const prompts = yield* listen(200, { promptsListChanged: true })
      // both acknowledged before the change
      yield* Effect.promise(() => Promise.all([tools.read(1), prompts.read(1)]))
      yield* call(url, 5, "tools/call", { _meta: meta(), name: "trigger" })
      yield* Effect.promise(() => tools.read(3))
      // give a leak to the prompts stream the time to arrive
      yield* Effect.sleep("100 millis")
      tools.close()
      prompts.close()
      for (const frame of tools.got) assertValid2026(frame)
      assert.strictEqual(tools.got[0].method, "notifications/subscriptions/acknowledged")
      assert.deepStrictEqual(tools.got[0].params.notifications, { toolsListChanged: true })
      assert.deepStrictEqual(tools.got.slice(1).map((f) => f.method), [
        "notifications/tools/list_changed",
        "notifications/tools/list_changed"
      ])
      for (const frame of tools.got) assert.strictEqual(frame.params._meta["io.modelcontextprotocol/subscriptionId"], 100)
      assert.deepStrictEqual(prompts.got.map((f) => f.method), ["notifications/subscriptions/acknowledged"])
    }), 30_000)

  it.live("eras: a 2026-only server answers initialize 400 -32022; a 2025-only one takes an envelope for 2025", () =>
    Effect.gen(function*() {
      const only2026 = yield* start({ eras: "2026" })
      const init = yield* post(only2026.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } }
      }, { "content-type": "application/json", accept: "application/json, text/event-stream" })
      assert.strictEqual(init.status, 400)
      assert.deepStrictEqual([init.body.id, init.body.error.code], [1, -32022])
      assert.deepStrictEqual(init.body.error.data, { supported: [V], requested: "2025-11-25" })
      const only2025 = yield* start({ eras: "2025" })
      const enveloped = yield* call(only2025.url, 2, "tools/list", { _meta: meta() })
      // the 2025 path: no session named, 400; never -32022
      assert.strictEqual(enveloped.status, 400)
      assert.notStrictEqual(enveloped.body.error.code, -32022)
    }), 30_000)

  it.live("a 2026 POST's connection serves the next 2026 POST once nothing of its own is left; concurrent POSTs get one each", () =>
    Effect.gen(function*() {
      const { mcp, url } = yield* start()
      const connection = (id: number, wait = false) =>
        Effect.map(
          call(url, id, "tools/call", { _meta: meta(), name: "connection", arguments: { wait } }),
          (a) => (a.body.result.content[0] as { text: string }).text
        )
      const first = yield* connection(1)
      const second = yield* connection(2)
      // sequential: the same engine (no connection opened per POST)
      assert.strictEqual(second, first)
      // concurrent: the one waiting holds its connection, the other is served on another
      const held = yield* Effect.forkChild(connection(3, true))
      yield* Effect.sleep("100 millis")
      const beside = yield* connection(4)
      assert.notStrictEqual(beside, first)
      yield* Deferred.succeed(gate, undefined)
      const released = yield* Fiber.join(held)
      assert.includeMembers([first, beside], [released])
      // pooled connections are not sessions
      assert.strictEqual(yield* mcp.sessionCount, 0)
      // the same JSON-RPC id from two clients at once: each answered on its own connection
      const both = yield* Effect.all([connection(7), connection(7), connection(7)], { concurrency: "unbounded" })
      assert.lengthOf(both, 3)
    }), 30_000)

  it.live("a POSTed JSON-RPC response under 2026-07-28 is 400 -32600 saying the era has no server requests, with or without Mcp-Session-Id", () =>
    Effect.gen(function*() {
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": V
      }
      const responses = [
        { jsonrpc: "2.0", id: 5, result: {} },
        { jsonrpc: "2.0", id: 6, error: { code: -1, message: "declined" } }
      ]
      const both = yield* start()
      const only2026 = yield* start({ eras: "2026" })
      const cases = [
        { url: both.url, headers },
        { url: both.url, headers: { ...headers, "mcp-session-id": "a-session" } },
        { url: only2026.url, headers },
        // a 2026-only server: without the version header too
        { url: only2026.url, headers: { "content-type": headers["content-type"], accept: headers.accept } }
      ]
      for (const [i, c] of cases.entries()) {
        for (const response of responses) {
          const refused = yield* post(c.url, response, c.headers)
          assert.strictEqual(refused.status, 400, `case ${i}`)
          assert.strictEqual(refused.headers.get("content-type"), "application/json")
          assert.isNull(refused.headers.get("mcp-session-id"))
          assert.deepStrictEqual([refused.body.id, refused.body.error.code], [null, -32600])
          assert.include(refused.body.error.message, "2026-07-28 has no server-to-client requests")
          assert.notInclude(refused.body.error.message, "2025-")
        }
      }
      // a 2025 session's answer to a server request is still taken (202): the refusal is the 2026 era's
      const init = yield* post(both.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
      }, { "content-type": "application/json", accept: "application/json, text/event-stream" })
      const session = init.headers.get("mcp-session-id")!
      const answered = yield* post(both.url, responses[0], {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": session
      })
      assert.strictEqual(answered.status, 202)
    }), 30_000)

  it.live("a 2026 request that carries an Mcp-Session-Id is served on the 2026 path: that era ignores the header", () =>
    Effect.gen(function*() {
      for (const eras of [undefined, "2026"] as const) {
        const { mcp, url } = yield* start(eras === undefined ? {} : { eras })
        for (const sessionId of ["no-such-session", "0"]) {
          const params = { _meta: meta(), name: "echo", arguments: { text: "hi" } }
          const echo = yield* call(url, 1, "tools/call", params, { ...headersFor("tools/call", "echo"), "mcp-session-id": sessionId })
          assert.strictEqual(echo.status, 200, `${eras}/${sessionId}: ${JSON.stringify(echo.body)}`)
          assertValid2026(echo.body, "tools/call")
          assert.deepStrictEqual(echo.body.result.content, [{ type: "text", text: "hi" }])
          assert.isNull(echo.headers.get("mcp-session-id"))
        }
        assert.strictEqual(yield* mcp.sessionCount, 0)
      }
    }), 30_000)

  it.live("a streamed 2026 answer (SSE, headers first) carries no Mcp-Session-Id, as a whole one carries none", () =>
    Effect.gen(function*() {
      const { mcp, url } = yield* start()
      const streamed = yield* call(url, 1, "tools/call", { _meta: meta({ progressToken: "p" }), name: "talks" })
      assert.strictEqual(streamed.status, 200)
      assert.include(streamed.headers.get("content-type"), "text/event-stream")
      // the progress came first: the answer was streamed
      assert.deepStrictEqual(streamed.frames.map((f) => f.method ?? "answer"), ["notifications/progress", "answer"])
      assert.deepStrictEqual(streamed.body.result.content, [{ type: "text", text: "talked" }])
      assert.isNull(streamed.headers.get("mcp-session-id"))
      const whole = yield* call(url, 2, "tools/call", { _meta: meta(), name: "talks" })
      assert.deepStrictEqual(whole.frames.map((f) => f.method ?? "answer"), ["answer"])
      assert.isNull(whole.headers.get("mcp-session-id"))
      assert.strictEqual(yield* mcp.sessionCount, 0)
    }), 30_000)
})
