/**
 * The tasks' failure modes of the README, with instances as processes: Redis paused (SIGSTOP) while
 * a task finishes (its status change is retried through the outage: the task completes, it is not
 * left `working`); an instance killed with a task running and restarted under the same id (it
 * fails what its previous life left unfinished).
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { initialize } from "../../../node/test/httpUtil.js"
import { startInstance } from "../fleet.js"
import { describeRedis } from "../redis.js"
import { messagesOf, ownRedis, readSse, type SseEvent, sessionHeaders, type Wire } from "./processes.js"

interface TaskWire extends Wire {
  readonly result?: Wire["result"] & { readonly task?: { readonly taskId: string; readonly status: string; readonly statusMessage?: string } }
}

let nextId = 10
/** One request in a 2025 session: its answer (bounded). */
const rpc = (url: string, sid: string, method: string, params: Record<string, unknown>) =>
  Effect.promise(async () => {
    const id = nextId++
    const response = await fetch(url, {
      method: "POST",
      headers: sessionHeaders(sid),
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      signal: AbortSignal.timeout(10_000)
    })
    if ((response.headers.get("content-type") ?? "").includes("application/json")) return JSON.parse(await response.text()) as TaskWire
    const events: Array<SseEvent> = []
    await readSse(response, events)
    const answer = messagesOf(events).find((m) => m.id === id)
    if (answer === undefined) throw new Error(`${method}: HTTP ${response.status}, no answer`)
    return answer as TaskWire
  })

const status = (url: string, sid: string, taskId: string) =>
  Effect.map(rpc(url, sid, "tasks/get", { taskId }), (answer) => answer.result as unknown as { readonly status: string; readonly statusMessage?: string })

describeRedis("tasks through failures", () => {
  it.live("Redis paused (SIGSTOP) while a task finishes: its status change is retried, the task completes", () =>
    Effect.gen(function*() {
      const redis = yield* ownRedis
      const instance = yield* startInstance(redis.url, "tasks", "i0")
      const url = `http://127.0.0.1:${instance.port}/mcp`
      const sid = yield* initialize(url)
      const created = yield* rpc(url, sid, "tools/call", { name: "job", arguments: { ms: 1_000 }, task: { ttl: 60_000 } })
      const taskId = created.result!.task!.taskId
      assert.strictEqual(created.result!.task!.status, "working")
      // down from before the job ends (1 s) to well after: the change waits for Redis
      yield* redis.pause
      yield* Effect.sleep("3 seconds")
      yield* redis.resume
      let seen = yield* status(url, sid, taskId)
      for (let i = 0; i < 100 && seen.status === "working"; i++) {
        yield* Effect.sleep("100 millis")
        seen = yield* status(url, sid, taskId)
      }
      assert.strictEqual(seen.status, "completed", JSON.stringify(seen))
      const result = yield* rpc(url, sid, "tasks/result", { taskId })
      assert.strictEqual(result.result?.content?.[0]?.text, "job of 1000 ms done on i0")
    }), 40_000)

  it.live("an instance killed with a task running, restarted under the same id: the task is failed with a reason", () =>
    Effect.gen(function*() {
      const redis = yield* ownRedis
      const first = yield* startInstance(redis.url, "tasks", "i0")
      const sid = yield* initialize(`http://127.0.0.1:${first.port}/mcp`)
      const created = yield* rpc(`http://127.0.0.1:${first.port}/mcp`, sid, "tools/call", {
        name: "job",
        arguments: { ms: 60_000 },
        task: { ttl: 120_000 }
      })
      const taskId = created.result!.task!.taskId
      yield* first.kill
      const again = yield* startInstance(redis.url, "tasks", "i0")
      const url = `http://127.0.0.1:${again.port}/mcp`
      let seen = yield* status(url, sid, taskId)
      for (let i = 0; i < 50 && seen.status === "working"; i++) {
        yield* Effect.sleep("100 millis")
        seen = yield* status(url, sid, taskId)
      }
      assert.strictEqual(seen.status, "failed", JSON.stringify(seen))
      assert.include(seen.statusMessage, "(i0) stopped")
      const result = yield* rpc(url, sid, "tasks/result", { taskId })
      // -32603, its message hidden as every -32603's is (the engine's rule): the reason is the status message
      assert.deepStrictEqual(result.error, { code: -32603, message: "Internal error" })
    }), 40_000)
})
