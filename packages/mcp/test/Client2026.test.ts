/**
 * The client on the 2026-07-28 path against scripted servers on an in-memory wire: era
 * negotiation (auto, pinned, 2025), the envelope, −32022, InputRequiredResult rounds, the
 * x-mcp-header rules and the header values. Every client request is checked against the
 * official 2026-07-28 JSON Schema (`ClientRequest`).
 */
import { assert, describe, it } from "@effect/vitest"
import Ajv2020 from "ajv/dist/2020.js"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError, ProtocolError } from "@effect-mcp/mcp/McpError"
import * as Transport from "@effect-mcp/mcp/Transport"
import { fakePeer, initializeResult } from "./utils/wire.js"
import { sleepers, until } from "./utils/virtualTime.js"

const schema2026 = JSON.parse(
  readFileSync(fileURLToPath(new URL("./fixtures/spec/2026-07-28/schema.json", import.meta.url)), "utf8")
) as object
const ajv = new Ajv2020.default({ strict: false, allErrors: true })
ajv.addSchema(schema2026, "mcp2026")
const validClientRequest = ajv.getSchema("mcp2026#/$defs/ClientRequest")!

const V = "2026-07-28"
const PV = "io.modelcontextprotocol/protocolVersion"
const CAPS = "io.modelcontextprotocol/clientCapabilities"
const INFO = "io.modelcontextprotocol/clientInfo"

const discoverResult = (id: JsonRpc.RequestId, capabilities: object = { tools: {}, resources: {}, prompts: {} }) =>
  JsonRpc.success(id, {
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "private",
    supportedVersions: [V],
    capabilities,
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "fake-2026", version: "9" } }
  })

/** The client's requests as they crossed, each checked against the 2026 schema. */
const clientRequests = (pair: Transport.MemoryPair) =>
  pair.wire.filter((r) => r.from === "client").map((r) => JSON.parse(r.json) as JsonRpc.Request).filter((m) =>
    JsonRpc.isRequest(m)
  )

const assertValid2026 = (requests: ReadonlyArray<JsonRpc.Request>) => {
  for (const request of requests) {
    assert.isTrue(validClientRequest(request), `${request.method}: ${JSON.stringify(validClientRequest.errors)}`)
  }
}

const elicitAccept = {
  form: () => Effect.succeed({ action: "accept" as const, content: { ok: true } })
}

const connect = (pair: Transport.MemoryPair, options: Partial<McpClient.ClientOptions> = {}) =>
  McpClient.make({ name: "c", version: "1", ...options } as McpClient.ClientOptions).pipe(
    Effect.provideService(Transport.Transport, pair.client)
  ) as Effect.Effect<McpClient.McpClientShape, McpClient.ClientError, import("effect/Scope").Scope>

describe("era negotiation", () => {
  it.effect("auto: a discover result naming 2026 settles on 2026, with the server's info and capabilities", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (r) =>
        r.method === "server/discover"
          ? discoverResult(r.id)
          : JsonRpc.success(r.id, { tools: [] }))
      const client = yield* connect(pair)
      assert.strictEqual(client.era, "2026")
      assert.strictEqual(client.protocolVersion, V)
      assert.deepStrictEqual(client.serverInfo, { name: "fake-2026", version: "9" })
      assert.deepStrictEqual(client.serverCapabilities, { tools: {}, resources: {}, prompts: {} })
      yield* client.listToolsAll()
      const sent = clientRequests(pair)
      assert.deepStrictEqual(sent.map((r) => r.method), ["server/discover", "tools/list"])
      for (const r of sent) {
        const meta = (r.params as { _meta: Record<string, unknown> })._meta
        assert.strictEqual(meta[PV], V)
        assert.deepStrictEqual(meta[CAPS], {})
        assert.deepStrictEqual(meta[INFO], { name: "c", version: "1" })
      }
      assertValid2026(sent)
      // a capability the server did not declare is refused before anything is sent
      const error = yield* Effect.flip(client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }))
      assert.strictEqual((error as ProtocolError).reason, "CapabilityMissing")
    }))

  it.effect("auto: -32601 to discover (a 2025 server) falls back to initialize", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (r) =>
        r.method === "initialize"
          ? initializeResult(r.id, { tools: {} })
          : JsonRpc.failure(r.id, { code: -32601, message: "Method not found" }))
      const client = yield* connect(pair)
      assert.strictEqual(client.era, "2025")
      assert.deepStrictEqual(clientRequests(pair).map((r) => r.method), ["server/discover", "initialize"])
    }))

  it.effect("auto: a discover result without a 2026 version we speak, or not a discover result, falls back", () =>
    Effect.gen(function*() {
      for (const result of [{ supportedVersions: ["2027-01-01"], capabilities: {} }, { hello: "world" }]) {
        const pair = yield* Transport.makeMemoryPair()
        yield* fakePeer(pair.server, (r) =>
          r.method === "initialize" ? initializeResult(r.id) : JsonRpc.success(r.id, result))
        const client = yield* connect(pair)
        assert.strictEqual(client.era, "2025", JSON.stringify(result))
      }
    }))

  it.effect("auto: -32022 offering only 2025 versions falls back; offering 2026 retries at it", () =>
    Effect.gen(function*() {
      const only2025 = yield* Transport.makeMemoryPair()
      yield* fakePeer(only2025.server, (r) =>
        r.method === "initialize"
          ? initializeResult(r.id)
          : JsonRpc.failure(r.id, { code: -32022, message: "Unsupported", data: { supported: ["2025-11-25"] } }))
      assert.strictEqual((yield* connect(only2025)).era, "2025")

      const pair = yield* Transport.makeMemoryPair()
      let refused = 0
      yield* fakePeer(pair.server, (r) => {
        if (refused++ === 0) {
          return JsonRpc.failure(r.id, {
            code: -32022,
            message: "Unsupported protocol version",
            data: { supported: ["2030-01-01", V], requested: V }
          })
        }
        return r.method === "server/discover" ? discoverResult(r.id) : undefined
      })
      const client = yield* connect(pair)
      assert.strictEqual(client.era, "2026")
      const sent = clientRequests(pair)
      assert.deepStrictEqual(sent.map((r) => r.method), ["server/discover", "server/discover"])
      assert.notStrictEqual(sent[0]!.id, sent[1]!.id)
    }))

  it.effect("a -32022 is retried once, never in a loop", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (r) =>
        JsonRpc.failure(r.id, { code: -32022, message: "Unsupported", data: { supported: [V] } }))
      const error = yield* Effect.flip(connect(pair, { era: V }))
      assert.instanceOf(error, McpError)
      assert.strictEqual((error as McpError).code, -32022)
      assert.strictEqual(clientRequests(pair).length, 2)
    }))

  it.effect("auto: no answer within probeTimeout (on the Clock) falls back to initialize", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      // a server that ignores everything before initialize
      yield* fakePeer(pair.server, (r) => (r.method === "initialize" ? initializeResult(r.id) : undefined))
      const fiber = yield* Effect.forkChild(connect(pair, { probeTimeout: "2 seconds" }))
      yield* sleepers(1)
      yield* TestClock.adjust("1999 millis")
      assert.isUndefined(fiber.pollUnsafe())
      yield* TestClock.adjust("1 millis")
      const client = yield* Fiber.join(fiber)
      assert.strictEqual(client.era, "2025")
      const methods = pair.wire.filter((r) => r.from === "client").map((r) => JSON.parse(r.json).method)
      // initialize went out beside the pending probe, and won: the probe is cancelled
      assert.deepStrictEqual(methods, ["server/discover", "initialize", "notifications/cancelled", "notifications/initialized"])
    }))

  it.effect("auto: a slow server's late answer to the probe still wins over initialize's (its era is fixed by the first message)", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const held: Array<JsonRpc.Request> = []
      // a server still starting: it answers nothing until both messages are queued, then in order
      yield* fakePeer(pair.server, (r) => {
        held.push(r)
        return undefined
      })
      const fiber = yield* Effect.forkChild(connect(pair, { probeTimeout: "1 second" }))
      yield* sleepers(1)
      yield* TestClock.adjust("1 second")
      yield* until(() => held.length === 2)
      assert.deepStrictEqual(held.map((r) => r.method), ["server/discover", "initialize"])
      yield* pair.server.send(discoverResult(held[0]!.id))
      yield* pair.server.send(JsonRpc.failure(held[1]!.id, { code: -32600, message: "this connection speaks 2026" }))
      const client = yield* Fiber.join(fiber)
      assert.strictEqual(client.era, "2026")
      // and the same slow server answering initialize first is a 2025 one
      const pair2 = yield* Transport.makeMemoryPair()
      const held2: Array<JsonRpc.Request> = []
      yield* fakePeer(pair2.server, (r) => {
        held2.push(r)
        return undefined
      })
      const fiber2 = yield* Effect.forkChild(connect(pair2, { probeTimeout: "1 second" }))
      yield* sleepers(1)
      yield* TestClock.adjust("1 second")
      yield* until(() => held2.length === 2)
      yield* pair2.server.send(initializeResult(held2[1]!.id))
      assert.strictEqual((yield* Fiber.join(fiber2)).era, "2025")
    }))

  it.effect("auto: the recognised 2026 errors -32020 and -32021 keep the client on 2026", () =>
    Effect.gen(function*() {
      for (const code of [-32020, -32021]) {
        const pair = yield* Transport.makeMemoryPair()
        yield* fakePeer(pair.server, (r) =>
          r.method === "server/discover" ? JsonRpc.failure(r.id, { code, message: "no" }) : JsonRpc.success(r.id, { tools: [] }))
        const client = yield* connect(pair)
        assert.strictEqual(client.era, "2026", String(code))
        // no discover result: nothing is refused locally
        yield* client.listToolsAll()
      }
    }))

  it.effect("pinned: a server that does not answer discover is still spoken to on 2026", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (r) =>
        r.method === "server/discover"
          ? JsonRpc.failure(r.id, { code: -32601, message: "Method not found" })
          : JsonRpc.success(r.id, { content: [{ type: "text", text: "ok" }] }))
      const client = yield* connect(pair, { era: V })
      assert.strictEqual(client.era, "2026")
      assert.deepStrictEqual(client.serverCapabilities, {})
      const result = yield* client.callTool("anything", {})
      assert.deepStrictEqual(result.content, [{ type: "text", text: "ok" }])
      assert.isFalse(clientRequests(pair).some((r) => r.method === "initialize"))
    }))

  it.effect("pinned: a discover result without our version fails, and so does one that is not a discover result", () =>
    Effect.gen(function*() {
      for (const result of [{ supportedVersions: ["2025-11-25"], capabilities: {} }, { supportedVersions: "2026-07-28" }]) {
        const pair = yield* Transport.makeMemoryPair()
        yield* fakePeer(pair.server, (r) => JsonRpc.success(r.id, result))
        const error = yield* Effect.flip(connect(pair, { era: V }))
        assert.instanceOf(error, ProtocolError, JSON.stringify(result))
      }
    }))

  it.effect("era 2025 sends no probe", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (r) => (r.method === "initialize" ? initializeResult(r.id) : undefined))
      const client = yield* connect(pair, { era: "2025" })
      assert.strictEqual(client.era, "2025")
      assert.strictEqual(clientRequests(pair)[0]!.method, "initialize")
    }))

  it.effect("auto: an initialize refused with -32022 offering 2026 moves the client to 2026", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      let probes = 0
      yield* fakePeer(pair.server, (r) => {
        // the first probe is lost (a server still starting); initialize is refused
        if (r.method === "server/discover" && probes++ === 0) return undefined
        if (r.method === "initialize") {
          return JsonRpc.failure(r.id, { code: -32022, message: "Unsupported", data: { supported: [V] } })
        }
        return discoverResult(r.id)
      })
      const fiber = yield* Effect.forkChild(connect(pair))
      yield* sleepers(1)
      yield* TestClock.adjust("3 seconds")
      const client = yield* Fiber.join(fiber)
      assert.strictEqual(client.era, "2026")
      assert.strictEqual(client.serverInfo.name, "fake-2026")
    }))
})

const inputRequired = (id: JsonRpc.RequestId, extra: object) =>
  JsonRpc.success(id, { resultType: "input_required", ...extra })

const elicitRequest = { method: "elicitation/create", params: { message: "ok?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } }

/** A fake 2026 server whose tools/call answers come from `call` (discover answered). */
const server2026 = (pair: Transport.MemoryPair, call: (request: JsonRpc.Request) => JsonRpc.Response | undefined) =>
  fakePeer(pair.server, (r) => (r.method === "server/discover" ? discoverResult(r.id) : call(r)))

const paramsOf = (r: JsonRpc.Request) => r.params as Record<string, unknown>

describe("multi-round-trip requests", () => {
  it.effect("each round is a new request with the original params, inputResponses and the exact requestState", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const state = `{"opaque": "ü\\n", "n": 1}`
      yield* server2026(pair, (r) => {
        const p = paramsOf(r)
        if (p.inputResponses === undefined) return inputRequired(r.id, { inputRequests: { confirm: elicitRequest }, requestState: state })
        if (p.requestState === state) {
          return inputRequired(r.id, {
            inputRequests: { roots: { method: "roots/list" }, again: elicitRequest }
          })
        }
        return JsonRpc.success(r.id, { content: [{ type: "text", text: JSON.stringify(p.inputResponses) }] })
      })
      const client = yield* connect(pair, {
        elicitation: elicitAccept,
        roots: [{ uri: "file:///r", name: "r" }]
      })
      const result = yield* client.callTool("t", { a: 1 })
      assert.deepStrictEqual(JSON.parse((result.content[0] as { text: string }).text), {
        roots: { roots: [{ uri: "file:///r", name: "r" }] },
        again: { action: "accept", content: { ok: true } }
      })
      const calls = clientRequests(pair).filter((r) => r.method === "tools/call")
      assert.strictEqual(calls.length, 3)
      assert.strictEqual(new Set(calls.map((c) => c.id)).size, 3)
      for (const c of calls) assert.deepStrictEqual(paramsOf(c).arguments, { a: 1 })
      assert.isUndefined(paramsOf(calls[0]!).requestState)
      assert.strictEqual(paramsOf(calls[1]!).requestState, state)
      assert.deepStrictEqual(paramsOf(calls[1]!).inputResponses, { confirm: { action: "accept", content: { ok: true } } })
      // the second answer had no requestState: the third round carries none
      assert.isFalse("requestState" in paramsOf(calls[2]!))
      assertValid2026(calls)
    }))

  it.effect("a result without resultType is complete; parallel calls keep their rounds apart", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* server2026(pair, (r) => {
        const p = paramsOf(r)
        if (p.name === "plain") return JsonRpc.success(r.id, { content: [{ type: "text", text: "plain" }] })
        return p.requestState === undefined
          ? inputRequired(r.id, { inputRequests: { q: elicitRequest }, requestState: `state-of-${p.name}` })
          : JsonRpc.success(r.id, { content: [{ type: "text", text: String(p.requestState) }] })
      })
      const client = yield* connect(pair, { elicitation: elicitAccept })
      const results = yield* Effect.all(
        ["a", "plain", "b"].map((name) => client.callTool(name, {})),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(results.map((r) => (r.content[0] as { text: string }).text), ["state-of-a", "plain", "state-of-b"])
      const plain = clientRequests(pair).filter((r) => paramsOf(r).name === "plain")
      assert.strictEqual(plain.length, 1)
      assert.isUndefined(paramsOf(plain[0]!).inputResponses)
    }))

  it.effect("rounds are bounded by maxInputRounds", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* server2026(pair, (r) => inputRequired(r.id, { requestState: "more" }))
      const client = yield* connect(pair, { maxInputRounds: 3 })
      const error = yield* Effect.flip(client.callTool("t", {}))
      assert.strictEqual((error as ProtocolError).reason, "LimitExceeded")
      assert.strictEqual(clientRequests(pair).filter((r) => r.method === "tools/call").length, 4)
    }))

  it.effect("an InputRequiredResult with neither inputRequests nor requestState, or malformed, is InvalidResult", () =>
    Effect.gen(function*() {
      for (const bad of [{}, { inputRequests: [] }, { requestState: 7 }, { inputRequests: "x" }]) {
        const pair = yield* Transport.makeMemoryPair()
        yield* server2026(pair, (r) => inputRequired(r.id, bad))
        const client = yield* connect(pair)
        const error = yield* Effect.flip(client.callTool("t", {}))
        assert.strictEqual((error as ProtocolError).reason, "InvalidResult", JSON.stringify(bad))
      }
    }))

  it.effect("an input request the client has no handler for, or whose handler fails, fails the call", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* server2026(pair, (r) =>
        paramsOf(r).name === "sample"
          ? inputRequired(r.id, { inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } } })
          : paramsOf(r).name === "bad"
          ? inputRequired(r.id, { inputRequests: { e: { method: "elicitation/create", params: { nope: true } } } })
          : inputRequired(r.id, { inputRequests: { e: elicitRequest } }))
      const client = yield* connect(pair, {
        elicitation: { form: () => Effect.fail(new (McpError)({ code: -1, message: "user closed the dialog" })) }
      })
      const noHandler = yield* Effect.flip(client.callTool("sample", {}))
      assert.strictEqual((noHandler as ProtocolError).reason, "InputRequest")
      assert.include(noHandler.message, "sampling/createMessage")
      const failed = yield* Effect.flip(client.callTool("ask", {}))
      assert.strictEqual((failed as ProtocolError).reason, "InputRequest")
      assert.include(failed.message, "user closed the dialog")
      const invalid = yield* Effect.flip(client.callTool("bad", {}))
      assert.strictEqual((invalid as ProtocolError).reason, "InputRequest")
      assert.include(invalid.message, "Invalid params")
    }))

  it.effect("interrupting the call stops the rounds and cancels the round in flight", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      let rounds = 0
      yield* server2026(pair, (r) => {
        rounds++
        return paramsOf(r).requestState === undefined ? inputRequired(r.id, { requestState: "1" }) : undefined
      })
      const client = yield* connect(pair)
      const fiber = yield* Effect.forkChild(client.callTool("t", {}))
      yield* until(() => rounds === 2)
      yield* Fiber.interrupt(fiber)
      const cancelled = pair.wire.filter((r) => r.from === "client" && JSON.parse(r.json).method === "notifications/cancelled")
      assert.strictEqual(cancelled.length, 1)
      const second = clientRequests(pair).filter((r) => r.method === "tools/call")[1]!
      assert.strictEqual(JSON.parse(cancelled[0]!.json).params.requestId, second.id)
      assert.strictEqual(rounds, 2)
    }))

  it.effect("tools/list drops tools with invalid x-mcp-header annotations; calls carry Mcp-Param-* routes", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const routes: Array<Transport.Route | undefined> = []
      const client0 = Transport.tap(pair.client, {
        outgoing: (message, route) =>
          Effect.sync(() => {
            if (!Array.isArray(message) && (message as JsonRpc.Request).method === "tools/call") routes.push(route)
          })
      })
      yield* server2026(pair, (r) =>
        r.method === "tools/list"
          ? JsonRpc.success(r.id, {
            tools: [
              { name: "good", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, n: { type: "integer", "x-mcp-header": "N" } } } },
              { name: "bad", inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } } }
            ]
          })
          : JsonRpc.success(r.id, { content: [] }))
      const client = yield* McpClient.make({ name: "c", version: "1" }).pipe(Effect.provideService(Transport.Transport, client0))
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools.map((t) => t.name), ["good"])
      yield* client.callTool("good", { region: " eu ", n: 3 })
      assert.deepStrictEqual(routes[0]?.headers, { "mcp-param-region": "=?base64?IGV1IA==?=", "mcp-param-n": "3" })
    }))
})

describe("listen", () => {
  it.effect("2026: acknowledged first; yields its subscription's asked-for notifications; no timeout; ends with the request", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      let listenId: JsonRpc.RequestId | undefined
      yield* server2026(pair, (r) => {
        if (r.method === "subscriptions/listen") listenId = r.id
        return undefined
      })
      const client = yield* connect(pair)
      const fiber = yield* Effect.forkChild(Stream.runCollect(client.listen({ toolsListChanged: true, resources: ["file:///a"] })))
      yield* until(() => listenId !== undefined)
      const listenRequest = clientRequests(pair).find((r) => r.method === "subscriptions/listen")!
      assert.deepStrictEqual(paramsOf(listenRequest).notifications, { toolsListChanged: true, resourceSubscriptions: ["file:///a"] })
      assertValid2026([listenRequest])
      const tagged = (id: unknown) => ({ _meta: { "io.modelcontextprotocol/subscriptionId": id } })
      const note = (method: string, params: JsonRpc.Params) => pair.server.send(JsonRpc.notification(method, params))
      // nothing before the acknowledgement is yielded... and what comes after is
      yield* note("notifications/subscriptions/acknowledged", { ...tagged(listenId), notifications: { toolsListChanged: true } })
      yield* note("notifications/tools/list_changed", tagged(listenId))
      yield* note("notifications/tools/list_changed", tagged("another")) // another subscription's
      yield* note("notifications/prompts/list_changed", tagged(listenId)) // not asked for
      yield* note("notifications/resources/updated", { ...tagged(listenId), uri: "file:///b" }) // not asked for
      yield* note("notifications/resources/updated", { ...tagged(listenId), uri: "file:///a" })
      // an hour later it is still open: no timeout
      yield* TestClock.adjust("1 hour")
      assert.isUndefined(fiber.pollUnsafe())
      yield* pair.server.send(JsonRpc.success(listenId!, { resultType: "complete", _meta: tagged(listenId)._meta }))
      const got = yield* Fiber.join(fiber)
      assert.deepStrictEqual([...got].map((n) => n.method), ["notifications/tools/list_changed", "notifications/resources/updated"])
    }))

  it.effect("2026: a refusal before the acknowledgement fails the stream", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* server2026(pair, (r) => JsonRpc.failure(r.id, { code: -32601, message: "no listen here" }))
      const client = yield* connect(pair)
      const error = yield* Effect.flip(Stream.runDrain(client.listen({ toolsListChanged: true })))
      assert.strictEqual((error as McpError).code, -32601)
    }))

  it.effect("2025: the filter's resources are subscribed for the life of the stream; list changes come from the session", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (r) =>
        r.method === "initialize"
          ? initializeResult(r.id, { resources: { subscribe: true }, tools: { listChanged: true } })
          : JsonRpc.success(r.id, {}))
      const client = yield* connect(pair, { era: "2025" })
      const got = yield* Effect.forkChild(Stream.runCollect(Stream.take(client.listen({ toolsListChanged: true, resources: ["file:///a"] }), 2)))
      yield* until(() => clientRequests(pair).some((r) => r.method === "resources/subscribe"))
      // the stream yields once the subscription is answered
      yield* until(() => pair.wire.filter((w) => w.from === "server").length >= 2)
      yield* pair.server.send(JsonRpc.notification("notifications/prompts/list_changed", {}))
      yield* pair.server.send(JsonRpc.notification("notifications/tools/list_changed", {}))
      yield* pair.server.send(JsonRpc.notification("notifications/resources/updated", { uri: "file:///a" }))
      const notes = yield* Fiber.join(got)
      assert.deepStrictEqual([...notes].map((n) => n.method), ["notifications/tools/list_changed", "notifications/resources/updated"])
      yield* until(() => clientRequests(pair).some((r) => r.method === "resources/unsubscribe"))
    }))
})

describe("caching", () => {
  it.effect("lists and reads are kept for their ttlMs; list changes and resource updates drop them; ttlMs 0 is not kept", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const count: Record<string, number> = {}
      yield* server2026(pair, (r) => {
        const key = `${r.method} ${String(paramsOf(r).uri ?? "")}`.trim()
        count[key] = (count[key] ?? 0) + 1
        switch (r.method) {
          case "tools/list":
            return JsonRpc.success(r.id, { resultType: "complete", ttlMs: 60_000, cacheScope: "private", tools: [{ name: "t", inputSchema: { type: "object" } }] })
          case "prompts/list":
            return JsonRpc.success(r.id, { resultType: "complete", ttlMs: 0, cacheScope: "public", prompts: [] })
          case "resources/read":
            return JsonRpc.success(r.id, { resultType: "complete", ttlMs: 60_000, cacheScope: "public", contents: [{ uri: paramsOf(r).uri, text: "x" }] })
          default:
            return JsonRpc.failure(r.id, { code: -32601, message: "no" })
        }
      })
      const client = yield* connect(pair)
      const first = yield* client.listToolsAll()
      yield* client.listToolsAll()
      assert.strictEqual(count["tools/list"], 1)
      assert.deepStrictEqual(first.map((t) => t.name), ["t"])
      // the caching hints are the cache's: the calls do not see them
      const page = yield* client.request("tools/list")
      assert.deepStrictEqual(page, { tools: [{ name: "t", inputSchema: { type: "object" } }] })
      yield* TestClock.adjust("60001 millis")
      yield* client.listToolsAll()
      assert.strictEqual(count["tools/list"], 2)
      yield* pair.server.send(JsonRpc.notification("notifications/tools/list_changed", {}))
      yield* Effect.repeat(Effect.yieldNow, { times: 50 })
      yield* client.listToolsAll()
      assert.strictEqual(count["tools/list"], 3)
      yield* client.listPromptsAll()
      yield* client.listPromptsAll()
      assert.strictEqual(count["prompts/list"], 2)
      yield* client.readResource("file:///a")
      yield* client.readResource("file:///a")
      yield* client.readResource("file:///b")
      assert.strictEqual(count["resources/read file:///a"], 1)
      yield* pair.server.send(JsonRpc.notification("notifications/resources/updated", { uri: "file:///a" }))
      yield* Effect.repeat(Effect.yieldNow, { times: 50 })
      yield* client.readResource("file:///a")
      yield* client.readResource("file:///b")
      assert.strictEqual(count["resources/read file:///a"], 2)
      assert.strictEqual(count["resources/read file:///b"], 1)
      // a failure is not kept
      yield* Effect.flip(client.listResourcesAll())
      yield* Effect.flip(client.listResourcesAll())
      assert.strictEqual(count["resources/list"], 2)
    }))
})

describe("a call refused for its headers (-32020)", () => {
  it.effect("a tool not listed yet: the tools are listed and the call is made once more with its headers", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const routes: Array<Readonly<Record<string, string>> | undefined> = []
      const tapped = Transport.tap(pair.client, {
        outgoing: (message, route) =>
          Effect.sync(() => {
            if (!Array.isArray(message) && (message as JsonRpc.Request).method === "tools/call") routes.push(route?.headers)
          })
      })
      let lists = 0
      yield* server2026(pair, (r) => {
        if (r.method === "tools/list") {
          lists++
          return JsonRpc.success(r.id, {
            tools: [{ name: "region", inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } } }]
          })
        }
        const name = paramsOf(r).name
        return routes[routes.length - 1]?.["mcp-param-r"] === undefined
          ? JsonRpc.failure(r.id, { code: -32020, message: "Header mismatch" })
          : JsonRpc.success(r.id, { content: [{ type: "text", text: String(name) }] })
      })
      const client = yield* McpClient.make({ name: "c", version: "1" }).pipe(Effect.provideService(Transport.Transport, tapped))
      const result = yield* client.callTool("region", { r: "eu" })
      assert.deepStrictEqual(result.content, [{ type: "text", text: "region" }])
      assert.deepStrictEqual(routes, [undefined, { "mcp-param-r": "eu" }])
      assert.strictEqual(lists, 1)
      // a tool the listing does not know: the error, after one listing
      const error = yield* Effect.flip(client.callTool("other", { r: "eu" }))
      assert.strictEqual((error as McpError).code, -32020)
      assert.strictEqual(lists, 2)
      // a listed tool refused again is not retried
      routes.length = 0
      const again = yield* Effect.flip(client.callTool("region", {}))
      assert.strictEqual((again as McpError).code, -32020)
      assert.strictEqual(routes.length, 1)
    }))
})
