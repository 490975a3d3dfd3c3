/**
 * Tasks (2025-11-25), client side: call a tool as a task and get a handle
 * (its statuses as a `Stream`, its result as an `Effect`, `cancel`), run a
 * task to its result with interruption cancelling it (`tasks/cancel`), call
 * a tool the way it asks (as a task when its `execution.taskSupport` is
 * `"required"`), and list the session's tasks as a `Stream`.
 *
 * Statuses come from `notifications/tasks/status` and from polling
 * `tasks/get` at the server's `pollInterval` (notifications are optional),
 * each change once, ending with the terminal one.
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
 * @since 0.2.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { type ClientError, McpClient, type McpClientShape } from "./McpClient.js"
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
 * @since 0.2.0
 * @category tasks
 */
export const isTerminal = (status: McpSchema.TaskStatus): boolean => TERMINAL.has(status)

/**
 * A tool call running as a task on the server.
 * @since 0.2.0
 * @category models
 */
export interface TaskHandle {
  /** The task as created. */
  readonly task: McpSchema.Task
  /** The task, each time it changes (the created one first), ending with its terminal status. */
  readonly statuses: Stream.Stream<McpSchema.Task, ClientError>
  /** The tool's result (`tasks/result`: waits for the end, asking again while the server says -32001). */
  readonly result: Effect.Effect<McpSchema.CallToolResult, ClientError>
  /** `tasks/cancel`: the task as cancelled. */
  readonly cancel: Effect.Effect<McpSchema.Task, ClientError>
}

/**
 * Options of a task-augmented call.
 * @since 0.2.0
 * @category models
 */
export interface TaskCallOptions {
  /** The retention asked for, in ms from creation (the server may grant less). */
  readonly ttl?: number | undefined
  /** Polling interval when the server suggests none (default 1 s). */
  readonly pollInterval?: Duration.DurationInput | undefined
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
  const polled = Stream.repeatEffectWithSchedule(get, Schedule.spaced(interval))
  const key = (t: McpSchema.Task) => `${t.status} ${t.lastUpdatedAt} ${t.statusMessage ?? ""}`
  const statuses = Stream.concat(Stream.succeed(task), Stream.merge(pushed, polled, { haltStrategy: "either" })).pipe(
    Stream.changesWith((a, b) => key(a) === key(b)),
    Stream.takeUntil((t) => isTerminal(t.status))
  )
  const result: Effect.Effect<McpSchema.CallToolResult, ClientError> = client.request("tasks/result", { taskId }).pipe(
    Effect.map((r) => r as unknown as McpSchema.CallToolResult),
    // the server bounds its wait: ask again
    Effect.retry({ while: (e) => e instanceof McpError && e.code === -32001 })
  )
  return { task, statuses, result, cancel: Effect.map(client.request("tasks/cancel", { taskId }), asTask) }
}

/**
 * Calls a tool as a task (`tools/call` with `task`): the server answers at
 * once, and the handle follows the task.
 *
 * @example
 * ```ts
 * import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
 * import * as Effect from "effect/Effect"
 *
 * const started = Effect.map(McpTasksClient.callTool("report", {}), (handle) => handle.task.taskId)
 * ```
 * @since 0.2.0
 * @category tasks
 */
export const callTool = (
  name: string,
  args?: Record<string, unknown>,
  options?: TaskCallOptions
): Effect.Effect<TaskHandle, ClientError, McpClient> =>
  Effect.flatMap(McpClient, (client) =>
    client.serverCapabilities.tasks?.requests?.tools?.call === undefined
      ? Effect.fail(notTasks("tools/call"))
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
 * @since 0.2.0
 * @category tasks
 */
export const run = (
  name: string,
  args?: Record<string, unknown>,
  options?: TaskCallOptions
): Effect.Effect<McpSchema.CallToolResult, ClientError, McpClient> =>
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
 * @since 0.2.0
 * @category tasks
 */
export const callToolAsDeclared = (
  name: string,
  args?: Record<string, unknown>,
  options?: TaskCallOptions
): Effect.Effect<McpSchema.CallToolResult, ClientError, McpClient> =>
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
 * @since 0.2.0
 * @category tasks
 */
export const listTasks: Stream.Stream<McpSchema.Task, ClientError, McpClient> = Stream.unwrap(
  Effect.map(McpClient, (client) =>
    Stream.paginateEffect(undefined as string | undefined, (cursor) =>
      Effect.map(
        client.request("tasks/list", cursor === undefined ? {} : { cursor }),
        (r) => {
          const page = r as unknown as McpSchema.ListTasksResult
          return [page.tasks, Option.fromNullable(page.nextCursor)] as const
        }
      )).pipe(Stream.flatMap((tasks) => Stream.fromIterable(tasks))))
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
 * @since 0.2.0
 * @category tasks
 */
export const attach = (taskId: string, options?: TaskCallOptions): Effect.Effect<TaskHandle, ClientError, McpClient> =>
  Effect.flatMap(McpClient, (client) =>
    Effect.map(client.request("tasks/get", { taskId }), (t) => handleOf(client, asTask(t), options)))
