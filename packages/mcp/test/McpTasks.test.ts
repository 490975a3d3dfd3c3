/**
 * Tasks (2025-11-25) on the server, over the in-memory transport with every
 * message validated against the official schema: the capability, creation
 * detached from the request, status notifications, tasks/get, tasks/result
 * (waits, bounded), tasks/list (pages, owner only), tasks/cancel
 * (interrupts the handler and its children), input_required through the
 * task's reverse calls, the -32601/-32602 rules, and expiry on the TestClock
 * (10,000 tasks, nothing left).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpClientTag from "@effect-mcp/mcp/McpClient"
import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as Stream from "effect/Stream"
import { ErrorResponse, McpError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import { assertWireValid, buildServer, connect, notifications, requests } from "./utils/wire.js"

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

const codeOf = <A, E>(exit: Exit.Exit<A, E>): number | undefined => (failureOf(exit) as McpError | undefined)?.code

interface Gates {
  readonly release: Deferred.Deferred<void>
  readonly started: Ref.Ref<number>
  readonly interrupted: Ref.Ref<Array<string>>
}

const makeTools = (gates: Gates) => [
  McpServer.tool({
    name: "slow",
    execution: { taskSupport: "optional" },
    parameters: Schema.Struct({ text: Schema.String }),
    handler: ({ text }) =>
      Effect.gen(function*() {
        yield* Ref.update(gates.started, (n) => n + 1)
        // a child the handler forked: cancelling the task must interrupt it too
        yield* Effect.forkScoped(Effect.onInterrupt(Effect.never, () => Ref.update(gates.interrupted, (a) => [...a, "child"])))
        yield* Effect.onInterrupt(Deferred.await(gates.release), () => Ref.update(gates.interrupted, (a) => [...a, "handler"]))
        return `done: ${text}`
      }).pipe(Effect.scoped)
  }),
  McpServer.tool({ name: "quick", execution: { taskSupport: "optional" }, handler: () => Effect.succeed("quick") }),
  McpServer.tool({ name: "plain", handler: () => Effect.succeed("plain") }),
  McpServer.tool({ name: "must", execution: { taskSupport: "required" }, handler: () => Effect.succeed("must") }),
  McpServer.tool({
    name: "broken",
    execution: { taskSupport: "optional" },
    handler: () => Effect.fail(new ErrorResponse({ code: -32602, message: "no such report" }))
  }),
  McpServer.tool({
    name: "toolError",
    execution: { taskSupport: "optional" },
    handler: () => Effect.succeed({ content: [{ type: "text" as const, text: "the API said no" }], isError: true })
  }),
  McpServer.tool({
    name: "ask",
    execution: { taskSupport: "optional" },
    handler: () =>
      Effect.gen(function*() {
        const ctx = yield* HandlerContext
        const answer = yield* ctx.elicit({
          message: "Which month?",
          requestedSchema: { type: "object", properties: { month: { type: "string" } } }
        })
        return answer.action === "accept" ? `month ${String(answer.content?.month)}` : answer.action
      })
  })
]

const setup = (options?: McpTasks.TasksOptions, client?: Partial<McpClient.ClientOptions>) =>
  Effect.gen(function*() {
    const gates: Gates = {
      release: yield* Deferred.make<void>(),
      started: yield* Ref.make(0),
      interrupted: yield* Ref.make<Array<string>>([])
    }
    const store = yield* McpTasks.makeMemoryStore
    const features = Layer.mergeAll(McpServer.register(...makeTools(gates)), McpTasks.layer(options)).pipe(
      Layer.provide(Layer.succeed(McpTasks.TaskStore, store))
    )
    const server = yield* buildServer(features)
    const connected = yield* connect(server, client === undefined ? undefined : { client })
    return { gates, store, server, client: connected.client, pair: connected.pair }
  })

const createTask = (client: McpClient.McpClientShape, name: string, args: object = {}, ttl?: number) =>
  Effect.map(
    client.request("tools/call", { name, arguments: args, task: ttl === undefined ? {} : { ttl } }),
    (r) => (r as unknown as McpSchema.CreateTaskResult).task
  )

const getTask = (client: McpClient.McpClientShape, taskId: string) =>
  Effect.map(client.request("tasks/get", { taskId }), (r) => r as unknown as McpSchema.Task)

/** Lets the server's fibers run (all in memory; no time passes). */
const yieldMany = Effect.forEach(Array.from({ length: 20 }), () => Effect.yieldNow, { discard: true })

describe("McpTasks: creating and finishing", () => {
  it.effect("declares the tasks capability; a tool's taskSupport is listed", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* setup()
      assert.deepStrictEqual(client.serverCapabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } })
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools.find((t) => t.name === "slow")?.execution, { taskSupport: "optional" })
      assertWireValid(pair.wire)
    }))

  it.effect("the call answers at once with a working task; the handler runs detached; tasks/result returns its result", () =>
    Effect.gen(function*() {
      const { client, gates, pair } = yield* setup({ defaultTtl: "2 minutes", pollInterval: "500 millis" })
      const task = yield* createTask(client, "slow", { text: "hi" })
      assert.strictEqual(task.status, "working")
      assert.strictEqual(task.ttl, 120_000)
      assert.strictEqual(task.pollInterval, 500)
      assert.strictEqual(task.createdAt, new Date(0).toISOString())
      yield* yieldMany
      assert.strictEqual(yield* Ref.get(gates.started), 1) // running, though its request has ended
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "working")
      // tasks/result waits for it
      const result = yield* Effect.forkChild(client.request("tasks/result", { taskId: task.taskId }))
      yield* yieldMany
      assert.isUndefined(result.pollUnsafe())
      yield* TestClock.adjust("10 seconds")
      yield* Deferred.succeed(gates.release, undefined)
      const answered = (yield* Fiber.join(result)) as unknown as McpSchema.CallToolResult
      assert.deepStrictEqual(answered.content, [{ type: "text", text: "done: hi" }])
      assert.deepStrictEqual(answered._meta, { "io.modelcontextprotocol/related-task": { taskId: task.taskId } })
      const after = yield* getTask(client, task.taskId)
      assert.strictEqual(after.status, "completed")
      assert.strictEqual(after.lastUpdatedAt, new Date(10_000).toISOString())
      const statuses = notifications(pair.wire, "server", "notifications/tasks/status")
      assert.deepStrictEqual(statuses.map((n) => (n.params as McpSchema.Task).status), ["completed"])
      assertWireValid(pair.wire)
    }))

  it.effect("tasks/result of an unfinished task waits at most resultTimeout (-32001), and the task goes on", () =>
    Effect.gen(function*() {
      const { client, gates } = yield* setup({ resultTimeout: "5 seconds" })
      const task = yield* createTask(client, "slow", { text: "x" })
      const waiting = yield* Effect.forkChild(Effect.exit(client.request("tasks/result", { taskId: task.taskId })))
      yield* yieldMany
      yield* TestClock.adjust("5 seconds")
      const exit = yield* Fiber.join(waiting)
      assert.strictEqual(codeOf(exit), -32001)
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "working")
      yield* Deferred.succeed(gates.release, undefined)
      const result = yield* client.request("tasks/result", { taskId: task.taskId })
      assert.deepStrictEqual((result as unknown as McpSchema.CallToolResult).content, [{ type: "text", text: "done: x" }])
    }))

  it.effect("a handler failing with an error: failed, and tasks/result is that JSON-RPC error", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* setup()
      const task = yield* createTask(client, "broken")
      const exit = yield* Effect.exit(client.request("tasks/result", { taskId: task.taskId }))
      assert.strictEqual(codeOf(exit), -32602)
      assert.include((failureOf(exit) as McpError).message, "no such report")
      const after = yield* getTask(client, task.taskId)
      assert.strictEqual(after.status, "failed")
      assert.strictEqual(after.statusMessage, "no such report")
      assertWireValid(pair.wire)
    }))

  it.effect("a tool result with isError: failed, and tasks/result is that result", () =>
    Effect.gen(function*() {
      const { client } = yield* setup()
      const task = yield* createTask(client, "toolError")
      const result = (yield* client.request("tasks/result", { taskId: task.taskId })) as unknown as McpSchema.CallToolResult
      assert.isTrue(result.isError)
      const after = yield* getTask(client, task.taskId)
      assert.strictEqual(after.status, "failed")
      assert.strictEqual(after.statusMessage, "the API said no")
    }))

  it.effect("the 2026 extension's methods are not 2025's: tasks/update is -32601 whatever its params", () =>
    Effect.gen(function*() {
      const { client } = yield* setup()
      const task = yield* createTask(client, "quick")
      for (const params of [{}, { taskId: task.taskId, inputResponses: {} }]) {
        const exit = yield* Effect.exit(client.request("tasks/update" as "tasks/get", params as { taskId: string }))
        assert.strictEqual(codeOf(exit), -32601, JSON.stringify(params))
      }
    }))

  it.effect("taskSupport: forbidden as a task is -32601; required without a task is -32601, with one it runs", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* setup()
      assert.strictEqual(codeOf(yield* Effect.exit(createTask(client, "plain"))), -32601)
      assert.strictEqual(codeOf(yield* Effect.exit(client.request("tools/call", { name: "must", arguments: {} }))), -32601)
      const task = yield* createTask(client, "must")
      const result = (yield* client.request("tasks/result", { taskId: task.taskId })) as unknown as McpSchema.CallToolResult
      assert.deepStrictEqual(result.content, [{ type: "text", text: "must" }])
      // an optional tool without a task is a plain call
      assert.deepStrictEqual((yield* client.callTool("quick")).content, [{ type: "text", text: "quick" }])
      assertWireValid(pair.wire)
    }))

  it.effect("the requested ttl is granted up to maxTtl", () =>
    Effect.gen(function*() {
      const { client } = yield* setup({ maxTtl: "1 minute" })
      assert.strictEqual((yield* createTask(client, "quick", {}, 30_000)).ttl, 30_000)
      assert.strictEqual((yield* createTask(client, "quick", {}, 3_600_000)).ttl, 60_000)
    }))
})

describe("McpTasks: cancelling", () => {
  it.effect("tasks/cancel: cancelled before the answer, the handler and its child interrupted; it stays cancelled", () =>
    Effect.gen(function*() {
      const { client, gates, pair } = yield* setup()
      const task = yield* createTask(client, "slow", { text: "x" })
      yield* yieldMany
      const cancelled = (yield* client.request("tasks/cancel", { taskId: task.taskId })) as unknown as McpSchema.Task
      assert.strictEqual(cancelled.status, "cancelled")
      assert.deepStrictEqual((yield* Ref.get(gates.interrupted)).sort(), ["child", "handler"])
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "cancelled")
      // cancelling again: already terminal
      const again = yield* Effect.exit(client.request("tasks/cancel", { taskId: task.taskId }))
      assert.strictEqual(codeOf(again), -32602)
      assert.include((failureOf(again) as McpError).message, "terminal status 'cancelled'")
      const result = yield* Effect.exit(client.request("tasks/result", { taskId: task.taskId }))
      assert.strictEqual(codeOf(result), -32800)
      const statuses = notifications(pair.wire, "server", "notifications/tasks/status")
      assert.deepStrictEqual(statuses.map((n) => (n.params as McpSchema.Task).status), ["cancelled"])
      assertWireValid(pair.wire)
    }))

  it.effect("cancelling a finished task is -32602; it stays completed", () =>
    Effect.gen(function*() {
      const { client } = yield* setup()
      const task = yield* createTask(client, "quick")
      yield* client.request("tasks/result", { taskId: task.taskId })
      assert.strictEqual(codeOf(yield* Effect.exit(client.request("tasks/cancel", { taskId: task.taskId }))), -32602)
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "completed")
    }))
})

describe("McpTasks: whose task", () => {
  it.effect("an unknown task id is -32602 on get, result and cancel", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* setup()
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
        assert.strictEqual(codeOf(yield* Effect.exit(client.request(method, { taskId: "nope" }))), -32602, method)
      }
      assertWireValid(pair.wire)
    }))

  it.effect("another session's task is not found, not listed, not cancellable", () =>
    Effect.gen(function*() {
      const { client, server } = yield* setup()
      const other = (yield* connect(server)).client
      const task = yield* createTask(client, "slow", { text: "mine" })
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
        assert.strictEqual(codeOf(yield* Effect.exit(other.request(method, { taskId: task.taskId }))), -32602, method)
      }
      const listed = (yield* other.request("tasks/list", {})) as unknown as McpSchema.ListTasksResult
      assert.deepStrictEqual(listed.tasks, [])
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "working")
    }))

  it.effect("tasks/list pages the session's tasks in creation order; a bad cursor is -32602", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* setup({ pageSize: 2 })
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) ids.push((yield* createTask(client, "quick")).taskId)
      const seen: Array<string> = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = (yield* client.request("tasks/list", cursor === undefined ? {} : { cursor })) as unknown as McpSchema.ListTasksResult
        pages++
        seen.push(...page.tasks.map((t) => t.taskId))
        cursor = page.nextCursor
      } while (cursor !== undefined)
      assert.strictEqual(pages, 3)
      assert.deepStrictEqual(seen, ids)
      assert.strictEqual(codeOf(yield* Effect.exit(client.request("tasks/list", { cursor: "garbage" }))), -32602)
      assertWireValid(pair.wire)
    }))
})

describe("McpTasks: input_required", () => {
  it.effect("a task's elicitation moves it to input_required, carries the task in _meta, and the task goes on when answered", () =>
    Effect.gen(function*() {
      const answer = yield* Deferred.make<void>()
      const { client, pair } = yield* setup(undefined, {
        elicitation: {
          form: () => Effect.as(Deferred.await(answer), { action: "accept" as const, content: { month: "May" } })
        }
      })
      const task = yield* createTask(client, "ask")
      yield* yieldMany
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "input_required")
      const [elicit] = requests(pair.wire, "server", "elicitation/create")
      assert.deepStrictEqual((elicit!.params as { _meta?: unknown })._meta, {
        "io.modelcontextprotocol/related-task": { taskId: task.taskId }
      })
      yield* Deferred.succeed(answer, undefined)
      const result = (yield* client.request("tasks/result", { taskId: task.taskId })) as unknown as McpSchema.CallToolResult
      assert.deepStrictEqual(result.content, [{ type: "text", text: "month May" }])
      const statuses = notifications(pair.wire, "server", "notifications/tasks/status")
      assert.deepStrictEqual(statuses.map((n) => (n.params as McpSchema.Task).status), ["input_required", "working", "completed"])
      assertWireValid(pair.wire)
    }))
})

describe("McpTasks: expiry", () => {
  it.effect("a result never fetched expires ttl after creation: not found, and the store holds nothing", () =>
    Effect.gen(function*() {
      const { client, store } = yield* setup()
      const task = yield* createTask(client, "quick", {}, 2_000)
      yield* yieldMany
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "completed")
      yield* TestClock.adjust("1 second")
      assert.strictEqual((yield* getTask(client, task.taskId)).status, "completed")
      yield* TestClock.adjust("1 second")
      assert.strictEqual(codeOf(yield* Effect.exit(getTask(client, task.taskId))), -32602)
      assert.strictEqual(yield* store.size, 0)
    }))

  it.effect("a running task that expires is stopped", () =>
    Effect.gen(function*() {
      const { client, gates, store } = yield* setup()
      yield* createTask(client, "slow", { text: "x" }, 1_000)
      yield* yieldMany
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual((yield* Ref.get(gates.interrupted)).sort(), ["child", "handler"])
      assert.strictEqual(yield* store.size, 0)
    }))

  it.effect("10,000 tasks created and expired leave nothing behind", () =>
    Effect.gen(function*() {
      const { client, store } = yield* setup({ defaultTtl: "1 minute" })
      yield* Effect.forEach(Array.from({ length: 10_000 }), () => createTask(client, "quick"), { concurrency: 64, discard: true })
      yield* yieldMany
      assert.strictEqual(yield* store.size, 10_000)
      const listed = (yield* client.request("tasks/list", {})) as unknown as McpSchema.ListTasksResult
      assert.strictEqual(listed.tasks.length, 100)
      yield* TestClock.adjust("61 seconds")
      assert.strictEqual(yield* store.size, 0)
      const after = (yield* client.request("tasks/list", {})) as unknown as McpSchema.ListTasksResult
      assert.deepStrictEqual(after, { tasks: [] })
    }), { timeout: 60_000 })
})

describe("McpTasksClient", () => {
  const withClient = <A, E>(client: McpClient.McpClientShape, effect: Effect.Effect<A, E, McpClientTag.McpClient>) =>
    Effect.provideService(effect, McpClientTag.McpClient, client)

  it.effect("callTool: a handle whose statuses end with the terminal one and whose result is the tool's", () =>
    Effect.gen(function*() {
      const { client, gates } = yield* setup({ pollInterval: "1 second" })
      const handle = yield* withClient(client, McpTasksClient.callTool("slow", { text: "t" }, { ttl: 90_000 }))
      assert.strictEqual(handle.task.ttl, 90_000)
      const statuses = yield* Effect.forkChild(Stream.runCollect(handle.statuses))
      yield* yieldMany
      yield* TestClock.adjust("1 second")
      yield* Deferred.succeed(gates.release, undefined)
      yield* yieldMany
      yield* TestClock.adjust("1 second")
      const seen = Array.from(yield* Fiber.join(statuses), (t) => t.status)
      assert.deepStrictEqual([seen[0], seen[seen.length - 1]], ["working", "completed"])
      assert.deepStrictEqual((yield* handle.result).content, [{ type: "text", text: "done: t" }])
    }))

  it.effect("run: interrupting it cancels the task on the server (handler and child interrupted)", () =>
    Effect.gen(function*() {
      const { client, gates, store } = yield* setup()
      const fiber = yield* Effect.forkChild(withClient(client, McpTasksClient.run("slow", { text: "t" })))
      yield* yieldMany
      assert.strictEqual(yield* Ref.get(gates.started), 1)
      yield* Fiber.interrupt(fiber)
      yield* yieldMany
      assert.deepStrictEqual((yield* Ref.get(gates.interrupted)).sort(), ["child", "handler"])
      const tasks = yield* withClient(client, Stream.runCollect(McpTasksClient.listTasks))
      assert.deepStrictEqual(Array.from(tasks, (t) => t.status), ["cancelled"])
      assert.strictEqual(yield* store.size, 1)
    }))

  it.effect("callToolAsDeclared: a required tool goes as a task, others as plain calls", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* setup()
      const must = yield* withClient(client, McpTasksClient.callToolAsDeclared("must"))
      assert.deepStrictEqual(must.content, [{ type: "text", text: "must" }])
      const plain = yield* withClient(client, McpTasksClient.callToolAsDeclared("plain"))
      assert.deepStrictEqual(plain.content, [{ type: "text", text: "plain" }])
      const calls = requests(pair.wire, "client", "tools/call").map((r) => (r.params as { task?: unknown }).task !== undefined)
      assert.deepStrictEqual(calls, [true, false])
      assertWireValid(pair.wire)
    }))

  it.effect("listTasks walks every page", () =>
    Effect.gen(function*() {
      const { client } = yield* setup({ pageSize: 3 })
      for (let i = 0; i < 7; i++) yield* createTask(client, "quick")
      const tasks = yield* withClient(client, Stream.runCollect(McpTasksClient.listTasks))
      assert.strictEqual(tasks.length, 7)
    }))
})

describe("McpTasks on 2026-07-28", () => {
  it.effect("server/discover does not declare the 2025 tasks capability", () =>
    Effect.gen(function*() {
      const { client } = yield* setup()
      const discovered = (yield* client.request("server/discover", {
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }
      })) as { capabilities: Record<string, unknown> }
      assert.isDefined(discovered.capabilities.tools)
      assert.isUndefined(discovered.capabilities.tasks)
    }))
})
