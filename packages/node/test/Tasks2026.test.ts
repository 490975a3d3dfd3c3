/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663) on our server,
 * over real HTTP (node listener on 127.0.0.1, raw `fetch`), on the TestClock: the server decides
 * (CreateTaskResult, flat, `ttlMs`/`pollIntervalMs`), `tasks/get` (DetailedTask, the result or the
 * error inlined; working before the end), `tasks/update` (input requests answered, partly or
 * wholly), `tasks/cancel` (acknowledged, the handler and its child interrupted, idempotent), the
 * −32021 gates, unknown and other principals' task ids (−32602), MRTR rounds before a detaching
 * tool's task, expiry, and the same handler as a plain call. Every result is validated against
 * the extension's schema, every other message against the 2026-07-28 schema.
 */
import { assert, describe, it } from "@effect/vitest"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { Transport } from "@effect-mcp/mcp/Transport"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpServer from "effect/http/HttpServer"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import { assertValid2026 } from "../../mcp/test/utils/wire2026.js"
import { type TasksWire, tasksWire, type WireToolResult } from "../../mcp/test/utils/wireTasks2026.js"
import { messagesOf, readSseData } from "./httpUtil.js"

const V = "2026-07-28"
const TASKS = { elicitation: {}, extensions: { [McpTasks.EXTENSION_ID]: {} } }

const meta = (capabilities: object = TASKS) => ({
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": capabilities,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
})

interface Probe {
  readonly interrupted: Ref.Ref<ReadonlyArray<string>>
  readonly runs: Ref.Ref<number>
}

const Name = Schema.Struct({ name: Schema.String })
const elicitName = (message: string, inputKey?: string) =>
  Effect.flatMap(HandlerContext, (ctx) => ctx.elicit({ message, schema: Name }, inputKey === undefined ? undefined : { inputKey }))

const toolsOf = (probe: Probe) =>
  McpServer.register(
    McpServer.tool({
      name: "work",
      execution: { taskSupport: "optional" },
      parameters: Schema.Struct({ seconds: Schema.Number }),
      handler: ({ seconds }) =>
        Effect.gen(function*() {
          yield* Ref.update(probe.runs, (n) => n + 1)
          // a child the handler forked: cancelling the task interrupts it too
          yield* Effect.forkScoped(Effect.onInterrupt(Effect.never, () => Ref.update(probe.interrupted, (a) => [...a, "child"])))
          yield* Effect.sleep(`${seconds} seconds`).pipe(
            Effect.onInterrupt(() => Ref.update(probe.interrupted, (a) => [...a, "handler"]))
          )
          return `worked ${seconds} s`
        }).pipe(Effect.scoped)
    }),
    McpServer.tool({ name: "plain", handler: () => Effect.succeed("plain") }),
    McpServer.tool({
      name: "must",
      execution: { taskSupport: "required" },
      handler: () => Effect.andThen(Effect.sleep("1 second"), Effect.fail("the tool said no"))
    }),
    McpServer.tool({
      name: "broken",
      execution: { taskSupport: "optional" },
      handler: () => Effect.fail(new ErrorResponse({ code: -32603, message: "broken inside" }))
    }),
    McpServer.tool({
      name: "diesAmid",
      execution: { taskSupport: "optional" },
      // a defect while a sibling fiber runs: the sibling is interrupted, the cause is the defect and that interruption
      handler: () => Effect.all([Effect.andThen(Effect.yieldNow, Effect.die(new Error("a bug"))), Effect.never], { concurrency: "unbounded" })
    }),
    McpServer.tool({
      name: "ask",
      execution: { taskSupport: "optional" },
      handler: () =>
        Effect.map(
          Effect.all([elicitName("First?", "first"), elicitName("Second?", "second")], { concurrency: "unbounded" }),
          ([a, b]) => `${a.name} & ${b.name}`
        )
    }),
    McpServer.tool({
      name: "detaching",
      execution: { taskSupport: "required" },
      taskStart: "detach",
      handler: () =>
        Effect.gen(function*() {
          const { name } = yield* elicitName("Who?", "user_name")
          yield* McpTasks.detach
          yield* Effect.sleep("2 seconds")
          return `Hello, ${name}!`
        })
    })
  )

/** Accepts the API keys `alice` and `bob` as two principals. */
const ApiKeys = Layer.succeed(McpAuth.TokenVerifier, {
  verify: (token, resource) =>
    token === "alice" || token === "bob"
      ? Effect.succeed({
        subject: token,
        clientId: undefined,
        issuer: undefined,
        scopes: [],
        audience: [resource],
        expiresAt: undefined,
        claims: {}
      })
      : Effect.fail(new McpAuth.AuthError({ reason: "Invalid", message: "unknown key" }))
})

const start = (options: { readonly auth?: boolean } = {}) =>
  Effect.gen(function*() {
    const probe: Probe = { interrupted: yield* Ref.make<ReadonlyArray<string>>([]), runs: yield* Ref.make(0) }
    const auth = options.auth === true
      ? McpAuth.layer({ resource: "http://127.0.0.1/mcp", authorizationServers: ["https://as.example"] }).pipe(
        Layer.provide(ApiKeys)
      )
      : Layer.empty
    const layer = NodeStreamableHttp.layer({ port: 0 }).pipe(
      Layer.provide(auth),
      Layer.provideMerge(Layer.mergeAll(toolsOf(probe), McpTasks.layerMemory({ defaultTtl: "1 minute", pollInterval: "500 millis" }))),
      Layer.provideMerge(McpServer.layer({ name: "tasks-http", version: "1.0.0" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    const port = "port" in server.address ? server.address.port : 0
    return { url: `http://127.0.0.1:${port}/mcp`, probe }
  })

let nextId = 1

/** A JSON-RPC message as read off the wire (checked where it is used). */
interface WireMessage {
  readonly id?: unknown
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

/** One 2026 request with its standard headers; the JSON-RPC message that answers it. */
const rpc = (
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { readonly token?: string; readonly capabilities?: object } = {}
) =>
  Effect.promise(async () => {
    const id = nextId++
    const name = (params.name ?? params.taskId) as string | undefined
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      "mcp-method": method,
      ...(name !== undefined ? { "mcp-name": name } : {}),
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {})
    }
    const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(options.capabilities) } }
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) })
    const text = await response.text()
    const type = response.headers.get("content-type") ?? ""
    const frames = type.includes("text/event-stream") ? messagesOf(text) : text === "" ? [] : [JSON.parse(text)]
    return { status: response.status, message: (frames.at(-1) ?? {}) as WireMessage }
  })

/** The result of a tasks method, validated against the extension's schema. */
interface TasksResults {
  readonly "tasks/get": TasksWire["GetTaskResult"]
  readonly "tasks/update": TasksWire["UpdateTaskResult"]
  readonly "tasks/cancel": TasksWire["CancelTaskResult"]
}
const TASKS_DEF = { "tasks/get": "GetTaskResult", "tasks/update": "UpdateTaskResult", "tasks/cancel": "CancelTaskResult" } as const
const tasks = <M extends keyof TasksResults>(
  url: string,
  method: M,
  params: Record<string, unknown>,
  options: { readonly token?: string } = {}
) =>
  Effect.map(rpc(url, method, params, options), ({ message }): TasksResults[M] => {
    assert.isDefined(message.result, JSON.stringify(message))
    return tasksWire(TASKS_DEF[method], message.result) as TasksResults[M]
  })

/** A tool call that makes a task: its CreateTaskResult, validated. */
const createTask = (url: string, name: string, args: Record<string, unknown> = {}, options: { readonly token?: string } = {}) =>
  Effect.map(rpc(url, "tools/call", { name, arguments: args }, options), ({ message }) => tasksWire("CreateTaskResult", message.result))

/** The JSON-RPC error answering a request (validated against the 2026 schema). */
const errorOf = (url: string, method: string, params: Record<string, unknown>, options: { readonly token?: string; readonly capabilities?: object } = {}) =>
  Effect.map(rpc(url, method, params, options), ({ message, status }) => {
    assertValid2026(message)
    assert.isDefined(message.error, JSON.stringify(message))
    return { status, error: message.error }
  })

/** Lets the server's fibers run (real sockets: the answer to a request arrives through the event loop). */
const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))

describe("tasks extension (2026-07-28) over HTTP", () => {
  it.effect("lifecycle: CreateTaskResult at once, working before the end (no result), completed with it inlined", () =>
    Effect.gen(function*() {
      const { probe, url } = yield* start()
      const discover = yield* rpc(url, "server/discover", {})
      assertValid2026(discover.message, "server/discover")
      const { capabilities } = discover.message.result as {
        readonly capabilities: { readonly extensions?: { readonly [id: string]: unknown }; readonly tasks?: unknown }
      }
      assert.deepStrictEqual(capabilities.extensions?.[McpTasks.EXTENSION_ID], {})
      assert.isUndefined(capabilities.tasks)

      const created = yield* createTask(url, "work", { seconds: 30 })
      assert.strictEqual(created.resultType, "task")
      assert.strictEqual(created.status, "working")
      assert.strictEqual(created.ttlMs, 60_000)
      assert.strictEqual(created.pollIntervalMs, 500)
      for (const legacy of ["task", "ttl", "pollInterval", "requestState", "result"]) assert.notProperty(created, legacy)

      // asked before it completes: working, nothing inlined; tasks/result is gone (-32601)
      const early = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.deepStrictEqual([early.resultType, early.status, early.result, early.error], ["complete", "working", undefined, undefined])
      const removed = yield* errorOf(url, "tasks/result", { taskId: created.taskId })
      assert.strictEqual(removed.error.code, -32601)
      assert.strictEqual((yield* errorOf(url, "tasks/list", {})).error.code, -32601)

      yield* TestClock.adjust("30 seconds")
      yield* settle
      const done = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.strictEqual(done.status, "completed")
      assert.deepStrictEqual(done.result?.content, [{ type: "text", text: "worked 30 s" }])
      assert.isUndefined(done.result?._meta?.["io.modelcontextprotocol/related-task"])
      assert.strictEqual(yield* Ref.get(probe.runs), 1)

      // a tool error is completed with isError; a JSON-RPC error is failed with the error inlined
      const must = yield* createTask(url, "must")
      const broken = yield* createTask(url, "broken")
      yield* TestClock.adjust("1 second")
      yield* settle
      const toolError = yield* tasks(url, "tasks/get", { taskId: must.taskId })
      assert.deepStrictEqual([toolError.status, toolError.result?.isError], ["completed", true])
      const failed = yield* tasks(url, "tasks/get", { taskId: broken.taskId })
      assert.strictEqual(failed.status, "failed")
      assert.deepStrictEqual(failed.error, { code: -32603, message: "broken inside" })
      assert.isUndefined(failed.result)
    }), 30_000)

  it.effect("a defect that interrupts sibling fibers is an internal error (not a server stop), as on 2025", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const created = yield* createTask(url, "diesAmid")
      yield* settle
      const failed = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.strictEqual(failed.status, "failed")
      assert.deepStrictEqual(failed.error, { code: -32603, message: "Internal error" })
      assert.strictEqual(failed.statusMessage, "Internal error")
    }), 30_000)

  it.effect("the 2025 methods are not 2026's: tasks/result and tasks/list are -32601 whatever their params", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      for (const [method, params] of [["tasks/result", {}], ["tasks/result", { taskId: 7 }], ["tasks/list", { cursor: 7 }]] as const) {
        assert.strictEqual((yield* errorOf(url, method, params)).error.code, -32601, `${method} ${JSON.stringify(params)}`)
      }
    }), 30_000)

  it.effect("cancel: acknowledged empty, the handler and its child interrupted, cancelled; again and unknown ids", () =>
    Effect.gen(function*() {
      const { probe, url } = yield* start()
      const created = yield* createTask(url, "work", { seconds: 600 })
      yield* settle
      const ack = yield* tasks(url, "tasks/cancel", { taskId: created.taskId })
      assert.deepStrictEqual(Object.keys(ack).sort(), ["_meta", "resultType"])
      assert.deepStrictEqual([...(yield* Ref.get(probe.interrupted))].sort(), ["child", "handler"])
      const after = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.strictEqual(after.status, "cancelled")
      // cancelling a finished task is acknowledged the same; an unknown id is -32602
      const again = yield* tasks(url, "tasks/cancel", { taskId: created.taskId })
      assert.strictEqual(again.resultType, "complete")
      for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
        const unknown = yield* errorOf(url, method, { taskId: "no-such-task", inputResponses: {} })
        assert.strictEqual(unknown.error.code, -32602, method)
      }
    }), 30_000)

  it.effect("input: input_required with both requests; a partial tasks/update keeps the other; then completed", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const created = yield* createTask(url, "ask")
      yield* settle
      const asked = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.strictEqual(asked.status, "input_required")
      assert.deepStrictEqual(Object.keys(asked.inputRequests ?? {}).sort(), ["first", "second"])
      assert.strictEqual(asked.inputRequests?.first?.method, "elicitation/create")
      const accept = (name: string) => ({ action: "accept", content: { name } })
      // an answer to a request never asked is ignored; a malformed answer to one asked is -32602
      const ack = yield* tasks(url, "tasks/update", { taskId: created.taskId, inputResponses: { first: accept("Ada"), other: {} } })
      assert.strictEqual(ack.resultType, "complete")
      const bad = yield* errorOf(url, "tasks/update", { taskId: created.taskId, inputResponses: { second: { action: 42 } } })
      assert.strictEqual(bad.error.code, -32602)
      yield* settle
      const partial = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.strictEqual(partial.status, "input_required")
      assert.deepStrictEqual(Object.keys(partial.inputRequests ?? {}), ["second"])
      yield* tasks(url, "tasks/update", { taskId: created.taskId, inputResponses: { second: accept("Grace") } })
      yield* settle
      const done = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.strictEqual(done.status, "completed")
      assert.deepStrictEqual(done.result?.content, [{ type: "text", text: "Ada & Grace" }])
    }), 30_000)

  it.effect("gates: without the extension a plain result, -32021 for a required tool and for tasks/*; a legacy task param is ignored", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const plain = yield* rpc(url, "tools/call", { name: "work", arguments: { seconds: 0 } }, { capabilities: {} })
      assertValid2026(plain.message, "tools/call")
      const plainResult = plain.message.result as { readonly resultType: string; readonly taskId?: string }
      assert.deepStrictEqual([plainResult.resultType, plainResult.taskId], ["complete", undefined])
      const required = yield* errorOf(url, "tools/call", { name: "must", arguments: {} }, { capabilities: {} })
      assert.deepStrictEqual([required.status, required.error.code], [400, -32021])
      assert.deepStrictEqual(required.error.data, { requiredCapabilities: { extensions: { [McpTasks.EXTENSION_ID]: {} } } })
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const gated = yield* errorOf(url, method, { taskId: "x", inputResponses: {} }, { capabilities: {} })
        assert.strictEqual(gated.error.code, -32021, method)
      }
      const legacy = yield* rpc(url, "tools/call", { name: "plain", arguments: {}, task: { ttl: 1000 } })
      assertValid2026(legacy.message, "tools/call")
      assert.deepStrictEqual((legacy.message.result as WireToolResult).content, [{ type: "text", text: "plain" }])
      // a mismatched Mcp-Name on tasks/get is -32020
      const mismatch = yield* Effect.promise(() =>
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": V,
            "mcp-method": "tasks/get",
            "mcp-name": "another"
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tasks/get", params: { taskId: "one", _meta: meta() } })
        }).then(async (r) => {
          const text = await r.text()
          return { status: r.status, body: text.startsWith("{") ? JSON.parse(text) : messagesOf(text).at(-1) }
        })
      )
      assert.deepStrictEqual([mismatch.status, mismatch.body.error.code], [400, -32020])
    }), 30_000)

  it.effect("MRTR then a task: a detaching tool asks on the call, answers CreateTaskResult on the last round, the answer in its result", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const round1 = yield* rpc(url, "tools/call", { name: "detaching", arguments: {} })
      assertValid2026(round1.message, "tools/call")
      const first = round1.message.result as {
        readonly resultType: string
        readonly inputRequests: { readonly [key: string]: unknown }
        readonly requestState: string
      }
      assert.strictEqual(first.resultType, "input_required")
      assert.notProperty(first, "taskId")
      assert.deepStrictEqual(Object.keys(first.inputRequests), ["user_name"])
      const round2 = yield* rpc(url, "tools/call", {
        name: "detaching",
        arguments: {},
        inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
        requestState: first.requestState
      })
      const created = tasksWire("CreateTaskResult", round2.message.result)
      assert.notProperty(created, "requestState")
      assert.notProperty(created, "inputRequests")
      yield* TestClock.adjust("2 seconds")
      yield* settle
      const done = yield* tasks(url, "tasks/get", { taskId: created.taskId })
      assert.deepStrictEqual([done.status, done.result?.content[0]?.text], ["completed", "Hello, Alice!"])
      // without the extension the same handler is a plain call (detach does nothing): -32021 since it requires a task
      const plain = yield* errorOf(url, "tools/call", { name: "detaching", arguments: {} }, { capabilities: {} })
      assert.strictEqual(plain.error.code, -32021)
    }), 30_000)

  it.effect("principals: a task is its principal's; another principal's tasks/get, update and cancel are -32602", () =>
    Effect.gen(function*() {
      const { url } = yield* start({ auth: true })
      const created = yield* createTask(url, "work", { seconds: 60 }, { token: "alice" })
      const own = yield* tasks(url, "tasks/get", { taskId: created.taskId }, { token: "alice" })
      assert.strictEqual(own.status, "working")
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const other = yield* errorOf(url, method, { taskId: created.taskId, inputResponses: {} }, { token: "bob" })
        assert.strictEqual(other.error.code, -32602, method)
      }
      // bob's cancel changed nothing
      assert.strictEqual((yield* tasks(url, "tasks/get", { taskId: created.taskId }, { token: "alice" })).status, "working")
    }), 30_000)

  it.effect("subscriptions/listen with taskIds: acknowledged (the caller's tasks only), then notifications/tasks at each change; -32021 without the extension", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const created = yield* createTask(url, "work", { seconds: 5 })
      const frames: Array<unknown> = []
      const controller = new AbortController()
      yield* Effect.addFinalizer(() => Effect.sync(() => controller.abort()))
      yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": V,
            "mcp-method": "subscriptions/listen"
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 77,
            method: "subscriptions/listen",
            params: { notifications: { taskIds: [created.taskId, "not-a-task"] }, _meta: meta() }
          }),
          signal: controller.signal
        })
        readSseData(response, frames)
      })
      for (let i = 0; i < 100 && frames.length === 0; i++) yield* settle
      const ack = frames[0] as {
        readonly method: string
        readonly params: { readonly notifications: { readonly taskIds: ReadonlyArray<string> } }
      }
      assert.strictEqual(ack.method, "notifications/subscriptions/acknowledged")
      assert.deepStrictEqual(ack.params.notifications.taskIds, [created.taskId])
      yield* TestClock.adjust("5 seconds")
      for (let i = 0; i < 100 && frames.length < 2; i++) yield* settle
      const told = tasksWire("TaskStatusNotification", frames[1])
      assert.strictEqual(told.method, "notifications/tasks")
      assert.deepStrictEqual([told.params.taskId, told.params.status, told.params.result?.content[0]?.text], [created.taskId, "completed", "worked 5 s"])
      const refused = yield* errorOf(url, "subscriptions/listen", { notifications: { taskIds: [created.taskId] } }, { capabilities: {} })
      assert.strictEqual(refused.error.code, -32021)
    }), 30_000)

  it.effect("expiry: the record lives ttlMs from creation, then tasks/get is -32602", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const created = yield* createTask(url, "work", { seconds: 1 })
      yield* TestClock.adjust("59 seconds")
      yield* settle
      assert.strictEqual((yield* tasks(url, "tasks/get", { taskId: created.taskId })).status, "completed")
      yield* TestClock.adjust("2 seconds")
      yield* settle
      assert.strictEqual((yield* errorOf(url, "tasks/get", { taskId: created.taskId })).error.code, -32602)
    }), 30_000)
})

const NAMES: Record<string, string> = { "First?": "Ada", "Second?": "Grace", "Who?": "Alice" }

/** Our client over HTTP, answering the name questions. */
const clientOf = (url: string, era: "2025" | "2026-07-28") =>
  McpClient.make({
    era,
    name: "c",
    version: "1",
    elicitation: { form: (params) => Effect.succeed({ action: "accept" as const, content: { name: NAMES[params.message] ?? "?" } }) }
  }).pipe(
    Effect.provideServiceEffect(Transport, StreamableHttpClient.make({ url, listen: false })),
    Effect.provide(FetchHttpClient.layer)
  )

/** Runs `effect` to its end, moving the TestClock a quarter second at a time (the client polls on it). */
const drive = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(effect)
    for (let i = 0; i < 160; i++) {
      if (fiber.pollUnsafe() !== undefined) break
      yield* TestClock.adjust("250 millis")
      yield* settle
    }
    if (fiber.pollUnsafe() === undefined) return yield* Effect.die(new Error("did not finish in 40 s (TestClock)"))
    return yield* Fiber.join(fiber)
  })

const textOf = (result: { readonly content: ReadonlyArray<unknown> }) => (result.content[0] as { readonly text: string }).text

describe("McpTasksClient on 2026-07-28", () => {
  it.effect("a handle: its statuses as a Stream, its result; input requests answered by the client's handlers; MRTR before a task", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const client = yield* clientOf(url, "2026-07-28")
      assert.strictEqual(client.era, "2026")
      const provide = Effect.provideService(McpClient.McpClient, client)
      const handle = yield* provide(McpTasksClient.callTool("work", { seconds: 2 }))
      assert.strictEqual(handle.task.status, "working")
      assert.strictEqual(handle.task.pollInterval, 500)
      const statuses = yield* drive(Stream.runCollect(handle.statuses))
      assert.deepStrictEqual([...statuses].map((t) => t.status), ["working", "completed"])
      assert.strictEqual(textOf(yield* drive(handle.result)), "worked 2 s")
      // the task asks twice at once: tasks/get shows both, the handlers answer them
      assert.strictEqual(textOf(yield* drive(provide(McpTasksClient.run("ask", {})))), "Ada & Grace")
      // a round on the call (MRTR), then the task
      assert.strictEqual(textOf(yield* drive(provide(McpTasksClient.run("detaching", {})))), "Hello, Alice!")
      // listing is not part of the extension
      const listed = yield* Effect.result(provide(Stream.runCollect(McpTasksClient.listTasks)))
      assert.isTrue(listed._tag === "Failure")
    }), 30_000)

  it.effect("interrupting run cancels the task: the handler and its child are interrupted, the task is cancelled", () =>
    Effect.gen(function*() {
      const { probe, url } = yield* start()
      const client = yield* clientOf(url, "2026-07-28")
      const fiber = yield* Effect.forkChild(Effect.provideService(McpTasksClient.run("work", { seconds: 600 }), McpClient.McpClient, client))
      for (let i = 0; i < 50 && (yield* Ref.get(probe.runs)) === 0; i++) yield* settle
      yield* Fiber.interrupt(fiber)
      yield* settle
      assert.deepStrictEqual([...(yield* Ref.get(probe.interrupted))].sort(), ["child", "handler"])
    }), 30_000)

  it.effect("McpClient.callTool of a tool that requires a task makes it one (the extension declared for that call), polled to its result", () =>
    Effect.gen(function*() {
      const { url } = yield* start()
      const client = yield* clientOf(url, "2026-07-28")
      // not listed yet: the plain call is refused (-32021 naming the extension), the tools are listed, the call made as a task
      const must = yield* drive(client.callTool("must", {}))
      assert.deepStrictEqual([must.isError, textOf(must)], [true, "the tool said no"])
      // a round on the call (MRTR, answered by the handler), then the task
      assert.strictEqual(textOf(yield* drive(client.callTool("detaching", {}))), "Hello, Alice!")
    }), 30_000)

  it.effect("the same handler: a 2025 task, a 2026 task and a plain call answer the same", () =>
    Effect.gen(function*() {
      const { probe, url } = yield* start()
      const modern = yield* clientOf(url, "2026-07-28")
      const legacy = yield* clientOf(url, "2025")
      assert.strictEqual(legacy.era, "2025")
      const as2026 = yield* drive(Effect.provideService(McpTasksClient.run("work", { seconds: 1 }), McpClient.McpClient, modern))
      const as2025 = yield* drive(Effect.provideService(McpTasksClient.run("work", { seconds: 1 }), McpClient.McpClient, legacy))
      const plain = yield* drive(modern.callTool("work", { seconds: 1 }))
      assert.deepStrictEqual([textOf(as2026), textOf(as2025), textOf(plain)], ["worked 1 s", "worked 1 s", "worked 1 s"])
      assert.strictEqual(yield* Ref.get(probe.runs), 3)
    }), 30_000)
})
