/**
 * Tasks (2025-11-25) on a fleet of three real processes sharing a real
 * Redis (`RedisTaskStore` in `RedisFleet`'s Layer): a task runs where it was
 * created and every instance serves it; a cancel reaches the instance
 * running it; a killed instance's task becomes `failed`; an expired task
 * leaves nothing in Redis. Raw HTTP to each instance, so that each request's
 * instance is chosen.
 */
import { assert, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import { Redis } from "ioredis"
import { initialize, readSseData } from "../../node/test/httpUtil.js"
import { type Instance, startTestFleet } from "./fleet.js"
import { describeRedis, keysUnder, REDIS_URL } from "./redis.js"

class TestFleet extends Context.Service<TestFleet, {
  readonly prefix: string
  readonly instances: ReadonlyArray<Instance>
  readonly urls: ReadonlyArray<string>
}>()("TasksTestFleet") {}

const TestFleetLive = Layer.effect(TestFleet, startTestFleet(3))

interface Message {
  readonly id?: unknown
  readonly method?: string
  readonly params?: unknown
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

const headers = (sid?: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  ...(sid === undefined ? {} : { "mcp-session-id": sid })
})

/** The messages of an answer, JSON or SSE. */
let lastText = ""
const messagesOf = async (response: Response): Promise<Array<Message>> => {
  const text = await response.text()
  lastText = text
  if ((response.headers.get("content-type") ?? "").includes("application/json")) return [JSON.parse(text)]
  return text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)))
}

let nextId = 100
/** One request to one instance; its answer. */
const rpc = (url: string, sid: string, method: string, params: unknown) =>
  Effect.promise(async () => {
    const id = nextId++
    const response = await fetch(url, { method: "POST", headers: headers(sid), body: JSON.stringify({ jsonrpc: "2.0", id, method, params }) })
    const messages = await messagesOf(response)
    const answer = messages.find((m) => m.id === id)
    if (answer === undefined) throw new Error(`${method} on ${url}: HTTP ${response.status}, ${JSON.stringify(lastText)}`)
    return answer
  })

/** The standing GET of a session on one instance: the messages it received so far. */
const standing = (url: string, sid: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const controller = new AbortController()
      const received: Array<Message> = []
      const response = await fetch(url, { headers: { ...headers(sid), accept: "text/event-stream" }, signal: controller.signal })
      readSseData(response, received)
      return { received, controller }
    }),
    ({ controller }) => Effect.sync(() => controller.abort())
  ).pipe(Effect.map(({ received }) => received))

const redisGet = (key: string) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return await redis.get(key)
    } finally {
      redis.disconnect()
    }
  })

/** Retries `check` every 50 ms until it holds (at most `ms`); whether it did. */
const eventually = (ms: number, check: Effect.Effect<boolean>) =>
  Effect.gen(function*() {
    for (let waited = 0; waited < ms; waited += 50) {
      if (yield* check) return true
      yield* Effect.sleep("50 millis")
    }
    return yield* check
  })

/** An answer's result, decoded with the protocol's schema (a wrong shape on the wire fails the test). */
const resultOf = <A, I>(schema: Schema.Codec<A, I>, m: Message): A => {
  assert.isUndefined(m.error, JSON.stringify(m))
  return Schema.decodeUnknownSync(schema)(m.result)
}
const statusIn = (m: Message) => resultOf(McpSchema.GetTaskResult, m).status
const toolText = (m: Message) => {
  const first = resultOf(McpSchema.CallToolResult, m).content[0]
  return first?.type === "text" ? first.text : undefined
}

const createTask = (url: string, sid: string, name: string, args: unknown, task: unknown = {}) =>
  Effect.map(rpc(url, sid, "tools/call", { name, arguments: args, task }), (m) => resultOf(McpSchema.CreateTaskResult, m).task)

const decodeStatus = Schema.decodeUnknownSync(McpSchema.TaskStatusNotificationParams)
const statusOf = (notes: ReadonlyArray<Message>, taskId: string) =>
  notes.filter((m) => m.method === "notifications/tasks/status").map((m) => decodeStatus(m.params))
    .filter((p) => p.taskId === taskId).map((p) => p.status)

describeRedis("tasks on three instances sharing Redis", () => {
  layer(TestFleetLive, { excludeTestServices: true, timeout: 60_000 })((it) => {
    it.effect("a task created on one instance is got, listed, awaited and refused to others on the other instances", () =>
      Effect.gen(function*() {
        const { urls } = yield* TestFleet
        const [a, b, c] = urls as [string, string, string]
        const sid = yield* initialize(a)
        const notes = yield* standing(c, sid)
        yield* Effect.sleep("200 millis")
        const task = yield* createTask(a, sid, "job", { ms: 600 })
        assert.strictEqual(task.status, "working")
        const got = yield* rpc(b, sid, "tasks/get", { taskId: task.taskId })
        assert.strictEqual(statusIn(got), "working")
        const listed = yield* rpc(c, sid, "tasks/list", {})
        assert.deepStrictEqual(resultOf(McpSchema.ListTasksResult, listed).tasks.map((t) => t.taskId), [task.taskId])

        // tasks/result on another instance waits, and is woken by the change (its poll interval is 5 s)
        const started = Date.now()
        const result = yield* rpc(b, sid, "tasks/result", { taskId: task.taskId })
        const waited = Date.now() - started
        assert.strictEqual(toolText(result), "job of 600 ms done on i0")
        const related = resultOf(McpSchema.CallToolResult, result)._meta?.["io.modelcontextprotocol/related-task"]
        assert.deepStrictEqual(related, { taskId: task.taskId })
        assert.isBelow(waited, 4_000, "woken across instances, not by polling")
        assert.strictEqual(statusIn(yield* rpc(c, sid, "tasks/get", { taskId: task.taskId })), "completed")
        // the status notifications reach the standing stream held by another instance than the task's
        assert.isTrue(yield* eventually(3_000, Effect.sync(() => statusOf(notes, task.taskId).includes("completed"))))

        // bad input, on every instance
        const unknown = yield* rpc(b, sid, "tasks/get", { taskId: "no-such-task" })
        assert.strictEqual(unknown.error?.code, -32602)
        const other = yield* initialize(c)
        for (const url of urls) {
          assert.strictEqual((yield* rpc(url, other, "tasks/get", { taskId: task.taskId })).error?.code, -32602)
          assert.strictEqual((yield* rpc(url, other, "tasks/result", { taskId: task.taskId })).error?.code, -32602)
          assert.strictEqual((yield* rpc(url, other, "tasks/cancel", { taskId: task.taskId })).error?.code, -32602)
          assert.deepStrictEqual(resultOf(McpSchema.ListTasksResult, yield* rpc(url, other, "tasks/list", {})).tasks, [])
        }
        const finished = yield* rpc(c, sid, "tasks/cancel", { taskId: task.taskId })
        assert.strictEqual(finished.error?.code, -32602)
        assert.include(finished.error!.message, "terminal status 'completed'")
      }))

    it.effect("tasks/cancel on another instance interrupts the handler and its fork where the task runs", () =>
      Effect.gen(function*() {
        const { prefix, urls } = yield* TestFleet
        const [a, b, c] = urls as [string, string, string]
        const sid = yield* initialize(a)
        const task = yield* createTask(a, sid, "job", { ms: 30_000 })
        const cancelled = yield* rpc(b, sid, "tasks/cancel", { taskId: task.taskId })
        assert.strictEqual(resultOf(McpSchema.CancelTaskResult, cancelled).status, "cancelled")
        assert.isTrue(yield* eventually(3_000, Effect.map(redisGet(`${prefix}:test:job-interrupted`), (v) => v === "i0")))
        assert.isTrue(yield* eventually(1_000, Effect.map(redisGet(`${prefix}:test:job-fork-interrupted`), (v) => v === "i0")))
        assert.strictEqual(statusIn(yield* rpc(c, sid, "tasks/get", { taskId: task.taskId })), "cancelled")
        assert.strictEqual((yield* rpc(c, sid, "tasks/result", { taskId: task.taskId })).error?.code, -32800)
        // cancelling again: it is finished
        assert.strictEqual((yield* rpc(a, sid, "tasks/cancel", { taskId: task.taskId })).error?.code, -32602)
      }))

    it.effect("a task's record and indexes leave Redis at its expiry", () =>
      Effect.gen(function*() {
        const { prefix, urls } = yield* TestFleet
        const [a, b] = urls as [string, string, string]
        const sid = yield* initialize(a)
        const task = yield* createTask(a, sid, "job", { ms: 50 }, { ttl: 1_500 })
        assert.strictEqual(toolText(yield* rpc(b, sid, "tasks/result", { taskId: task.taskId })), "job of 50 ms done on i0")
        // the task's keys: its record and its owner's index (the session's own keys stay)
        const mine = (keys: ReadonlyArray<string>) =>
          keys.map((k) => k.slice(prefix.length)).filter((k) => k.includes(task.taskId) || k === `:tasks:own:session:${sid}`).sort()
        assert.deepStrictEqual(mine(yield* keysUnder(prefix)), [`:task:${task.taskId}`, `:tasks:own:session:${sid}`])
        assert.isTrue(yield* eventually(4_000, Effect.map(keysUnder(prefix), (keys) => mine(keys).length === 0)))
        const exp = yield* Effect.promise(async () => {
          const redis = new Redis(REDIS_URL)
          try {
            return await redis.zscore(`${prefix}:tasks:exp`, task.taskId)
          } finally {
            redis.disconnect()
          }
        })
        assert.isNull(exp)
        assert.strictEqual((yield* rpc(b, sid, "tasks/get", { taskId: task.taskId })).error?.code, -32602)
      }))

    // last: it kills an instance
    it.effect("an instance killed mid-task: its task becomes failed with a reason within seconds, told to the session", () =>
      Effect.gen(function*() {
        const { instances, urls } = yield* TestFleet
        const [a, , c] = urls as [string, string, string]
        const sid = yield* initialize(a)
        const notes = yield* standing(a, sid)
        yield* Effect.sleep("200 millis")
        const task = yield* createTask(c, sid, "job", { ms: 60_000 })
        const killedAt = Date.now()
        yield* instances[2]!.kill
        let status = "working"
        let message = ""
        while (status === "working" && Date.now() - killedAt < 10_000) {
          yield* Effect.sleep("100 millis")
          const got = yield* rpc(a, sid, "tasks/get", { taskId: task.taskId })
          const decoded = resultOf(McpSchema.GetTaskResult, got)
          status = decoded.status
          message = decoded.statusMessage ?? ""
        }
        const took = Date.now() - killedAt
        assert.strictEqual(status, "failed")
        assert.include(message, "(i2) stopped")
        assert.isBelow(took, 6_000)
        const result = yield* rpc(urls[1]!, sid, "tasks/result", { taskId: task.taskId })
        assert.strictEqual(result.error?.code, -32603)
        assert.isTrue(yield* eventually(3_000, Effect.sync(() => statusOf(notes, task.taskId).includes("failed"))))
      }))
  })
})
