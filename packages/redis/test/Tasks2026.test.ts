/**
 * The 2026-07-28 tasks extension (SEP-2663) on two real processes sharing a real Redis
 * (`RedisTaskStore`): a task created on one instance is got on the other, its input request
 * answered there (`tasks/update`) reaches the handler where it runs (woken by the store's change,
 * not by its 5 s poll), and a `tasks/cancel` on the other instance interrupts it where it runs.
 * Raw 2026 HTTP (stateless: no session) to each instance.
 */
import { assert, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Redis } from "ioredis"
import { tasksWire } from "../../mcp/test/utils/wireTasks2026.js"
import { startTestFleet } from "./fleet.js"
import { describeRedis, REDIS_URL } from "./redis.js"

class TestFleet extends Context.Service<TestFleet, {
  readonly prefix: string
  readonly urls: ReadonlyArray<string>
}>()("Tasks2026TestFleet") {}

const TestFleetLive = Layer.effect(TestFleet, startTestFleet(2))

const V = "2026-07-28"
const meta = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
}

let nextId = 1
/** One 2026 request to one instance: its result (or error). */
const rpc = (url: string, method: string, params: Record<string, unknown>) =>
  Effect.promise(async () => {
    const id = nextId++
    const name = (params.name ?? params.taskId) as string | undefined
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": V,
        "mcp-method": method,
        ...(name !== undefined ? { "mcp-name": name } : {})
      },
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } })
    })
    const text = await response.text()
    const messages = (response.headers.get("content-type") ?? "").includes("application/json")
      ? [JSON.parse(text)]
      : text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)))
    const answer = (messages as Array<{ readonly id?: unknown; readonly result?: unknown }>).find((m) => m.id === id)
    if (answer === undefined) throw new Error(`${method} on ${url}: HTTP ${response.status}, ${text}`)
    return answer.result
  })

/** `tasks/get` on one instance, validated against the extension's schema. */
const getTask = (url: string, taskId: string) => Effect.map(rpc(url, "tasks/get", { taskId }), (r) => tasksWire("GetTaskResult", r))

/** Retries `check` every 50 ms until it holds (at most `ms`); whether it did. */
const eventually = (ms: number, check: Effect.Effect<boolean>) =>
  Effect.gen(function*() {
    for (let waited = 0; waited < ms; waited += 50) {
      if (yield* check) return true
      yield* Effect.sleep("50 millis")
    }
    return yield* check
  })

const redisGet = (key: string) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return await redis.get(key)
    } finally {
      redis.disconnect()
    }
  })

describeRedis("the 2026 tasks extension on two instances sharing Redis", () => {
  layer(TestFleetLive, { excludeTestServices: true, timeout: 60_000 })((it) => {
    it.effect("created on one, its input answered on the other (the handler woken by the change), completed where it ran", () =>
      Effect.gen(function*() {
        const { urls } = yield* TestFleet
        const [a, b] = urls as [string, string]
        const created = tasksWire("CreateTaskResult", yield* rpc(a, "tools/call", { name: "ask-task", arguments: {} }))
        const asked = yield* eventually(3_000, Effect.map(getTask(b, created.taskId), (t) => t.status === "input_required"))
        assert.isTrue(asked)
        const pending = yield* getTask(b, created.taskId)
        const [key] = Object.keys(pending.inputRequests ?? {})
        const started = Date.now()
        const ack = yield* rpc(b, "tasks/update", { taskId: created.taskId, inputResponses: { [key!]: { action: "accept", content: { name: "Ada" } } } })
        tasksWire("UpdateTaskResult", ack)
        const done = yield* eventually(4_000, Effect.map(getTask(b, created.taskId), (t) => t.status === "completed"))
        assert.isTrue(done)
        // the handler polls every 5 s: it was woken by the change
        assert.isBelow(Date.now() - started, 4_000)
        const final = yield* getTask(a, created.taskId)
        assert.strictEqual(final.result?.content[0]?.text, "Ada on i0")
      }))

    it.effect("tasks/cancel on the other instance interrupts the handler where it runs", () =>
      Effect.gen(function*() {
        const { prefix, urls } = yield* TestFleet
        const [a, b] = urls as [string, string]
        const created = tasksWire("CreateTaskResult", yield* rpc(a, "tools/call", { name: "job", arguments: { ms: 30_000 } }))
        tasksWire("CancelTaskResult", yield* rpc(b, "tasks/cancel", { taskId: created.taskId }))
        assert.isTrue(yield* eventually(3_000, Effect.map(redisGet(`${prefix}:test:job-interrupted`), (v) => v === "i0")))
        assert.strictEqual((yield* getTask(a, created.taskId)).status, "cancelled")
      }))
  })
})
