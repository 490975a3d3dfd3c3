/**
 * Interop: the official v1 SDK's experimental tasks client
 * (`client.experimental.tasks`, @modelcontextprotocol/sdk 1.32.2) against our
 * server with `McpTasks` over streamable HTTP: callToolStream (task created,
 * statuses, result), getTask, listTasks, cancelTask, getTaskResult, and the
 * elicitation of a task answered while it shows input_required.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { startServer } from "./httpUtil.js"

const Compute = McpServer.tool({
  name: "compute",
  description: "Sleeps, then answers",
  execution: { taskSupport: "optional" },
  parameters: Schema.Struct({ ms: Schema.Number }),
  handler: ({ ms }) => Effect.as(Effect.sleep(`${ms} millis`), `computed after ${ms} ms`)
})

const Ask = McpServer.tool({
  name: "ask",
  description: "Asks the user, as a task",
  execution: { taskSupport: "required" },
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const answer = yield* ctx.elicit({ message: "Month?", requestedSchema: { type: "object", properties: { month: { type: "string" } } } })
      return answer.action === "accept" ? `month ${String(answer.content?.month)}` : answer.action
    })
})

const Features = Layer.mergeAll(McpServer.register(Compute, Ask), McpTasks.layerMemory({ pollInterval: "50 millis" }))

const connect = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official", version: "1.0.0" }, { capabilities: { elicitation: {} } })
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { month: "May" } }))
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      await client.listTools() // the client learns which tools are tasks
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!).text

describe("the official v1 SDK's experimental tasks client against our server", () => {
  it.live("callToolStream: task created, statuses, the result; getTask and listTasks see it", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features)
      const client = yield* connect(url)
      const kinds = yield* Effect.promise(async () => {
        const seen: Array<{ type: string; value?: unknown }> = []
        for await (const message of client.experimental.tasks.callToolStream({ name: "compute", arguments: { ms: 100 } }, undefined, { task: { ttl: 60_000 } })) {
          seen.push({ type: message.type, value: message.type === "result" ? message.result : message.type === "error" ? String(message.error) : "task" in message ? message.task : undefined })
        }
        return seen
      })
      assert.strictEqual(kinds[0]!.type, "taskCreated")
      assert.strictEqual(kinds[kinds.length - 1]!.type, "result", JSON.stringify(kinds))
      assert.strictEqual(textOf(kinds[kinds.length - 1]!.value), "computed after 100 ms")
      const taskId = (kinds[0]!.value as { taskId: string }).taskId
      const task = yield* Effect.promise(() => client.experimental.tasks.getTask(taskId))
      assert.strictEqual(task.status, "completed")
      assert.strictEqual(task.ttl, 60_000)
      const listed = yield* Effect.promise(() => client.experimental.tasks.listTasks())
      assert.deepStrictEqual(listed.tasks.map((t) => t.taskId), [taskId])
    }))

  it.live("cancelTask stops a running task; getTaskResult of a finished one is its result", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features)
      const client = yield* connect(url)
      const call = (ms: number) =>
        Effect.promise(() =>
          client.request({ method: "tools/call", params: { name: "compute", arguments: { ms }, task: {} } }, CreateTaskResultSchema)
        )
      const long = yield* call(60_000)
      assert.strictEqual(long.task.status, "working")
      const cancelled = yield* Effect.promise(() => client.experimental.tasks.cancelTask(long.task.taskId))
      assert.strictEqual(cancelled.status, "cancelled")
      assert.strictEqual((yield* Effect.promise(() => client.experimental.tasks.getTask(long.task.taskId))).status, "cancelled")
      const quick = yield* call(0)
      const result = yield* Effect.promise(() => client.experimental.tasks.getTaskResult(quick.task.taskId, CallToolResultSchema))
      assert.strictEqual(textOf(result), "computed after 0 ms")
    }))

  it.live("a required-task tool's elicitation reaches the official client, which answers; the task completes", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features)
      const client = yield* connect(url)
      const last = yield* Effect.promise(async () => {
        let final: unknown
        for await (const message of client.experimental.tasks.callToolStream({ name: "ask", arguments: {} })) final = message
        return final as { type: string; result?: unknown; error?: unknown }
      })
      assert.strictEqual(last.type, "result", JSON.stringify(last))
      assert.strictEqual(textOf(last.result), "month May")
    }))
})
