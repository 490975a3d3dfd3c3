/**
 * An instance of a fleet killed with SIGKILL mid-call (three instances on the shared Redis, each a
 * process): the client resumes the call's stream with `Last-Event-ID` on another instance at once,
 * while the dead instance's heartbeat still lives, and gets the explicit error on that stream
 * within the heartbeat's time to live plus the fleet's check interval.
 */
import { assert, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Result from "effect/Result"
import { roundRobin } from "../../../node/test/roundRobin.js"
import { initialize } from "../../../node/test/httpUtil.js"
import { startTestFleet } from "../fleet.js"
import { describeRedis, REDIS_URL } from "../redis.js"
import { keyTtls, messagesOf, readSse, type SseEvent, sessionHeaders } from "./processes.js"

// the fixture's fleet options (fixtures/instance.ts): `heartbeatTtl: "1 second"`; the fleet looks at
// the owners of the streams resumed elsewhere once a second (internal/httpServer/fleet/proxies.ts)
const HEARTBEAT_TTL_MS = 1_000
const CHECK_INTERVAL_MS = 1_000
/** The server's `retry` hint on its streams (StreamableHttpServer's default): a client waits it before resuming. */
const RETRY_MS = 1_000
/** What the README promises, plus scheduling slack for two busy cores. */
const BOUND_MS = HEARTBEAT_TTL_MS + CHECK_INTERVAL_MS + 2_000

const SLOW = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    // 150 steps of 100 ms: still running long after the bound
    params: { name: "slow", arguments: { steps: 150 }, _meta: { progressToken: "p" } }
  })

describeRedis("an instance killed with SIGKILL mid-call", () => {
  it.live("the stream resumed on another instance gets the explicit error within heartbeat TTL + check interval", () =>
    Effect.gen(function*() {
      const { instances, prefix, urls } = yield* startTestFleet(3)
      const [a, b, c] = urls as [string, string, string]
      const victim = instances[2]!
      const sid = yield* initialize(a)

      // two calls run on C; two progress events of each read, then C dies
      const controller = new AbortController()
      yield* Effect.addFinalizer(() => Effect.sync(() => controller.abort()))
      const started = (id: number) =>
        Effect.gen(function*() {
          const events: Array<SseEvent> = []
          const response = yield* Effect.promise(() =>
            fetch(c, { method: "POST", headers: sessionHeaders(sid), body: SLOW(id), signal: controller.signal })
          )
          void readSse(response, events)
          for (let i = 0; i < 100 && messagesOf(events).length < 2; i++) yield* Effect.sleep("20 millis")
          assert.isAtLeast(messagesOf(events).length, 2)
          return events.filter((e) => e.id !== undefined).at(-1)!.id!
        })
      const lastId = yield* started(7)
      const laterId = yield* started(8)
      yield* victim.kill
      const killedAt = Date.now()

      // resumed on A at once: the heartbeat of C is still alive there
      const resumed: Array<SseEvent> = []
      const resumeController = new AbortController()
      yield* Effect.addFinalizer(() => Effect.sync(() => resumeController.abort()))
      const again = yield* Effect.promise(() =>
        fetch(a, {
          headers: { ...sessionHeaders(sid), "last-event-id": lastId, accept: "text/event-stream" },
          signal: resumeController.signal
        })
      )
      assert.strictEqual(again.status, 200)
      const ended = readSse(again, resumed)
      const answered = () => messagesOf(resumed).find((m) => m.id === 7)
      for (let i = 0; i < 200 && answered() === undefined && Date.now() - killedAt < BOUND_MS + 3_000; i++) {
        yield* Effect.sleep("25 millis")
      }
      const answer = answered()
      assert.isDefined(answer, `no answer on the resumed stream within ${BOUND_MS + 3_000} ms: ${JSON.stringify(resumed)}`)
      assert.strictEqual(answer!.error?.code, -32603)
      assert.include(answer!.error?.message, `(${victim.id}) stopped`)
      const took = resumed.find((e) => e.data !== undefined && e.data.includes("stopped"))!.at - killedAt
      assert.isBelow(took, BOUND_MS, `the error came ${took} ms after the kill`)
      // the stream ends after its last answer
      yield* Effect.promise(() => ended).pipe(Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail(new Error("the resumed stream did not end")) }))

      // the error is stored: another resumption (on B) replays it
      const replay: Array<SseEvent> = []
      const third = yield* Effect.promise(() =>
        fetch(b, { headers: { ...sessionHeaders(sid), "last-event-id": lastId, accept: "text/event-stream" } })
      )
      yield* Effect.promise(() => readSse(third, replay)).pipe(Effect.timeout("3 seconds"))
      assert.strictEqual(messagesOf(replay).find((m) => m.id === 7)?.error?.code, -32603)

      // the other call resumed only now, its owner's heartbeat gone: the error comes at once
      assert.isAbove(Date.now() - killedAt, HEARTBEAT_TTL_MS)
      const late: Array<SseEvent> = []
      const resumedAt = Date.now()
      const fourth = yield* Effect.promise(() =>
        fetch(b, { headers: { ...sessionHeaders(sid), "last-event-id": laterId, accept: "text/event-stream" } })
      )
      yield* Effect.promise(() => readSse(fourth, late)).pipe(Effect.timeout("3 seconds"))
      const lateAnswer = messagesOf(late).find((m) => m.id === 8)
      assert.strictEqual(lateAnswer?.error?.code, -32603, JSON.stringify(late))
      assert.isBelow(late.find((e) => e.data?.includes("stopped"))!.at - resumedAt, 1_000)

      // "every key above has a TTL" (the README): a session, its streams, a dead instance's leftovers
      const ttls = yield* keyTtls(REDIS_URL, prefix)
      assert.isAbove(ttls.length, 4)
      assert.deepStrictEqual(ttls.filter(([, ttl]) => ttl <= 0), [])
    }), 40_000)

  it.live("the official v1 client behind a round-robin proxy: the call rejects with the explicit error within the bound", () =>
    Effect.gen(function*() {
      const { instances } = yield* startTestFleet(3)
      const proxy = yield* roundRobin(instances.map((i) => i.port))
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)))
          return client
        }),
        (client) => Effect.promise(() => client.close().catch(() => {})).pipe(Effect.timeout("2 seconds"), Effect.ignore)
      )
      const runningOn: Array<string> = []
      const call = yield* Effect.forkChild(Effect.result(Effect.tryPromise({
        try: () =>
          client.callTool({ name: "slow", arguments: { steps: 150 } }, undefined, {
            onprogress: (p) => void runningOn.push(String(p.message)),
            timeout: 60_000
          }),
        catch: (e) => e
      })))
      for (let i = 0; i < 100 && runningOn.length === 0; i++) yield* Effect.sleep("20 millis")
      const victim = instances.findIndex((i) => i.id === runningOn[0])
      assert.isAtLeast(victim, 0)
      yield* instances[victim]!.kill
      const killedAt = Date.now()
      proxy.remove(victim)
      // the client waits the stream's `retry` (1 s) before it resumes
      const bound = BOUND_MS + RETRY_MS
      const outcome = yield* Fiber.await(call).pipe(
        Effect.flatten,
        Effect.timeoutOrElse({ duration: bound + 3_000, orElse: () => Effect.fail(new Error("the call did not settle")) }),
        Effect.orDie
      )
      const took = Date.now() - killedAt
      assert.isTrue(Result.isFailure(outcome), "the call must fail")
      const error = (outcome as Result.Failure<unknown, unknown>).failure
      assert.instanceOf(error, McpError)
      assert.strictEqual((error as McpError).code, -32603)
      assert.include((error as McpError).message, `(${instances[victim]!.id}) stopped`)
      assert.isBelow(took, bound)
    }), 40_000)
})
