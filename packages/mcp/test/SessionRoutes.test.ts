/**
 * The streamable HTTP endpoint's session registry and POST routing, driven
 * through `respond` (no socket) under the TestClock: duplicate in-flight ids,
 * cancelled requests, the idle sweep and keep-alive (on both HTTP servers).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Headers from "effect/http/Headers"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"

/** What the tests look at in a response: its status, session header and body text. */
const read = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function*() {
    const body = response.body
    let text = ""
    switch (body._tag) {
      case "Raw":
        text = typeof body.body === "string" ? body.body : new TextDecoder().decode(body.body as Uint8Array)
        break
      case "Uint8Array":
        text = new TextDecoder().decode(body.body)
        break
      case "Stream":
        text = yield* Stream.runFold(body.stream, () => "", (acc, bytes) => acc + new TextDecoder().decode(bytes)).pipe(Effect.orDie)
        break
      default:
        break
    }
    return { status: response.status, session: response.headers["mcp-session-id"], text }
  })

/** The JSON-RPC messages of a JSON or SSE body. */
const messages = (text: string): Array<any> => {
  const trimmed = text.trim()
  if (trimmed === "") return []
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const parsed = JSON.parse(trimmed)
    return Array.isArray(parsed) ? parsed : [parsed]
  }
  return trimmed.split("\n\n").flatMap((block) =>
    block.split("\n").filter((line) => line.startsWith("data: ") && line.length > 6).map((line) => JSON.parse(line.slice(6)))
  )
}

/**
 * Runs in real time: with the TestClock's live clock (v3's `TestServices.provideLive`). Nested, it
 * is real time already: v4's `TestClock.withLive` needs the TestClock in context, and finds the
 * live clock there.
 */
const live = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.clockWith((clock) => "withLive" in clock ? (clock as TestClock.TestClock).withLive(effect) : effect)

/** Waits in real time (the TestClock stands still) for an effect to finish, failing the test if it does not. */
const within = <A, E>(effect: Effect.Effect<A, E>, what: string) =>
  live(
    effect.pipe(Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail(new Error(`${what} never finished`)) }))
  )

/** Reads a streamed body as it comes, into a text the test looks at. */
const collect = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function*() {
    const text = yield* Ref.make("")
    const body = response.body
    assert.strictEqual(body._tag, "Stream")
    if (body._tag !== "Stream") return text
    const decoder = new TextDecoder()
    yield* Effect.forkScoped(Stream.runForEach(body.stream, (bytes) => Ref.update(text, (t) => t + decoder.decode(bytes))))
    return text
  })

/** Lets the fibers the TestClock woke run (a few real milliseconds), then reads the text. */
const settled = (text: Ref.Ref<string>) => Effect.andThen(live(Effect.sleep("30 millis")), Ref.get(text))

/** Waits in real time for the text to hold `part` (the TestClock stands still). */
const eventually = (text: Ref.Ref<string>, part: string) =>
  within(
    Effect.gen(function*() {
      while (!(yield* Ref.get(text)).includes(part)) yield* live(Effect.sleep("5 millis"))
    }),
    `a stream showing ${JSON.stringify(part)}`
  )

const setup = (options: StreamableHttpServer.Options) =>
  Effect.gen(function*() {
    const started = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const Wait = McpServer.tool({
      name: "wait",
      description: "answers once released",
      parameters: Schema.Struct({}),
      handler: () => Deferred.succeed(started, undefined).pipe(Effect.andThen(Deferred.await(release)), Effect.as("released"))
    })
    const Echo = McpServer.tool({
      name: "echo",
      description: "echo",
      parameters: Schema.Struct({ text: Schema.String }),
      handler: ({ text }) => Effect.succeed(text)
    })
    const context = yield* Layer.build(
      McpServer.register(Wait, Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "routes", version: "1.0.0" })))
    )
    const endpoint = yield* StreamableHttpServer.make({ dnsRebindingProtection: false, ...options }).pipe(Effect.provide(context))
    const post = (body: unknown, sessionId?: string) =>
      endpoint.respond({
        method: "POST",
        headers: Headers.fromInput({
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId })
        }),
        arrayBuffer: Effect.succeed(new TextEncoder().encode(JSON.stringify(body)))
      })
    const initialize = (protocolVersion = "2025-11-25") =>
      Effect.gen(function*() {
        const init = yield* read(
          yield* post({
            jsonrpc: "2.0",
            id: 0,
            method: "initialize",
            params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } }
          })
        )
        const sid = init.session!
        yield* post({ jsonrpc: "2.0", method: "notifications/initialized" }, sid)
        return sid
      })
    const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args }
    })
    const get = (sessionId: string) =>
      endpoint.respond({
        method: "GET",
        headers: Headers.fromInput({ accept: "text/event-stream", "mcp-session-id": sessionId }),
        arrayBuffer: Effect.succeed(new Uint8Array(0))
      })
    return { endpoint, post, get, initialize, call, started, release }
  })

describe("StreamableHttpServer routes", () => {
  it.effect("a duplicate in-flight id is refused on its own POST; the original keeps its route and result", () =>
    Effect.gen(function*() {
      const t = yield* setup({ jsonResponse: true })
      const sid = yield* t.initialize()
      const original = yield* Effect.forkChild(Effect.flatMap(t.post(t.call(7, "wait"), sid), read))
      yield* Deferred.await(t.started)
      const duplicate = yield* read(yield* t.post(t.call(7, "echo", { text: "again" }), sid))
      assert.strictEqual(duplicate.status, 200)
      assert.deepStrictEqual(messages(duplicate.text).map((m) => [m.id, m.error?.code]), [[7, -32600]])
      yield* Deferred.succeed(t.release, undefined)
      const first = yield* within(Fiber.join(original), "the original request")
      const answers = messages(first.text)
      assert.strictEqual(answers.length, 1)
      assert.strictEqual(answers[0].id, 7)
      assert.deepStrictEqual(answers[0].result.content, [{ type: "text", text: "released" }])
    }))

  it.effect("a batch with a duplicate id gets one answer for each: the result and a -32600", () =>
    Effect.gen(function*() {
      const t = yield* setup({ jsonResponse: true })
      const sid = yield* t.initialize("2025-03-26")
      const batch = yield* read(yield* t.post([t.call(1, "echo", { text: "a" }), t.call(1, "echo", { text: "b" })], sid))
      const answers = messages(batch.text)
      assert.strictEqual(answers.length, 2)
      assert.deepStrictEqual(answers.map((m) => m.id), [1, 1])
      assert.deepStrictEqual(answers.filter((m) => m.error !== undefined).map((m) => m.error.code), [-32600])
      assert.deepStrictEqual(answers.filter((m) => m.result !== undefined).map((m) => m.result.content[0].text), ["a"])
    }))

  it.effect("JSON mode: a cancelled request's POST is answered (202) and its session is then idle-reaped", () =>
    Effect.gen(function*() {
      const t = yield* setup({ jsonResponse: true, sessionIdleTimeout: "10 seconds" })
      const sid = yield* t.initialize()
      const pending = yield* Effect.forkChild(Effect.flatMap(t.post(t.call(5, "wait"), sid), read))
      yield* Deferred.await(t.started)
      const cancel = yield* read(yield* t.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }, sid))
      assert.strictEqual(cancel.status, 202)
      const answered = yield* within(Fiber.join(pending), "the cancelled request's POST")
      assert.strictEqual(answered.status, 202)
      assert.strictEqual(answered.text, "")
      // idle from now: kept within the timeout, gone after it
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual(yield* t.endpoint.sessionCount, 1)
      yield* TestClock.adjust("11 seconds")
      assert.strictEqual(yield* t.endpoint.sessionCount, 0)
    }))

  it.effect("SSE mode: a cancelled request's stream ends, and its session is then idle-reaped", () =>
    Effect.gen(function*() {
      const t = yield* setup({ sessionIdleTimeout: "10 seconds" })
      const sid = yield* t.initialize()
      const pending = yield* Effect.forkChild(t.post(t.call(5, "wait"), sid))
      yield* Deferred.await(t.started)
      // past the fast path: the answer is a stream, its headers out already
      yield* TestClock.adjust("1 second")
      const response = yield* Fiber.join(pending)
      assert.strictEqual(response.body._tag, "Stream")
      const body = yield* Effect.forkChild(read(response))
      yield* t.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }, sid)
      const streamed = yield* within(Fiber.join(body), "the cancelled request's stream")
      assert.deepStrictEqual(messages(streamed.text), [])
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual(yield* t.endpoint.sessionCount, 1)
      yield* TestClock.adjust("11 seconds")
      assert.strictEqual(yield* t.endpoint.sessionCount, 0)
    }))

  it.effect("the idle sweep follows the clock: a session used within the timeout stays", () =>
    Effect.gen(function*() {
      const t = yield* setup({ jsonResponse: true, sessionIdleTimeout: "1 minute" })
      const sid = yield* t.initialize()
      yield* TestClock.adjust("50 seconds")
      const echo = yield* read(yield* t.post(t.call(2, "echo", { text: "hi" }), sid))
      assert.strictEqual(echo.status, 200)
      yield* TestClock.adjust("50 seconds")
      assert.strictEqual(yield* t.endpoint.sessionCount, 1)
      yield* TestClock.adjust("2 minutes")
      assert.strictEqual(yield* t.endpoint.sessionCount, 0)
      const gone = yield* read(yield* t.post(t.call(3, "echo", { text: "hi" }), sid))
      assert.strictEqual(gone.status, 404)
    }))
})

describe("keep-alive on the clock", () => {
  it.effect("StreamableHttpServer: an open stream gets a keep-alive comment every interval, and only then", () =>
    Effect.gen(function*() {
      const t = yield* setup({ jsonResponse: true, keepAlive: "10 seconds" })
      const sid = yield* t.initialize()
      const text = yield* collect(yield* t.get(sid))
      yield* eventually(text, ": stream open")
      yield* TestClock.adjust("9 seconds")
      assert.notInclude(yield* settled(text), "keep-alive")
      yield* TestClock.adjust("1 second")
      yield* eventually(text, ": keep-alive\n\n")
      yield* TestClock.adjust("10 seconds")
      yield* within(
        Effect.gen(function*() {
          while ((yield* Ref.get(text)).split(": keep-alive").length < 3) yield* live(Effect.sleep("5 millis"))
        }),
        "a second keep-alive"
      )
    }))

  it.effect("LegacySseServer: the stream gets a keep-alive comment every interval, and only then", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(McpServer.layer({ name: "legacy", version: "1.0.0" }))
      const legacy = yield* LegacySseServer.make({ keepAlive: "10 seconds", dnsRebindingProtection: false }).pipe(
        Effect.provide(context)
      )
      const request = HttpServerRequest.fromWeb(new Request("http://localhost/sse", { headers: { accept: "text/event-stream" } }))
      const text = yield* collect(yield* legacy.sse.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request)))
      yield* eventually(text, "event: endpoint")
      yield* TestClock.adjust("9 seconds")
      assert.notInclude(yield* settled(text), "keep-alive")
      yield* TestClock.adjust("1 second")
      yield* eventually(text, ": keep-alive\n\n")
    }))
})

describe("LegacySseServer idle sweep", () => {
  it.effect("follows the clock: a session without a POST for the idle timeout is closed", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(McpServer.layer({ name: "legacy", version: "1.0.0" }))
      const legacy = yield* LegacySseServer.make({ sessionIdleTimeout: "1 minute", dnsRebindingProtection: false }).pipe(
        Effect.provide(context)
      )
      const request = HttpServerRequest.fromWeb(new Request("http://localhost/sse", { headers: { accept: "text/event-stream" } }))
      const response = yield* legacy.sse.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))
      assert.strictEqual(response.status, 200)
      assert.strictEqual(yield* legacy.sessionCount, 1)
      yield* TestClock.adjust("45 seconds")
      assert.strictEqual(yield* legacy.sessionCount, 1)
      yield* TestClock.adjust("30 seconds")
      assert.strictEqual(yield* legacy.sessionCount, 0)
    }))
})

describe("StreamableHttpServer's event store is explicit", () => {
  const initialize = (endpoint: StreamableHttpServer.StreamableHttpServerShape) =>
    Effect.flatMap(
      endpoint.respond({
        method: "POST",
        headers: Headers.fromInput({ "content-type": "application/json", accept: "application/json, text/event-stream" }),
        arrayBuffer: Effect.succeed(new TextEncoder().encode(JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
        })))
      }),
      read
    )
  const endpointOf = (layer: Layer.Layer<StreamableHttpServer.StreamableHttpServer, never, McpServer.McpServer>) =>
    Effect.flatMap(
      Layer.build(layer.pipe(Layer.provideMerge(McpServer.layer({ name: "store", version: "1.0.0" })))),
      (context) => Effect.provide(StreamableHttpServer.StreamableHttpServer, context)
    )

  it.effect("a store in context is not used by `layer`; `layerWithEventStore` requires one and uses it", () =>
    Effect.gen(function*() {
      const without = yield* endpointOf(StreamableHttpServer.layer({ dnsRebindingProtection: false }).pipe(
        Layer.provide(EventStore.layerMemory())
      ))
      const plain = yield* initialize(without)
      assert.notInclude(plain.text, "id: ")
      const withStore = yield* endpointOf(StreamableHttpServer.layerWithEventStore({ dnsRebindingProtection: false }).pipe(
        Layer.provide(EventStore.layerMemory())
      ))
      const primed = yield* initialize(withStore)
      assert.include(primed.text, `id: ${primed.session}-1_0\nretry: 1000`)
      const byOption = yield* endpointOf(StreamableHttpServer.layer({ dnsRebindingProtection: false, eventStore: true }))
      assert.include((yield* initialize(byOption)).text, "retry: 1000")
    }))
})
