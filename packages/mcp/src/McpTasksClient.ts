/**
 * Tasks (2025-11-25, and the 2026-07-28 tasks extension), client side: call a tool as a task and get a handle
 * (its statuses as a `Stream`, its result as an `Effect`, `cancel`), run a
 * task to its result with interruption cancelling it (`tasks/cancel`), call
 * a tool the way it asks (as a task when its `execution.taskSupport` is
 * `"required"`), and list the session's tasks as a `Stream`.
 *
 * Statuses come from `notifications/tasks/status` and from polling
 * `tasks/get` at the server's `pollInterval` (notifications are optional),
 * each change once, ending with the terminal one. On 2026-07-28 the same
 * functions drive the `io.modelcontextprotocol/tasks` extension (SEP-2663):
 * `tasks/get` polling, the result inlined in the terminal task, `tasks/cancel`
 * acknowledged; there is no `tasks/list`.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 * import * as Effect from "effect/Effect"
 * import * as Stream from "effect/Stream"
 *
 * const program = Effect.gen(function*() {
 *   const handle = yield* McpTasksClient.callTool("report", { month: "May" }, { ttl: 600_000 })
 *   yield* handle.statuses.pipe(Stream.runForEach((task) => Effect.log(task.status)))
 *   return yield* handle.result
 * }).pipe(Effect.scoped)
 * // Effect.provide(program, McpClient.layer(...))
 * ```
 * @since 0.1.0
 */
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { type CallToolResult, type ClientError, McpClient, type McpClientShape } from "./McpClient.js"
import * as ClientTaskCalls from "./internal/client/taskCalls.js"
import { TASKS_CAPABILITY, TASKS_EXTENSION } from "./internal/client/taskInputs2026.js"
import { CLIENT_CAPABILITIES_META_KEY } from "./internal/schema2026/core.js"
import { McpError, ProtocolError } from "./McpError.js"
import type * as McpSchema from "./McpSchema.js"

const TERMINAL = new Set<string>(["completed", "failed", "cancelled"])

/**
 * Whether a status is terminal (`completed`, `failed`, `cancelled`).
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 *
 * McpTasksClient.isTerminal("working") // false
 * ```
 * @since 0.1.0
 * @category tasks
 */
export const isTerminal = (status: McpSchema.TaskStatus): boolean => TERMINAL.has(status)

/**
 * A tool call running as a task on the server.
 * @since 0.1.0
 * @category models
 */
export interface TaskHandle {
  /** The task as created. */
  readonly task: McpSchema.Task
  /**
   * The task, each time it changes (the created one first), ending with its terminal status. On
   * 2025-11-25, a status `input_required` makes the stream call `tasks/result` (as the spec asks of
   * a requestor), where the server delivers the task's requests, answered by the client's handlers.
   */
  readonly statuses: Stream.Stream<McpSchema.Task, ClientError>
  /** The tool's result (`tasks/result`: waits for the end, asking again while the server says -32001). */
  readonly result: Effect.Effect<CallToolResult, ClientError>
  /** `tasks/cancel`: the task as cancelled. */
  readonly cancel: Effect.Effect<McpSchema.Task, ClientError>
}

/**
 * Options of a task-augmented call.
 * @since 0.1.0
 * @category models
 */
export interface TaskCallOptions {
  /** The retention asked for, in ms from creation (the server may grant less). */
  readonly ttl?: number | undefined
  /** Polling interval when the server suggests none (default 1 s). */
  readonly pollInterval?: Duration.Input | undefined
}

const asTask = (u: unknown): McpSchema.Task => u as McpSchema.Task

const notTasks = (method: string) =>
  new ProtocolError({ reason: "CapabilityMissing", method, message: "The server does not support task-augmented tools/call" })

/** A handle on a task the client knows the id of. */
const handleOf = (client: McpClientShape, task: McpSchema.Task, options?: TaskCallOptions): TaskHandle => {
  const { taskId } = task
  const interval = Duration.millis(task.pollInterval ?? Duration.toMillis(options?.pollInterval ?? "1 second"))
  const get = Effect.map(client.request("tasks/get", { taskId }), asTask)
  const pushed = client.notifications.pipe(
    Stream.filter((n) => n.method === "notifications/tasks/status" && (n.params as { taskId?: unknown })?.taskId === taskId),
    Stream.map((n) => asTask(n.params))
  )
  const polled = Stream.fromEffectSchedule(get, Schedule.spaced(interval))
  const key = (t: McpSchema.Task) => `${t.status} ${t.lastUpdatedAt} ${t.statusMessage ?? ""}`
  const result: Effect.Effect<CallToolResult, ClientError> = client.request("tasks/result", { taskId }).pipe(
    Effect.map((r) => r as unknown as CallToolResult),
    // the server bounds its wait: ask again
    Effect.retry({ while: (e) => e instanceof McpError && e.code === -32001 })
  )
  const statuses = Stream.unwrap(Effect.map(Deferred.make<void>(), (inputRequired) => {
    // input_required: the server's requests of the task come on `tasks/result` (a server may hold them
    // until it is called), answered by the client's handlers; once it returns the task has ended
    const answering = Stream.fromEffect(
      Deferred.await(inputRequired).pipe(Effect.andThen(Effect.result(result)), Effect.andThen(get))
    )
    return Stream.concat(
      Stream.succeed(task),
      Stream.merge(pushed, Stream.merge(polled, answering), { haltStrategy: "either" })
    ).pipe(
      Stream.tap((t) => t.status === "input_required" ? Deferred.succeed(inputRequired, undefined) : Effect.void),
      Stream.changesWith((a, b) => key(a) === key(b)),
      Stream.takeUntil((t) => isTerminal(t.status))
    )
  }))
  return { task, statuses, result, cancel: Effect.map(client.request("tasks/cancel", { taskId }), asTask) }
}

/** A 2026 task (`ttlMs`, `pollIntervalMs`) as the 2025 `Task` the handle speaks. */
const fromWire2026 = (u: unknown): McpSchema.Task => {
  const { error: _e, inputRequests: _i, pollIntervalMs, result: _r, ttlMs, ...rest } = u as {
    readonly [key: string]: unknown
  }
  return {
    ...rest,
    ttl: typeof ttlMs === "number" ? ttlMs : null,
    ...(typeof pollIntervalMs === "number" ? { pollInterval: pollIntervalMs } : {})
  } as unknown as McpSchema.Task
}

/**
 * A handle on a 2026 task (the tasks extension): statuses by polling `tasks/get` (which answers
 * the task's input requests with the client's handlers), the result inlined by `tasks/get`
 * once terminal, `tasks/cancel` (an acknowledgement; the task as it then is).
 */
const handle2026 = (client: McpClientShape, created: McpSchema.Task, options?: TaskCallOptions): TaskHandle => {
  const { taskId } = created
  const interval = Duration.millis(created.pollInterval ?? Duration.toMillis(options?.pollInterval ?? "1 second"))
  const detailed = client.request("tasks/get", { taskId }) as Effect.Effect<{ readonly [key: string]: unknown }, ClientError>
  const key = (t: McpSchema.Task) => `${t.status} ${t.lastUpdatedAt} ${t.statusMessage ?? ""}`
  const polled = Stream.fromEffectSchedule(detailed, Schedule.spaced(interval))
  const statuses = Stream.concat(Stream.succeed(created), Stream.map(polled, fromWire2026)).pipe(
    Stream.changesWith((a, b) => key(a) === key(b)),
    Stream.takeUntil((t) => isTerminal(t.status))
  )
  const terminal = polled.pipe(
    Stream.filter((t) => isTerminal(t.status as McpSchema.TaskStatus)),
    Stream.runHead,
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(new ProtocolError({ reason: "InvalidResult", method: "tasks/get", message: "tasks/get ended" })),
      onSome: Effect.succeed
    }))
  )
  const result = Effect.flatMap(terminal, (t) => ClientTaskCalls.outcome2026(t)) as Effect.Effect<CallToolResult, ClientError>
  const cancel = Effect.andThen(client.request("tasks/cancel", { taskId }), Effect.map(detailed, fromWire2026))
  return { task: created, statuses, result, cancel }
}

/** A 2026 call the server answered at once, without a task: a handle already completed. */
const settledHandle = (result: CallToolResult): TaskHandle => {
  const now = "1970-01-01T00:00:00.000Z"
  const task = { taskId: "", status: "completed", createdAt: now, lastUpdatedAt: now, ttl: null } as unknown as McpSchema.Task
  return { task, statuses: Stream.succeed(task), result: Effect.succeed(result), cancel: Effect.succeed(task) }
}

/** `tools/call` opting into the tasks extension (2026-07-28): the server decides whether it is a task. */
const callTool2026 = (client: McpClientShape, name: string, args: Record<string, unknown> | undefined, options?: TaskCallOptions) =>
  Effect.map(
    client.request("tools/call", {
      name,
      arguments: args ?? {},
      _meta: { [CLIENT_CAPABILITIES_META_KEY]: TASKS_CAPABILITY }
    }),
    (r) =>
      typeof r.taskId === "string"
        ? handle2026(client, fromWire2026(r), options)
        : settledHandle(r as unknown as CallToolResult)
  )

const declaresTasks = (client: McpClientShape): boolean =>
  client.era === "2026"
    ? client.serverCapabilities.extensions?.[TASKS_EXTENSION] !== undefined
    : client.serverCapabilities.tasks?.requests?.tools?.call !== undefined

/**
 * Calls a tool as a task (`tools/call` with `task`): the server answers at
 * once, and the handle follows the task. On 2026-07-28 (the tasks
 * extension) the call declares the extension and the server decides: its
 * `CreateTaskResult` is followed by polling `tasks/get` (input requests of
 * the task are answered by the client's handlers), and a call it answers at
 * once gets a handle already completed (its `task.taskId` is empty).
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 * import * as Effect from "effect/Effect"
 *
 * const started = Effect.map(McpTasksClient.callTool("report", {}), (handle) => handle.task.taskId)
 * ```
 * @since 0.1.0
 * @category tasks
 */
export const callTool = (
  name: string,
  args?: Record<string, unknown>,
  options?: TaskCallOptions
): Effect.Effect<TaskHandle, ClientError, McpClient> =>
  Effect.flatMap(McpClient, (client) =>
    !declaresTasks(client)
      ? Effect.fail(notTasks("tools/call"))
      : client.era === "2026"
      ? callTool2026(client, name, args, options)
      : Effect.map(
        client.request("tools/call", {
          name,
          arguments: args ?? {},
          task: options?.ttl === undefined ? {} : { ttl: options.ttl }
        }),
        (r) => (r as { readonly task?: unknown }).task
      ).pipe(
        Effect.flatMap((task) =>
          typeof task === "object" && task !== null && typeof (task as { taskId?: unknown }).taskId === "string"
            ? Effect.succeed(handleOf(client, task as McpSchema.Task, options))
            : Effect.fail(
              new ProtocolError({ reason: "InvalidResult", method: "tools/call", message: "The server answered a task-augmented tools/call without a task" })
            )
        )
      ))

/**
 * Runs a tool as a task to its result; interrupting it cancels the task
 * (`tasks/cancel`).
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 * import * as Effect from "effect/Effect"
 *
 * // at most a minute, then the task is cancelled on the server
 * const report = McpTasksClient.run("report", { month: "May" }).pipe(Effect.timeout("1 minute"))
 * ```
 * @since 0.1.0
 * @category tasks
 */
export const run = (
  name: string,
  args?: Record<string, unknown>,
  options?: TaskCallOptions
): Effect.Effect<CallToolResult, ClientError, McpClient> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(callTool(name, args, options), (handle) =>
      restore(handle.result).pipe(Effect.onInterrupt(() => Effect.ignore(handle.cancel))))
  )

/**
 * Calls a tool the way it asks: as a task when its `execution.taskSupport`
 * is `"required"` (and the server supports tasks), else as a plain call.
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 *
 * const result = McpTasksClient.callToolAsDeclared("report", { month: "May" })
 * ```
 * @since 0.1.0
 * @category tasks
 */
export const callToolAsDeclared = (
  name: string,
  args?: Record<string, unknown>,
  options?: TaskCallOptions
): Effect.Effect<CallToolResult, ClientError, McpClient> =>
  Effect.gen(function*() {
    const client = yield* McpClient
    const tools = yield* client.listToolsAll()
    const tool = tools.find((t) => t.name === name)
    return tool?.execution?.taskSupport === "required"
      ? yield* run(name, args, options)
      : yield* client.callTool(name, args ?? {})
  })

/**
 * The session's tasks (`tasks/list`, every page).
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 * import * as Stream from "effect/Stream"
 *
 * const working = McpTasksClient.listTasks.pipe(Stream.filter((t) => t.status === "working"), Stream.runCollect)
 * ```
 * @since 0.1.0
 * @category tasks
 */
export const listTasks: Stream.Stream<McpSchema.Task, ClientError, McpClient> = Stream.unwrap(
  Effect.map(McpClient, (client) =>
    client.era === "2026" ? Stream.fail(new ProtocolError({
      reason: "CapabilityMissing",
      method: "tasks/list",
      message: "The tasks extension of 2026-07-28 has no tasks/list (a task is known by the id its call answered)"
    })) : Stream.paginate(undefined as string | undefined, (cursor) =>
      Effect.map(
        client.request("tasks/list", cursor === undefined ? {} : { cursor }),
        (r) => {
          const page = r as unknown as McpSchema.ListTasksResult
          return [page.tasks, Option.fromNullishOr<string | undefined>(page.nextCursor)] as const
        }
      )))
)

/**
 * A handle on a task created earlier (by id), e.g. from `listTasks`.
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 * import * as Effect from "effect/Effect"
 *
 * const resume = (taskId: string) => Effect.flatMap(McpTasksClient.attach(taskId), (handle) => handle.result)
 * ```
 * @since 0.1.0
 * @category tasks
 */
export const attach = (taskId: string, options?: TaskCallOptions): Effect.Effect<TaskHandle, ClientError, McpClient> =>
  Effect.flatMap(McpClient, (client) =>
    Effect.map(
      client.request("tasks/get", { taskId }),
      (t) => client.era === "2026" ? handle2026(client, fromWire2026(t), options) : handleOf(client, asTask(t), options)
    ))
