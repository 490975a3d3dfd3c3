/**
 * One logical server on three processes sharing a real Redis, behind a
 * round-robin proxy with no stickiness: consecutive requests of a session
 * reach different instances. Our client and the official v1 client run
 * sessions with sampling, elicitation, progress, logs, cancellation,
 * resource subscriptions and resumption through it.
 */
import { assert, layer } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema
} from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { Redis } from "ioredis"
import { initialize } from "../../node/test/httpUtil.js"
import { type RoundRobin, roundRobin } from "../../node/test/roundRobin.js"
import { type Instance, startTestFleet } from "./fleet.js"
import { describeRedis, REDIS_URL } from "./redis.js"

/** Three instances and the proxy, shared by the tests of this file (the last one kills an instance). */
class TestFleet extends Context.Service<TestFleet, {
  readonly prefix: string
  readonly instances: ReadonlyArray<Instance>
  readonly proxy: RoundRobin
}>()("TestFleet") {}

const TestFleetLive = Layer.effect(
  TestFleet,
  Effect.gen(function*() {
    const { instances, prefix } = yield* startTestFleet(3)
    const proxy = yield* roundRobin(instances.map((i) => i.port))
    return { prefix, instances, proxy }
  })
)

/** Our client; the 2025-11-25 era (sessions) unless told otherwise. */
const ourClient = (url: string, era: "2025" | "auto" = "2025") =>
  Layer.build(
    McpClient.layer({
      name: "ours",
      version: "1.0.0",
      era,
      sampling: () => Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "sampled" } }),
      elicitation: { form: () => Effect.succeed({ action: "accept", content: { ok: true } }) }
    }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
  ).pipe(Effect.orDie, Effect.flatMap((context) => McpClient.McpClient.pipe(Effect.provide(context))))

const redisGet = (key: string) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return await redis.get(key)
    } finally {
      redis.disconnect()
    }
  })

const text = (content: unknown) => (content as ReadonlyArray<{ readonly text: string }>)[0]!.text

describeRedis("three instances on Redis behind a round-robin proxy", () => {
  layer(TestFleetLive, { excludeTestServices: true, timeout: 60_000 })((it) => {
  it.effect("our client: state, reverse calls, progress, logs, cancellation and subscriptions cross instances", () =>
    Effect.gen(function*() {
      const { prefix, proxy } = yield* TestFleet
      const client = yield* ourClient(proxy.url)
      const ran = new Set<string>()
      for (let i = 0; i < 6; i++) ran.add(text((yield* client.callTool("echo", { text: "hi" })).content))
      // consecutive calls, every instance: no stickiness
      assert.deepStrictEqual(Array.from(ran).sort(), ["hi from i0", "hi from i1", "hi from i2"])

      yield* client.setLogLevel("info")
      const logs = yield* Effect.forkChild(Stream.runCollect(Stream.take(
        Stream.filter(client.notifications, (n) => n.method === "notifications/message"),
        1
      )))
      const progress: Array<number> = []
      const asked = yield* client.callTool("ask", {}, { onProgress: (p) => Effect.sync(() => void progress.push(p.progress)) })
      assert.match(text(asked.content), /^sampled \/ accept \(ran on i\d\)$/)
      assert.deepStrictEqual(progress, [1, 2, 3])
      const logged = Array.from(yield* Fiber.join(logs))
      assert.match(String((logged[0]!.params as { data: string }).data), /^asking on i\d$/)

      // cancellation: the call runs on one instance, notifications/cancelled reaches another first
      const slow = yield* Effect.forkChild(client.callTool("slow", { steps: 50 }, { onProgress: () => Effect.void }))
      yield* Effect.sleep("400 millis")
      yield* Fiber.interrupt(slow)
      let interrupted: string | null = null
      for (let i = 0; i < 40 && interrupted === null; i++) {
        yield* Effect.sleep("50 millis")
        interrupted = yield* redisGet(`${prefix}:test:interrupted`)
      }
      assert.match(String(interrupted), /^i\d$/)

      // a resource update made on whichever instance runs `touch` reaches the standing GET wherever it is held
      const updates = yield* client.subscribe("memo://note")
      const got = yield* Effect.forkChild(Stream.runCollect(Stream.take(updates, 1)))
      yield* Effect.sleep("300 millis")
      yield* client.callTool("touch", { uri: "memo://note" })
      assert.deepStrictEqual(Array.from(yield* Fiber.join(got)), [{ uri: "memo://note" }])
    }))

  it.effect("the official v1 client: sampling, elicitation and progress cross instances", () =>
    Effect.gen(function*() {
      const { proxy } = yield* TestFleet
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } })
          client.setRequestHandler(CreateMessageRequestSchema, async () => ({
            role: "assistant",
            model: "m",
            content: { type: "text", text: "sampled" }
          }))
          client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { ok: true } }))
          await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)))
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const updated: Array<string> = []
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void updated.push(n.params.uri))
      const progress: Array<number> = []
      const result = yield* Effect.promise(() =>
        client.callTool({ name: "ask", arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.progress) })
      )
      assert.match(text(result.content), /^sampled \/ accept \(ran on i\d\)$/)
      assert.deepStrictEqual(progress, [1, 2, 3])
      const echoes = new Set<string>()
      for (let i = 0; i < 3; i++) {
        echoes.add(text((yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "v1" } }))).content))
      }
      assert.strictEqual(echoes.size, 3)
      yield* Effect.promise(() => client.subscribeResource({ uri: "memo://note" }))
      yield* Effect.sleep("300 millis")
      yield* Effect.promise(() => client.callTool({ name: "touch", arguments: { uri: "memo://note" } }))
      for (let i = 0; i < 40 && updated.length === 0; i++) yield* Effect.sleep("50 millis")
      assert.deepStrictEqual(updated, ["memo://note"])
    }))

  it.effect("2026-07-28 (stateless) requests need no affinity: consecutive calls served by every instance", () =>
    Effect.gen(function*() {
      const { proxy } = yield* TestFleet
      const client = yield* ourClient(proxy.url, "auto")
      assert.strictEqual(client.era, "2026")
      const ran = new Set<string>()
      for (let i = 0; i < 6; i++) ran.add(text((yield* client.callTool("echo", { text: "hi" })).content))
      assert.strictEqual(ran.size, 3)
    }))

  it.effect("2026-07-28 multi-round-trip calls whose handler sends progress before asking: each retry on another instance, each round's stream carries its answer", () =>
    Effect.gen(function*() {
      const { proxy } = yield* TestFleet
      const client = yield* ourClient(proxy.url, "auto")
      assert.strictEqual(client.era, "2026")
      const before = proxy.routed.length
      for (let i = 0; i < 6; i++) {
        const progress: Array<number> = []
        const asked = yield* client.callTool("ask", {}, { onProgress: (p) => Effect.sync(() => void progress.push(p.progress)) })
        assert.match(text(asked.content), /^sampled \/ accept \(ran on i\d\)$/)
        // each round runs the handler again: its progress comes again
        assert.deepStrictEqual(progress, [1, 1, 2, 1, 2, 3])
      }
      // three rounds a call, no GET (a 2026 stream cannot be resumed): every answer came on its POST's stream
      assert.deepStrictEqual(proxy.routed.slice(before).map((r) => r.method), Array.from({ length: 18 }, () => "POST"))
    }))

  it.effect("Last-Event-ID on another instance replays a stream cut mid-call, then continues it live to its result", () =>
    Effect.gen(function*() {
      const { instances } = yield* TestFleet
      const [a, b, c] = instances.map((i) => `http://127.0.0.1:${i.port}/mcp`) as [string, string, string]
      const sid = yield* initialize(a)
      const controller = new AbortController()
      const events = yield* Effect.promise(async () => {
        const response = await fetch(b, {
          method: "POST",
          headers: sessionHeaders(sid),
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 5,
            method: "tools/call",
            params: { name: "slow", arguments: { steps: 10 }, _meta: { progressToken: "p" } }
          }),
          signal: controller.signal
        })
        return readEvents(response, (seen) => seen.filter((e) => e.data !== "").length >= 2)
      })
      controller.abort()
      const lastId = events.at(-1)!.id!
      const resumed = yield* Effect.promise(async () => {
        const response = await fetch(c, { headers: { ...sessionHeaders(sid), "last-event-id": lastId, accept: "text/event-stream" } })
        return readEvents(response, () => false)
      })
      const messages = [...events, ...resumed].filter((e) => e.data !== undefined && e.data !== "").map((e) => JSON.parse(e.data!))
      const progress = messages.filter((m) => m.method === "notifications/progress").map((m) => m.params.progress)
      assert.deepStrictEqual(progress, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      const result = messages.find((m) => m.id === 5)
      assert.strictEqual(result.result.content[0].text, "done after 10 on i1")
      const ids = [...events, ...resumed].map((e) => e.id).filter((id) => id !== undefined)
      assert.strictEqual(new Set(ids).size, ids.length)
    }))

  it.effect("an answer written whole (the SSE fast path) is stored after it: Last-Event-ID of its priming replays it on another instance", () =>
    Effect.gen(function*() {
      const { instances } = yield* TestFleet
      const [a, b, c] = instances.map((i) => `http://127.0.0.1:${i.port}/mcp`) as [string, string, string]
      const sid = yield* initialize(a)
      const events = yield* Effect.promise(async () => {
        const response = await fetch(b, {
          method: "POST",
          headers: sessionHeaders(sid),
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: "whole" } } })
        })
        return readEvents(response, () => false)
      })
      // the priming event's id, then the answer (no id: not stored yet when it was written)
      assert.strictEqual(events.length, 2)
      assert.isUndefined(events[1]!.id)
      assert.strictEqual(JSON.parse(events[1]!.data!).result.content[0].text, "whole from i1")
      let replayed: ReadonlyArray<SseEvent> = []
      for (let i = 0; i < 20 && replayed.length === 0; i++) {
        replayed = yield* Effect.promise(async () => {
          const response = await fetch(c, { headers: { ...sessionHeaders(sid), "last-event-id": events[0]!.id!, accept: "text/event-stream" } })
          return response.status === 200 ? (await readEvents(response, () => false)).filter((e) => e.data !== undefined) : []
        })
        if (replayed.length === 0) yield* Effect.sleep("50 millis")
      }
      assert.deepStrictEqual(replayed.map((e) => [e.id?.startsWith(`${sid}-i1.p`), JSON.parse(e.data!).id]), [[true, 9]])
    }))

  it.effect("a change announced on one instance reaches the standing GETs and listen streams of every instance, once each", () =>
    Effect.gen(function*() {
      const { instances, proxy } = yield* TestFleet
      const direct = instances.map((i) => `http://127.0.0.1:${i.port}/mcp`)
      // 2025 sessions (their standing GET on i1, on i2, and one through the proxy: replicas everywhere)
      // and 2026 listen streams (on i1, on i2, through the proxy)
      const urls = [direct[1]!, direct[2]!, proxy.url]
      const streams = [
        ...(yield* Effect.forEach(urls, (url) => ourClient(url, "2025"))),
        ...(yield* Effect.forEach(urls, (url) => ourClient(url, "auto")))
      ]
      const seen = streams.map(() => [] as Array<string>)
      yield* Effect.forEach(streams, (client, i) =>
        Effect.forkScoped(Stream.runForEach(
          client.listen({ toolsListChanged: true, resources: ["memo://note"] }),
          (n) => Effect.sync(() => void seen[i]!.push(n.method))
        )))
      const settled = (n: number) =>
        Effect.gen(function*() {
          for (let t = 0; t < 100 && seen.some((s) => s.length < n); t++) yield* Effect.sleep("50 millis")
          // and nothing more comes
          yield* Effect.sleep("400 millis")
        })
      yield* Effect.sleep("500 millis")
      const on = (k: number) => ourClient(direct[k]!, "2025")
      const zero = yield* on(0)
      // McpServer.notifyResourceUpdated on i0, a handler's call as on any server
      assert.strictEqual(text((yield* zero.callTool("touch", { uri: "memo://note", via: "server" })).content), "touched on i0")
      yield* settled(1)
      const updated = "notifications/resources/updated"
      assert.deepStrictEqual(seen, streams.map(() => [updated]))
      // the same tool added on each instance in turn: the same list everywhere, told once
      for (let k = 0; k < 3; k++) assert.strictEqual(text((yield* (yield* on(k)).callTool("grow", {})).content), `added on i${k}`)
      yield* settled(2)
      const changed = "notifications/tools/list_changed"
      assert.deepStrictEqual(seen, streams.map(() => [updated, changed]))
      // removed on i0 only: a list of its own, told
      yield* zero.callTool("grow", { remove: true })
      yield* settled(3)
      assert.deepStrictEqual(seen, streams.map(() => [updated, changed, changed]))
    }))

  it.effect("an instance killed mid-call: the call fails promptly with an explicit error, the session goes on", () =>
    Effect.gen(function*() {
      const { instances, proxy } = yield* TestFleet
      const client = yield* ourClient(proxy.url)
      const runningOn: Array<string> = []
      const call = yield* Effect.forkChild(Effect.result(client.callTool("slow", { steps: 200 }, {
        onProgress: (p) => Effect.sync(() => void runningOn.push(String(p.message)))
      })))
      while (runningOn.length === 0) yield* Effect.sleep("20 millis")
      const victim = instances.findIndex((i) => i.id === runningOn[0])
      const killedAt = Date.now()
      yield* instances[victim]!.kill
      proxy.remove(victim)
      const outcome = yield* Fiber.join(call)
      const took = Date.now() - killedAt
      assert.isTrue(outcome._tag === "Failure", "the call must fail")
      assert.include(String((outcome as { failure: { message: string } }).failure.message), `(${runningOn[0]}) stopped`)
      assert.isBelow(took, 8_000)
      const after = yield* client.callTool("echo", { text: "still here" })
      assert.match(text(after.content), /^still here from i\d$/)
    }))
  })
})

const sessionHeaders = (sid: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-session-id": sid,
  "mcp-protocol-version": "2025-11-25"
})

interface SseEvent {
  readonly id?: string | undefined
  readonly data?: string | undefined
}

/** Reads SSE events until `enough` says so (then stops reading) or the stream ends. */
const readEvents = async (response: Response, enough: (seen: ReadonlyArray<SseEvent>) => boolean) => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const seen: Array<SseEvent> = []
  let buffer = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return seen
    buffer += decoder.decode(value, { stream: true })
    let at: number
    while ((at = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, at)
      buffer = buffer.slice(at + 2)
      const event: { id?: string; data?: string } = {}
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4)
        else if (line.startsWith("data: ")) event.data = line.slice(6)
        else if (line === "data:" || line === "data: ") event.data = ""
      }
      if (event.id !== undefined || event.data !== undefined) seen.push(event)
      if (enough(seen)) {
        await reader.cancel().catch(() => {})
        return seen
      }
    }
  }
}
