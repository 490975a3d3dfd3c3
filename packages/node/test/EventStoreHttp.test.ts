import * as HttpServer from "effect/http/HttpServer"
import { assert, describe, it } from "@effect/vitest"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as HandlerContext from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import { headers, initialize, messagesOf, parseSse } from "./httpUtil.js"

const Echo = McpServer.tool({
  name: "echo",
  description: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
/** Gates the test opens: a `wait` call answers when its gate opens. */
const gates = new Map<number, Deferred.Deferred<void>>()
const gate = (n: number) => {
  let d = gates.get(n)
  if (d === undefined) gates.set(n, (d = Deferred.makeUnsafe<void>()))
  return d
}
const open = (n: number) => Deferred.succeed(gate(n), undefined)
const Wait = McpServer.tool({
  name: "wait",
  description: "answers when its gate opens",
  parameters: Schema.Struct({ gate: Schema.Number }),
  handler: ({ gate: n }) => Effect.as(Deferred.await(gate(n)), "waited")
})
/** Talks before answering: its answer is streamed, each event stored first. */
const Talk = McpServer.tool({
  name: "talk",
  description: "progress, then the answer",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext.HandlerContext
      yield* ctx.progress(1, { total: 2 })
      yield* ctx.progress(2, { total: 2 })
      return "talked"
    })
})
const Features = McpServer.register(Echo, Wait, Talk)

/**
 * A server with an in-memory event store the test holds. The store runs on the TestClock (its
 * grace period is the test's to pass); the server on the live one (its SSE fast path and write
 * timeouts are real time).
 */
const start = (
  storeOptions: EventStore.MemoryOptions,
  alter: (store: EventStore.EventStoreShape) => EventStore.EventStoreShape = (store) => store
) =>
  Effect.gen(function*() {
    const store = yield* EventStore.makeMemory(storeOptions)
    const layer = NodeStreamableHttp.layer({ port: 0, eventStore: alter(store) }).pipe(
      Layer.provideMerge(Features),
      Layer.provideMerge(McpServer.layer({ name: "test-store", version: "1.0.0" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie, TestClock.withLive)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    const mcp = yield* StreamableHttpServer.StreamableHttpServer.pipe(Effect.provide(context))
    const port = "port" in server.address ? server.address.port : 0
    return { url: `http://127.0.0.1:${port}/mcp`, store, mcp }
  })

const sessionHeaders = (sid: string) => ({ "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" })

const call = (id: number, name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })

const post = (url: string, sid: string, body: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", headers: headers(sessionHeaders(sid)), body })
    return { status: response.status, text: await response.text() }
  })

/** POSTs a call, reads the stream's priming event, and hangs up: the answer is left undelivered. */
const postAndHangUp = (url: string, sid: string, body: string) =>
  Effect.promise(async () => {
    const controller = new AbortController()
    const response = await fetch(url, { method: "POST", headers: headers(sessionHeaders(sid)), body, signal: controller.signal })
    const reader = response.body!.getReader()
    let text = ""
    while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value)
    controller.abort()
    // the server notices the hang-up on its own time
    await new Promise((resolve) => setTimeout(resolve, 100))
    return parseSse(text)[0]!.id!
  })

/** Waits (real time) until the store holds what the test expects. */
const until = (store: EventStore.MemoryEventStore, holds: (usage: EventStore.Usage) => boolean) =>
  untilEffect(Effect.map(store.usage, holds))

const untilEffect = (check: Effect.Effect<boolean>) =>
  Effect.promise(async () => {
    for (let i = 0; i < 200; i++) {
      if (await Effect.runPromise(check)) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error("the store never got there")
  })

/** Waits until the store holds an event of the stream `priming` opened. */
const untilStored = (store: EventStore.MemoryEventStore, sid: string, priming: string) =>
  untilEffect(Effect.map(store.replayAfter(sid, priming), Option.isSome))

const resume = (url: string, sid: string, lastEventId: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      headers: { ...sessionHeaders(sid), accept: "text/event-stream", "last-event-id": lastEventId }
    })
    return { status: response.status, text: await response.text() }
  })

describe("StreamableHttpServer with an event store", () => {
  it.effect("a delivered answer is dropped after the grace period, and all of a session's events at DELETE", () =>
    Effect.gen(function*() {
      const { store, url } = yield* start({ gracePeriod: "10 seconds" })
      const sid = yield* initialize(url)
      const answered = yield* post(url, sid, call(2, "echo", { text: "hi" }))
      const priming = parseSse(answered.text)[0]!.id!
      // within the grace period the stream can be resumed
      const again = yield* resume(url, sid, priming)
      assert.strictEqual(again.status, 200)
      assert.deepStrictEqual(messagesOf(again.text).map((m) => m.id), [2])
      yield* TestClock.adjust("16 seconds")
      const gone = yield* resume(url, sid, priming)
      assert.strictEqual(gone.status, 410, "a stream no longer held is answered with a clear status")
      assert.strictEqual((yield* store.usage).events, 0, "the delivered answer was dropped")
      // an answer left undelivered stays past the grace period, until the session ends
      yield* postAndHangUp(url, sid, call(3, "wait", { gate: 100 }))
      yield* open(100)
      yield* until(store, (u) => u.events === 1)
      yield* TestClock.adjust("30 seconds")
      assert.strictEqual((yield* store.usage).events, 1)
      yield* Effect.promise(() => fetch(url, { method: "DELETE", headers: sessionHeaders(sid) }))
      assert.deepStrictEqual(yield* store.usage, { events: 0, bytes: 0, streams: 0, sessions: 0 })
    }))

  it.effect("another session's traffic does not evict an undelivered answer", () =>
    Effect.gen(function*() {
      const { store, url } = yield* start({ maxEventsPerSession: 20, maxEvents: 30 })
      const a = yield* initialize(url)
      const b = yield* initialize(url)
      const priming = yield* postAndHangUp(url, a, call(2, "wait", { gate: 200 }))
      yield* open(200)
      // the two initialize answers (delivered) and a's answer (not)
      yield* until(store, (u) => u.events === 3)
      for (let i = 0; i < 120; i++) {
        const answer = yield* post(url, b, call(10 + i, "echo", { text: `b${i}` }))
        assert.strictEqual(answer.status, 200)
      }
      const resumed = yield* resume(url, a, priming)
      assert.strictEqual(resumed.status, 200)
      assert.deepStrictEqual(messagesOf(resumed.text).map((m) => [m.id, m.result?.content?.[0]?.text]), [[2, "waited"]])
    }))

  it.effect("answers evicted to stay within budget come back as JSON-RPC errors with their ids; ids never repeat", () =>
    Effect.gen(function*() {
      const { store, url } = yield* start({ maxEventsPerSession: 2 })
      const sid = yield* initialize(url)
      const primings: Array<string> = []
      for (let id = 1; id <= 4; id++) primings.push(yield* postAndHangUp(url, sid, call(id, "wait", { gate: 300 + id })))
      // answered in order 1, 2, 3, 4: the first two are evicted when the last two come
      for (let id = 1; id <= 4; id++) {
        yield* open(300 + id)
        yield* untilStored(store, sid, primings[id - 1]!)
      }
      const outcomes: Array<unknown> = []
      const ids: Array<string> = [...primings]
      for (const priming of primings) {
        const resumed = yield* resume(url, sid, priming)
        assert.strictEqual(resumed.status, 200)
        const [message, ...rest] = messagesOf(resumed.text)
        assert.deepStrictEqual(rest, [])
        outcomes.push([message.id, message.error?.code ?? message.result.content[0].text])
        ids.push(...parseSse(resumed.text).flatMap((e) => (e.id === undefined ? [] : [e.id])))
      }
      assert.deepStrictEqual(outcomes, [[1, -32603], [2, -32603], [3, "waited"], [4, "waited"]])
      assert.strictEqual(new Set(ids).size, ids.length, `an event id was used twice: ${ids.join(" ")}`)
    }))

  it.effect("a store that dies on append (unreachable): the stream goes on without ids, the call gets its answer on it", () =>
    Effect.gen(function*() {
      const { url } = yield* start({}, (store) => ({ ...store, append: () => Effect.die(new Error("store unreachable")) }))
      const sid = yield* initialize(url)
      const answered = yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: headers(sessionHeaders(sid)),
          body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "talk", arguments: {}, _meta: { progressToken: "t" } } }),
          signal: AbortSignal.timeout(3_000)
        })
        return { status: response.status, text: await response.text() }
      })
      assert.strictEqual(answered.status, 200)
      const events = parseSse(answered.text).filter((e) => e.data !== undefined && e.data !== "")
      assert.deepStrictEqual(
        events.map((e) => [e.id, JSON.parse(e.data!).params?.progress ?? JSON.parse(e.data!).result?.content[0].text]),
        [[undefined, 1], [undefined, 2], [undefined, "talked"]]
      )
    }))

  it.effect("a store that dies on replay: the resumption is answered 500 with a JSON-RPC error, not left without a status", () =>
    Effect.gen(function*() {
      const { url } = yield* start({}, (store) => ({ ...store, replayAfter: () => Effect.die(new Error("store unreachable")) }))
      const sid = yield* initialize(url)
      const resumed = yield* Effect.promise(async () => {
        const response = await fetch(url, {
          headers: { ...headers(sessionHeaders(sid)), accept: "text/event-stream", "last-event-id": `${sid}-1_1` },
          signal: AbortSignal.timeout(3_000)
        })
        return { status: response.status, text: await response.text() }
      })
      assert.strictEqual(resumed.status, 500)
      assert.strictEqual(JSON.parse(resumed.text).error.code, -32603)
    }))
})
