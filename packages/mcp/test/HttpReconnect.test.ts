/**
 * Reconnection of the HTTP client transports in virtual time: the backoff
 * between attempts, the server's `retry:` replacing it, the attempt count and
 * the failure that ends it, driven by `TestClock` against a scripted
 * `HttpClient` (no sockets, no real waiting on the clock).
 */
import * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import { assert, describe, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { incoming, type TransportShape } from "@effect-mcp/mcp/Transport"

interface Seen {
  readonly method: string
  readonly at: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: { readonly id?: number; readonly method?: string } | undefined
}

interface Answer {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body?: string
}

/** An `HttpClient` answering from a script; every request is recorded with the (virtual) time it was made. */
const scripted = (answer: (seen: Seen) => Answer) => {
  const seen: Array<Seen> = []
  const client = HttpClient.make((request: HttpClientRequest.HttpClientRequest) =>
    Effect.map(Clock.currentTimeMillis, (at) => {
      const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
      const entry: Seen = { method: request.method, at, headers: request.headers, body: text === "" ? undefined : JSON.parse(text) }
      seen.push(entry)
      const { body, headers, status } = answer(entry)
      return HttpClientResponse.fromWeb(request, new Response(body ?? null, { status, headers: headers ?? {} }))
    })
  )
  return { client, seen }
}

const sse = (text: string): Answer => ({ status: 200, headers: { "content-type": "text/event-stream" }, body: text })

/** Lets the fibers the clock woke run their (promise-based) body reads. */
const settle = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve))).pipe(Effect.repeat({ times: 20 }))

const gets = (seen: ReadonlyArray<Seen>) => seen.filter((s) => s.method === "GET")

/** The streamable transport, initialized by hand (no engine): the standing GET opens after `notifications/initialized`. */
const initialized = (
  client: HttpClient.HttpClient,
  options: Omit<StreamableHttpClient.StreamableHttpClientOptions, "url">
) =>
  Effect.gen(function*() {
    const transport = yield* StreamableHttpClient.make({ url: "http://mcp.test/mcp", deleteOnClose: false, ...options }).pipe(
      Effect.provideService(HttpClient.HttpClient, client)
    )
    yield* transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25" } })
    yield* settle
    yield* transport.send({ jsonrpc: "2.0", method: "notifications/initialized" })
    yield* settle
    return transport
  })

const streamable = (getAnswer: (n: number) => Answer) => {
  let n = 0
  return scripted((s) => {
    if (s.method === "GET") return getAnswer(++n)
    if (s.body?.method === "initialize") {
      return {
        status: 200,
        headers: { "content-type": "application/json", "mcp-session-id": "s1" },
        body: JSON.stringify({ jsonrpc: "2.0", id: s.body.id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "x", version: "1" } } })
      }
    }
    return { status: 202 }
  })
}

/** How `incoming` ended (it fails when the transport gives up). */
const ending = (transport: TransportShape) => Effect.forkChild(Stream.runDrain(incoming(transport)))

describe("HTTP client reconnection in virtual time", () => {
  it.effect("the standing GET backs off exponentially, then fails the transport after maxRetries", () =>
    Effect.gen(function*() {
      // every stream sends a priming event and ends at once: no progress
      const { client, seen } = streamable((n) => sse(`id: g${n}\ndata:\n\n`))
      const transport = yield* initialized(client, {
        reconnect: { initialDelay: "1 second", factor: 2, maxDelay: "30 seconds", jitter: 0 },
        maxRetries: 3
      })
      const incoming = yield* ending(transport)
      assert.deepStrictEqual(gets(seen).map((s) => s.at), [0])
      yield* TestClock.adjust("999 millis")
      yield* settle
      assert.strictEqual(gets(seen).length, 1, "nothing before the first delay is over")
      for (const step of ["1 millis", "2 seconds", "4 seconds"] as const) {
        yield* TestClock.adjust(step)
        yield* settle
      }
      assert.deepStrictEqual(gets(seen).map((s) => s.at), [0, 1000, 3000, 7000])
      assert.deepStrictEqual(gets(seen).map((s) => s.headers["last-event-id"]), [undefined, "g1", "g2", "g3"])
      yield* TestClock.adjust("1 hour")
      yield* settle
      assert.strictEqual(gets(seen).length, 4, "no attempt past maxRetries")
      const exit = yield* Fiber.await(incoming)
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) assert.include(String(exit.cause), "could not be resumed after 3 reconnection attempts")
    }))

  it.effect("the server's retry: replaces the backoff", () =>
    Effect.gen(function*() {
      const { client, seen } = streamable((n) => sse(`retry: 5000\nid: g${n}\ndata:\n\n`))
      yield* initialized(client, { reconnect: { initialDelay: "10 millis", jitter: 0 }, maxRetries: 3 })
      yield* TestClock.adjust("4999 millis")
      yield* settle
      assert.deepStrictEqual(gets(seen).map((s) => s.at), [0])
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust(i === 0 ? "1 millis" : "5 seconds")
        yield* settle
      }
      assert.deepStrictEqual(gets(seen).map((s) => s.at), [0, 5000, 10000, 15000])
    }))

  it.effect("a connection that stays open for resetAfter resets the attempt count and the backoff", () =>
    Effect.gen(function*() {
      const { client, seen } = streamable((n) => sse(`id: g${n}\ndata:\n\n`))
      const transport = yield* initialized(client, {
        reconnect: { initialDelay: "1 second", factor: 2, jitter: 0 },
        maxRetries: 1,
        resetAfter: "0 millis"
      })
      const incoming = yield* ending(transport)
      // with resetAfter 0 every connection counts as healthy: maxRetries 1 never runs out, the delay stays 1 s
      for (let i = 0; i < 5; i++) {
        yield* TestClock.adjust("1 second")
        yield* settle
      }
      assert.deepStrictEqual(gets(seen).map((s) => s.at), [0, 1000, 2000, 3000, 4000, 5000])
      assert.isUndefined(incoming.pollUnsafe())
    }))

  it.effect("legacy HTTP+SSE: the server's retry: spaces the reconnections, then the transport fails", () =>
    Effect.gen(function*() {
      const { client, seen } = scripted((s) =>
        s.method === "GET" ? sse("retry: 2000\nevent: endpoint\ndata: /messages\n\n") : { status: 202 }
      )
      const transport = yield* LegacySseClient.make({
        url: "http://mcp.test/sse",
        reconnect: { initialDelay: "10 millis", jitter: 0 },
        maxRetries: 2
      }).pipe(Effect.provideService(HttpClient.HttpClient, client))
      const incoming = yield* ending(transport)
      yield* settle
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust("2 seconds")
        yield* settle
      }
      assert.deepStrictEqual(gets(seen).map((s) => s.at), [0, 2000, 4000])
      const exit = yield* Fiber.await(incoming)
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) assert.include(String(exit.cause), "could not be reopened after 2 reconnection attempts")
    }))
})
