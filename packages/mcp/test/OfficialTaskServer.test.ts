/**
 * Interop: our client's plain `callTool` against the official v1 SDK's
 * experimental tasks server (@modelcontextprotocol/sdk 1.32.2,
 * `server.experimental.tasks.registerToolTask` with `taskSupport:
 * "required"`, its `InMemoryTaskStore`) over real streamable HTTP: the call
 * is made as a task (the tools listed first when it was never listed) and
 * returns the tool's result; a task that goes `input_required` gets its
 * queued elicitation on `tasks/result`, which the client calls, also from a
 * handle's statuses; interrupting a call cancels the task on the server.
 */
import { randomUUID } from "node:crypto"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { assert, describe, it } from "@effect/vitest"
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { ElicitResultSchema, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { z } from "zod"
import { type Handler, serve } from "./utils/httpClientServers.js"

/**
 * `sendRequest`'s options queueing the request to its task (delivered on `tasks/result`): the SDK
 * reads `relatedTask` there (as the everything server passes it), though its type leaves it out.
 */
const related = (taskId: string) => {
  const options = { timeout: 10_000, relatedTask: { taskId } }
  return options
}

/** The official server with two required-task tools: `delay`, whose work ends after `ms` (a timer of the test); `clarify`, which asks. */
const officialTaskServer = () => {
  const taskStore = new InMemoryTaskStore()
  const transports = new Map<string, StreamableHTTPServerTransport>()
  const build = () => {
    const server = new McpServer({ name: "official-tasks", version: "1.0.0" }, {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue: new InMemoryTaskMessageQueue()
    })
    server.experimental.tasks.registerToolTask("delay", {
      description: "Waits, as a task",
      inputSchema: { ms: z.number() },
      execution: { taskSupport: "required" }
    }, {
      createTask: async ({ ms }, { taskRequestedTtl, taskStore: store }) => {
        const task = await store.createTask({ ttl: taskRequestedTtl ?? 60_000 })
        setTimeout(() => {
          void store.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: `waited ${ms} ms` }] }).catch(() => {})
        }, ms).unref()
        return { task }
      },
      getTask: async (_args, { taskId, taskStore: store }) => store.getTask(taskId),
      getTaskResult: async (_args, { taskId, taskStore: store }) => store.getTaskResult(taskId) as never
    })
    // input_required: its elicitation queued (relatedTask), delivered by the SDK only on tasks/result
    server.experimental.tasks.registerToolTask("clarify", {
      description: "Asks which meaning of the topic, as a task",
      inputSchema: { topic: z.string() },
      execution: { taskSupport: "required" }
    }, {
      createTask: async ({ topic }, { sendRequest, taskStore: store }) => {
        const task = await store.createTask({ ttl: 60_000, pollInterval: 50 })
        const ask = async () => {
          await store.updateTaskStatus(task.taskId, "input_required", "which one?")
          const answer = await sendRequest({
            method: "elicitation/create",
            params: {
              mode: "form",
              message: `Which ${topic}?`,
              requestedSchema: { type: "object", properties: { which: { type: "string" } }, required: ["which"] }
            }
          }, ElicitResultSchema, related(task.taskId))
          await store.updateTaskStatus(task.taskId, "working", "answered")
          await store.storeTaskResult(task.taskId, "completed", {
            content: [{ type: "text", text: `${topic}: ${String(answer.content?.which ?? answer.action)}` }]
          })
        }
        void ask().catch(() => {})
        return { task }
      },
      getTask: async (_args, { taskId, taskStore: store }) => store.getTask(taskId),
      getTaskResult: async (_args, { taskId, taskStore: store }) => store.getTaskResult(taskId) as never
    })
    return server
  }
  const handler: Handler = async (req, res, body) => {
    const sid = req.headers["mcp-session-id"]
    if (typeof sid === "string") return transports.get(sid)?.handleRequest(req, res, body)
    if (req.method === "POST" && isInitializeRequest(body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, transport)
      })
      await build().connect(transport)
      return transport.handleRequest(req, res, body)
    }
    res.writeHead(400).end()
  }
  return Effect.map(
    Effect.acquireRelease(serve(handler), () => Effect.promise(() => Promise.all([...transports.values()].map((t) => t.close())))),
    (server) => ({ ...server, taskStore })
  )
}

/** Answers every form elicitation with `which: "snake"`. */
const elicitation: McpClient.ElicitationHandlers = {
  form: () => Effect.succeed({ action: "accept" as const, content: { which: "snake" } })
}

const connect = (url: string) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
    const context = yield* Layer.buildWithScope(
      McpClient.layer({ era: "2025", name: "ours", version: "1.0.0", elicitation }).pipe(
        Layer.provideMerge(StreamableHttpClient.layer({ url })),
        Layer.provide(NodeHttpClient.layerUndici)
      ),
      scope
    )
    return Context.get(context, McpClient.McpClient)
  })

const postedMethods = (seen: ReadonlyArray<{ readonly method: string; readonly body: unknown }>) =>
  seen.filter((s) => s.method === "POST").map((s) => {
    const m = s.body as { readonly method?: string; readonly params?: { readonly task?: unknown } }
    return `${m.method ?? "(response)"}${m.params?.task !== undefined ? "+task" : ""}`
  })

describe("our client against the official v1 SDK's experimental tasks server", () => {
  it.live("a plain callTool of its required-task tool is made as a task and returns the result", () =>
    Effect.gen(function*() {
      const server = yield* officialTaskServer()
      const client = yield* connect(server.url)
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools.find((t) => t.name === "delay")?.execution, { taskSupport: "required" })
      const result = yield* client.callTool("delay", { ms: 200 })
      assert.deepStrictEqual(result.content, [{ type: "text", text: "waited 200 ms" }])
      const sent = postedMethods(server.seen)
      assert.includeMembers(sent, ["tools/call+task", "tasks/result"])
      assert.notInclude(sent, "tools/call")
    }))

  it.live("a plain callTool of a required-task tool never listed: listed first, made as a task (not refused with an error result)", () =>
    Effect.gen(function*() {
      const server = yield* officialTaskServer()
      const client = yield* connect(server.url)
      const result = yield* client.callTool("delay", { ms: 50 }).pipe(Effect.timeout("10 seconds"))
      assert.notStrictEqual(result.isError, true)
      assert.deepStrictEqual(result.content, [{ type: "text", text: "waited 50 ms" }])
      const sent = postedMethods(server.seen)
      assert.deepStrictEqual(sent.filter((m) => m.startsWith("tools/") || m === "tasks/result"), ["tools/list", "tools/call+task", "tasks/result"])
    }))

  it.live("McpTasksClient: a task's statuses reaching input_required call tasks/result, where its elicitation comes and is answered", () =>
    Effect.gen(function*() {
      const server = yield* officialTaskServer()
      const client = yield* connect(server.url)
      const { result, statuses } = yield* Effect.gen(function*() {
        const handle = yield* McpTasksClient.callTool("clarify", { topic: "python" })
        const statuses = yield* Stream.runCollect(handle.statuses)
        return { statuses: [...statuses].map((t) => t.status), result: yield* handle.result }
      }).pipe(Effect.provideService(McpClient.McpClient, client), Effect.timeout("10 seconds"))
      assert.include(statuses, "input_required")
      assert.strictEqual(statuses.at(-1), "completed")
      assert.deepStrictEqual(result.content, [{ type: "text", text: "python: snake" }])
      const sent = postedMethods(server.seen)
      assert.include(sent, "tasks/result")
      // the elicitation's answer
      assert.include(sent, "(response)")
    }))

  it.live("a plain callTool of the input_required tool: the elicitation is answered through tasks/result, the result returned", () =>
    Effect.gen(function*() {
      const server = yield* officialTaskServer()
      const client = yield* connect(server.url)
      const result = yield* client.callTool("clarify", { topic: "python" }).pipe(Effect.timeout("10 seconds"))
      assert.deepStrictEqual(result.content, [{ type: "text", text: "python: snake" }])
    }))

  it.live("interrupting the call cancels the task on the official server", () =>
    Effect.gen(function*() {
      const server = yield* officialTaskServer()
      const client = yield* connect(server.url)
      yield* client.listToolsAll()
      const call = yield* Effect.forkChild(client.callTool("delay", { ms: 30_000 }))
      while (!postedMethods(server.seen).includes("tools/call+task")) yield* Effect.sleep("20 millis")
      yield* Effect.sleep("100 millis")
      yield* Fiber.interrupt(call)
      const cancel = server.seen.find((s) => (s.body as { method?: string } | undefined)?.method === "tasks/cancel")
      assert.isDefined(cancel)
      const taskId = (cancel!.body as { params: { taskId: string } }).params.taskId
      const task = yield* Effect.promise(() => server.taskStore.getTask(taskId))
      assert.strictEqual(task?.status, "cancelled")
    }))
})
