/**
 * Redis lost under a fleet instance (a process, fixtures/instance.ts, on a redis-server of the
 * test's own, paused with SIGSTOP or killed with SIGKILL): 2026-07-28 requests, which have no
 * session, are served without it and store nothing; a 2025 call in flight when Redis goes
 * settles, with its result or a JSON-RPC error on the stream it is on, for our client and the
 * official v1 client.
 */
import { assert, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Result from "effect/Result"
import * as Layer from "effect/Layer"
import { startInstance } from "../fleet.js"
import { describeRedis, REDIS_URL, testPrefix } from "../redis.js"
import { initialize } from "../../../node/test/httpUtil.js"
import {
  messagesOf,
  type OwnRedis,
  ownRedis,
  readSse,
  request2026,
  scanKeys,
  sessionHeaders,
  type SseEvent
} from "./processes.js"

// the fixture's options (fixtures/instance.ts): `commandTimeout: "1 second"`
const COMMAND_TIMEOUT_MS = 1_000

/** One 2026 request; its HTTP status and the answer to it (bounded: a request that hangs fails here). */
const call2026 = (url: string, id: number, method: string, params: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(url, { ...request2026(id, method, params), signal: AbortSignal.timeout(8_000) })
    const events: Array<SseEvent> = []
    const json = (response.headers.get("content-type") ?? "").includes("application/json")
    if (json) return { status: response.status, messages: [JSON.parse(await response.text())] as ReturnType<typeof messagesOf> }
    await readSse(response, events)
    return { status: response.status, messages: messagesOf(events) }
  }).pipe(
    Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error(`${method} got no answer in 10 s`)) }),
    Effect.orDie
  )

/** A 2026 `tools/call` answered whole (echo), and one streamed (progress first). */
const both2026 = (url: string, tag: string) =>
  Effect.gen(function*() {
    const echo = yield* call2026(url, 1, "tools/call", { name: "echo", arguments: { text: tag } })
    assert.strictEqual(echo.status, 200)
    assert.strictEqual(echo.messages.find((m) => m.id === 1)?.result?.content?.[0]?.text, `${tag} from i0`)
    const slow = yield* call2026(url, 2, "tools/call", { name: "slow", arguments: { steps: 3 }, _meta: { progressToken: "p" } })
    assert.strictEqual(slow.status, 200)
    assert.deepStrictEqual(slow.messages.filter((m) => m.method === "notifications/progress").map((m) => m.params?.progress), [1, 2, 3])
    assert.strictEqual(slow.messages.find((m) => m.id === 2)?.result?.content?.[0]?.text, "done after 3 on i0")
  })

/** An instance on a Redis of the test's own. */
const instanceOnOwnRedis = Effect.gen(function*() {
  const redis = yield* ownRedis
  const instance = yield* startInstance(redis.url, "lost", "i0")
  return { redis, url: `http://127.0.0.1:${instance.port}/mcp` }
})

const ourClient = (url: string) =>
  Layer.build(McpClient.layer({ name: "ours", version: "1.0.0", era: "2025" }).pipe(
    Layer.provide(NodeStreamableHttpClient.layer({ url }))
  )).pipe(Effect.orDie, Effect.flatMap((context) => McpClient.McpClient.pipe(Effect.provide(context))))

const officialClient = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    }),
    (client) => Effect.promise(() => client.close().catch(() => {})).pipe(Effect.timeout("2 seconds"), Effect.ignore)
  )

// 30 steps of 100 ms: ~3 s of work, Redis lost after the first step
const STEPS = 30
/**
 * Every call settles within this: the work left (3 s), one command timeout for the first event
 * that cannot be stored (the stream goes on unstored after it), and slack for two busy cores.
 */
const SETTLE_MS = STEPS * 100 + COMMAND_TIMEOUT_MS + 4_000

/** Calls in flight on both clients when `lose` takes Redis away: each settles (result or JSON-RPC error) within `SETTLE_MS`. */
const inFlight = (lose: (redis: OwnRedis) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const { redis, url } = yield* instanceOnOwnRedis
    const ours = yield* ourClient(url)
    const official = yield* officialClient(url)
    let progressed = 0
    const oursCall = yield* Effect.forkChild(
      Effect.result(ours.callTool("slow", { steps: STEPS }, { onProgress: () => Effect.sync(() => void progressed++) }))
    )
    const officialCall = yield* Effect.forkChild(Effect.tryPromise({
      try: () =>
        official.callTool({ name: "slow", arguments: { steps: STEPS } }, undefined, {
          onprogress: () => void progressed++,
          timeout: 60_000
        }),
      catch: (e) => e
    }).pipe(Effect.result))
    for (let i = 0; i < 100 && progressed < 2; i++) yield* Effect.sleep("20 millis")
    assert.isAtLeast(progressed, 2, "both calls run")
    yield* lose(redis)
    const lostAt = Date.now()
    const [oursOutcome, officialOutcome] = yield* Effect.all([Fiber.await(oursCall), Fiber.await(officialCall)], { concurrency: 2 }).pipe(
      Effect.timeoutOrElse({ duration: SETTLE_MS, orElse: () => Effect.fail(new Error(`a call in flight did not settle within ${SETTLE_MS} ms of losing Redis`)) }),
      Effect.orDie
    )
    const took = Date.now() - lostAt
    // ours: the result, or an error the server answered (McpError), not a broken transport
    assert.strictEqual(oursOutcome._tag, "Success")
    const o = (oursOutcome as { value: Result.Result<{ content: ReadonlyArray<unknown> }, { _tag: string }> }).value
    if (Result.isFailure(o)) assert.strictEqual(o.failure._tag, "McpError", `ours: ${String(o.failure)}`)
    else assert.deepStrictEqual(o.success.content, [{ type: "text", text: `done after ${STEPS} on i0` }])
    assert.strictEqual(officialOutcome._tag, "Success")
    const v = (officialOutcome as { value: Result.Result<{ content?: unknown }, unknown> }).value
    if (Result.isFailure(v)) assert.instanceOf(v.failure, McpError, `official: ${String(v.failure)}`)
    else assert.deepStrictEqual(v.success.content, [{ type: "text", text: `done after ${STEPS} on i0` }])
    assert.isBelow(took, SETTLE_MS)
  })

describeRedis("Redis lost under a fleet instance", () => {
  it.live("2026-07-28 tools/call is served with Redis paused (SIGSTOP), then killed", () =>
    Effect.gen(function*() {
      const { redis, url } = yield* instanceOnOwnRedis
      yield* both2026(url, "up")
      yield* redis.pause
      yield* both2026(url, "paused")
      yield* redis.resume
      yield* redis.kill
      yield* both2026(url, "killed")
    }), 40_000)

  it.live("2026-07-28 calls leave nothing in Redis", () =>
    Effect.gen(function*() {
      const prefix = yield* testPrefix
      const instance = yield* startInstance(REDIS_URL, prefix, "i0")
      const url = `http://127.0.0.1:${instance.port}/mcp`
      // the instance's own keys (its heartbeat) are there already
      yield* Effect.sleep("300 millis")
      const before = yield* scanKeys(REDIS_URL, prefix)
      yield* both2026(url, "up")
      // what is stored off the path has had its time
      yield* Effect.sleep("300 millis")
      assert.deepStrictEqual(yield* scanKeys(REDIS_URL, prefix), before)
    }), 30_000)

  it.live("Redis back empty (killed, restarted): the session is gone (404), our client initializes again by itself", () =>
    Effect.gen(function*() {
      const { redis, url } = yield* instanceOnOwnRedis
      const client = yield* ourClient(url)
      const echo = (text: string) => Effect.map(client.callTool("echo", { text }), (r) => r.content)
      assert.deepStrictEqual(yield* echo("before"), [{ type: "text", text: "before from i0" }])
      const raw = yield* initialize(url)
      yield* redis.kill
      yield* redis.restart
      const served2026 = yield* Effect.promise(async () => {
        const response = await fetch(url, request2026(1, "tools/call", { name: "echo", arguments: { text: "x" } }))
        await response.text()
        return response.status
      })
      // (2026 needs none of it)
      assert.strictEqual(served2026, 200)
      // the instance reconnects by itself (backoff up to 1 s): 503 until then, then 404 (no record)
      const ping = Effect.promise(async () => {
        const response = await fetch(url, { method: "POST", headers: sessionHeaders(raw), body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) })
        await response.text()
        return response.status
      })
      let status = yield* ping
      for (let i = 0; i < 30 && status === 503; i++) {
        yield* Effect.sleep("100 millis")
        status = yield* ping
      }
      assert.strictEqual(status, 404)
      let outcome = yield* Effect.result(echo("after"))
      for (let i = 0; i < 30 && Result.isFailure(outcome); i++) {
        yield* Effect.sleep("100 millis")
        outcome = yield* Effect.result(echo("after"))
      }
      assert.deepStrictEqual(Result.getOrThrow(outcome), [{ type: "text", text: "after from i0" }])
    }), 30_000)

  it.live("Redis paused (SIGSTOP) mid-call: every call in flight settles, ours and the official client's", () => inFlight((redis) => redis.pause), 40_000)

  it.live("Redis killed (SIGKILL) mid-call: every call in flight settles, ours and the official client's", () => inFlight((redis) => redis.kill), 40_000)
})
