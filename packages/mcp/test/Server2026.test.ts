/**
 * The server engine on the 2026-07-28 path, over the in-memory transport: the era chosen per
 * request (and per connection), the envelope checked, `server/discover`, removed methods, the
 * per-request view of the client handlers read, per-request log level, −32021, resource not
 * found, caching hints, the `eras` option. Every message the server sends on the 2026 path is
 * validated against the official 2026-07-28 JSON Schema; the 2025 path against 2025-11-25.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as Transport from "@effect-mcp/mcp/Transport"
import { assertWireValid, buildServer } from "./utils/wire.js"
import { assertValid2026 } from "./utils/wire2026.js"

const V = "2026-07-28"
const envelope = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw-client", version: "9.9" },
  ...extra
})

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

/** What the handler sees of its client: ServerSession and HandlerContext.session agree. */
const Whoami = McpServer.tool({
  name: "whoami",
  handler: () =>
    Effect.gen(function*() {
      const session = yield* ServerSession
      const ctx = yield* HandlerContext
      assert.strictEqual(ctx.session.clientInfo()?.name, session.clientInfo()?.name)
      return JSON.stringify({
        era: session.era ?? "2025",
        version: session.protocolVersion(),
        client: session.clientInfo()?.name,
        capabilities: session.clientCapabilities(),
        level: session.logLevel() ?? null
      })
    })
})

const Chatty = McpServer.tool({
  name: "chatty",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.log("info", "from the context")
      yield* (yield* ServerSession).log("warning", "from the session")
      return "done"
    })
})

const NeedsSampling = McpServer.tool({
  name: "needs_sampling",
  handler: () =>
    Effect.flatMap(HandlerContext, (ctx) =>
      ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })).pipe(
        Effect.as("sampled")
      )
})

const Readme = McpServer.resource({
  uri: "docs://readme",
  name: "readme",
  mimeType: "text/plain",
  content: Effect.succeed("read me")
})

const features = McpServer.register(Echo, Whoami, Chatty, NeedsSampling, Readme)

/** A raw client on one side of a memory pair: sends frames, reads what comes back. */
const rawClient = (options?: Partial<McpServer.ServerOptions>) =>
  Effect.gen(function*() {
    const server = yield* buildServer(features, options)
    const pair = yield* Transport.makeMemoryPair()
    yield* Effect.forkScoped(server.serve(pair.server))
    const inbox = yield* Queue.unbounded<JsonRpc.Frame>()
    yield* Transport.incoming(pair.client).pipe(Stream.runForEach((f) => Queue.offer(inbox, f)), Effect.forkScoped)
    /** Sends a request; its response, and the notifications that came before it. */
    const call = (method: string, params: unknown, id: JsonRpc.RequestId = Math.floor(Math.random() * 1e9)) =>
      Effect.gen(function*() {
        yield* pair.client.send({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) } as never)
        const before: Array<JsonRpc.Notification> = []
        while (true) {
          const frame = yield* Queue.take(inbox)
          if (JsonRpc.isBatch(frame)) return { response: frame as unknown as JsonRpc.Response, notifications: before }
          if (JsonRpc.isNotification(frame)) before.push(frame)
          else if (!JsonRpc.isRequest(frame) && (frame as JsonRpc.Response).id === id) {
            return { response: frame as JsonRpc.Response, notifications: before }
          } else if (JsonRpc.isRequest(frame)) return yield* Effect.die(new Error(`the server sent a request: ${frame.method}`))
        }
      })
    return { call, pair, send: pair.client.send, inbox }
  })

const resultOf = (r: JsonRpc.Response) => {
  if (!("result" in r)) throw new Error(`expected a result, got ${JSON.stringify(r)}`)
  return r.result as Record<string, any>
}
const errorOf = (r: JsonRpc.Response) => {
  if (!("error" in r)) throw new Error(`expected an error, got ${JSON.stringify(r)}`)
  return r.error as { code: number; message: string; data?: any }
}

describe("the 2026-07-28 path of the server engine", () => {
  it.effect("server/discover: versions, capabilities, instructions, resultType, serverInfo, caching hints", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient({ instructions: "Use echo." })
      const { response } = yield* call("server/discover", { _meta: envelope() }, 1)
      assertValid2026(response, "server/discover")
      const result = resultOf(response)
      assert.strictEqual(response.id, 1)
      assert.deepStrictEqual(result.supportedVersions, [V])
      assert.strictEqual(result.resultType, "complete")
      assert.strictEqual(result.instructions, "Use echo.")
      assert.deepStrictEqual(result.capabilities.tools, { listChanged: true })
      assert.deepStrictEqual(result._meta["io.modelcontextprotocol/serverInfo"], { name: "test-server", version: "1.0.0" })
      assert.strictEqual(result.ttlMs, 0)
      assert.strictEqual(result.cacheScope, "private")
    }))

  it.effect("tools/list and tools/call: the same handlers, results marked complete and signed with serverInfo", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient()
      const list = (yield* call("tools/list", { _meta: envelope() })).response
      assertValid2026(list, "tools/list")
      assert.includeMembers(resultOf(list).tools.map((t: { name: string }) => t.name), ["echo", "whoami"])
      assert.strictEqual(resultOf(list).ttlMs, 0)
      const echo = (yield* call("tools/call", { _meta: envelope(), name: "echo", arguments: { text: "hi" } })).response
      assertValid2026(echo, "tools/call")
      assert.deepStrictEqual(resultOf(echo).content, [{ type: "text", text: "hi" }])
      assert.strictEqual(resultOf(echo).resultType, "complete")
      // not cacheable: no hint
      assert.isUndefined(resultOf(echo).ttlMs)
    }))

  it.effect("a handler reads the client of its request from ServerSession and HandlerContext, as on 2025", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient()
      const first = yield* call("tools/call", {
        _meta: envelope({
          "io.modelcontextprotocol/clientCapabilities": { sampling: {} },
          "io.modelcontextprotocol/logLevel": "debug"
        }),
        name: "whoami"
      })
      assert.deepStrictEqual(JSON.parse(resultOf(first.response).content[0].text), {
        era: "2026",
        version: V,
        client: "raw-client",
        capabilities: { sampling: {} },
        level: "debug"
      })
      // the next request on the same connection has its own view
      const second = yield* call("tools/call", {
        _meta: envelope({ "io.modelcontextprotocol/clientInfo": { name: "other", version: "1" } }),
        name: "whoami"
      })
      assert.deepStrictEqual(JSON.parse(resultOf(second.response).content[0].text), {
        era: "2026",
        version: V,
        client: "other",
        capabilities: {},
        level: null
      })
    }))

  it.effect("the log level comes per request: no level, no log messages", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient()
      const silent = yield* call("tools/call", { _meta: envelope(), name: "chatty" })
      assert.deepStrictEqual(silent.notifications, [])
      const info = yield* call("tools/call", { _meta: envelope({ "io.modelcontextprotocol/logLevel": "info" }), name: "chatty" })
      assert.deepStrictEqual(info.notifications.map((n) => (n.params as { data: unknown }).data), [
        "from the context",
        "from the session"
      ])
      for (const n of info.notifications) assertValid2026(n)
      const warning = yield* call("tools/call", {
        _meta: envelope({ "io.modelcontextprotocol/logLevel": "warning" }),
        name: "chatty"
      })
      assert.deepStrictEqual(warning.notifications.map((n) => (n.params as { data: unknown }).data), ["from the session"])
    }))

  it.effect("bad envelopes are -32602 naming what is missing, an unknown version -32022 with supported and requested", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient()
      const cases: ReadonlyArray<readonly [string, unknown, number, unknown]> = [
        ["server/discover", {}, -32602, { envelope: { missing: ["_meta"] } }],
        ["server/discover", undefined, -32602, { envelope: { missing: ["_meta"] } }],
        ["server/discover", { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } }, -32602, {
          envelope: { missing: ["io.modelcontextprotocol/protocolVersion"] }
        }],
        ["tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": V } }, -32602, {
          envelope: { missing: ["io.modelcontextprotocol/clientCapabilities"] }
        }],
        ["tools/list", { _meta: envelope({ "io.modelcontextprotocol/protocolVersion": 2026 }) }, -32602, {
          envelope: { invalid: true }
        }],
        ["tools/list", { _meta: envelope({ "io.modelcontextprotocol/clientCapabilities": "all" }) }, -32602, {
          envelope: { invalid: true }
        }],
        ["tools/list", { _meta: envelope({ "io.modelcontextprotocol/protocolVersion": "v999.0.0" }) }, -32022, {
          supported: [V],
          requested: "v999.0.0"
        }],
        // a 2025 version in an envelope is not a 2026 request either
        ["tools/list", { _meta: envelope({ "io.modelcontextprotocol/protocolVersion": "2025-11-25" }) }, -32022, {
          supported: [V],
          requested: "2025-11-25"
        }]
      ]
      for (const [i, [method, params, code, data]] of cases.entries()) {
        const { response } = yield* call(method, params, 100 + i)
        assertValid2026(response)
        assert.strictEqual(response.id, 100 + i, "the error echoes the request id")
        assert.strictEqual(errorOf(response).code, code, JSON.stringify(params))
        assert.deepStrictEqual(errorOf(response).data, data)
      }
    }))

  it.effect("removed and unknown methods are -32601 on 2026", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient()
      for (
        const method of [
          "ping",
          "initialize",
          "logging/setLevel",
          "resources/subscribe",
          "resources/unsubscribe",
          "tasks/get",
          "unknown/method"
        ]
      ) {
        const { response } = yield* call(method, { _meta: envelope(), uri: "docs://readme", level: "info" }, method)
        assertValid2026(response)
        assert.strictEqual(response.id, method)
        assert.strictEqual(errorOf(response).code, -32601, method)
      }
    }))

  it.effect("a reverse call the envelope declares no capability for is -32021 with data.requiredCapabilities", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient()
      const { response } = yield* call("tools/call", { _meta: envelope(), name: "needs_sampling" }, 7)
      assertValid2026(response)
      assert.strictEqual(errorOf(response).code, -32021)
      assert.deepStrictEqual(errorOf(response).data, { requiredCapabilities: { sampling: {} } })
    }))

  it.effect("a resource not found is -32602 with data.uri; a read carries the caching hint", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient({ cacheHints: { "resources/read": { ttlMs: 60_000, cacheScope: "public" } } })
      const missing = (yield* call("resources/read", { _meta: envelope(), uri: "docs://nope" })).response
      assertValid2026(missing)
      assert.strictEqual(errorOf(missing).code, -32602)
      assert.deepStrictEqual(errorOf(missing).data, { uri: "docs://nope" })
      const read = (yield* call("resources/read", { _meta: envelope(), uri: "docs://readme" })).response
      assertValid2026(read, "resources/read")
      assert.strictEqual(resultOf(read).ttlMs, 60_000)
      assert.strictEqual(resultOf(read).cacheScope, "public")
      // the other lists keep the default
      const list = (yield* call("resources/list", { _meta: envelope() })).response
      assertValid2026(list, "resources/list")
      assert.strictEqual(resultOf(list).cacheScope, "private")
    }))

  it.effect("caching hints per feature: a resource's own for its reads, a feature's caps the list holding it", () =>
    Effect.gen(function*() {
      const Pinned = McpServer.resource({
        uri: "docs://pinned",
        name: "pinned",
        cacheHint: { ttlMs: 5_000, cacheScope: "public" },
        content: Effect.succeed("stable")
      })
      const Volatile = McpServer.tool({
        name: "volatile",
        cacheHint: { ttlMs: 1_000, cacheScope: "private" },
        handler: () => Effect.succeed("v")
      })
      const server = yield* buildServer(McpServer.register(Echo, Pinned, Volatile), {
        cacheHints: {
          "tools/list": { ttlMs: 60_000, cacheScope: "public" },
          "resources/list": { ttlMs: 60_000, cacheScope: "public" },
          "resources/read": { ttlMs: 10, cacheScope: "private" }
        }
      })
      const pair = yield* Transport.makeMemoryPair()
      yield* Effect.forkScoped(server.serve(pair.server))
      const inbox = yield* Queue.unbounded<JsonRpc.Frame>()
      yield* Transport.incoming(pair.client).pipe(Stream.runForEach((f) => Queue.offer(inbox, f)), Effect.forkScoped)
      const ask = (id: number, method: string, params: Record<string, unknown>) =>
        Effect.andThen(
          pair.client.send({ jsonrpc: "2.0", id, method, params: { _meta: envelope(), ...params } } as never),
          Queue.take(inbox)
        ) as Effect.Effect<JsonRpc.Response>
      const tools = yield* ask(1, "tools/list", {})
      assertValid2026(tools, "tools/list")
      assert.include(resultOf(tools), { ttlMs: 1_000, cacheScope: "private" })
      // the hint is not part of the published definition
      assert.isUndefined(resultOf(tools).tools.find((t: { name: string }) => t.name === "volatile").cacheHint)
      const resources = yield* ask(2, "resources/list", {})
      assert.include(resultOf(resources), { ttlMs: 5_000, cacheScope: "public" })
      const read = yield* ask(3, "resources/read", { uri: "docs://pinned" })
      assertValid2026(read, "resources/read")
      assert.include(resultOf(read), { ttlMs: 5_000, cacheScope: "public" })
    }))

  it.effect("a connection opened by server/discover is 2026: a request without an envelope is -32602, a batch -32600", () =>
    Effect.gen(function*() {
      const { call, inbox, send } = yield* rawClient()
      yield* call("server/discover", { _meta: envelope() })
      const bare = (yield* call("tools/list", {}, 5)).response
      assert.strictEqual(errorOf(bare).code, -32602)
      yield* send([
        { jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: envelope() } },
        { jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: envelope() } }
      ] as never)
      const refused = (yield* Queue.take(inbox)) as JsonRpc.Response
      assert.strictEqual(errorOf(refused).code, -32600)
    }))

  it.effect("2025 traffic is unchanged: initialize, then plain requests, no resultType", () =>
    Effect.gen(function*() {
      const { call, pair } = yield* rawClient()
      const init = (yield* call("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" }
      }, 1)).response
      assert.strictEqual(resultOf(init).protocolVersion, "2025-11-25")
      yield* pair.client.send({ jsonrpc: "2.0", method: "notifications/initialized" })
      const list = (yield* call("tools/list", undefined, 2)).response
      assert.isUndefined(resultOf(list).resultType)
      assert.isUndefined(resultOf(list).ttlMs)
      const who = (yield* call("tools/call", { name: "whoami" }, 3)).response
      assert.include(JSON.parse(resultOf(who).content[0].text), { era: "2025", client: "old", version: "2025-11-25" })
      const ping = (yield* call("ping", undefined, 4)).response
      assert.deepStrictEqual(resultOf(ping), {})
      assertWireValid(pair.wire)
    }))

  it.effect("eras: \"2025\" ignores envelopes and has no server/discover", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient({ eras: "2025" })
      const discover = (yield* call("server/discover", { _meta: envelope() })).response
      assert.strictEqual(errorOf(discover).code, -32601)
      const list = (yield* call("tools/list", { _meta: envelope() })).response
      assert.isUndefined(resultOf(list).resultType)
    }))

  it.effect("eras: \"2026\" answers initialize and envelope-less requests -32022, never the 2025 path", () =>
    Effect.gen(function*() {
      const { call } = yield* rawClient({ eras: "2026" })
      const init = (yield* call("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "old", version: "1" }
      }, 1)).response
      assert.deepStrictEqual(errorOf(init).data, { supported: [V], requested: "2025-11-25" })
      const bare = (yield* call("tools/list", undefined, 2)).response
      assert.strictEqual(errorOf(bare).code, -32022)
      assert.deepStrictEqual(errorOf(bare).data, { supported: [V] })
      const list = (yield* call("tools/list", { _meta: envelope() }, 3)).response
      assertValid2026(list, "tools/list")
    }))
})

