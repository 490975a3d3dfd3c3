/**
 * Tasks (2025-11-25, experimental): call a tool now, fetch its result later.
 * With `McpTasks.layer`, a server declares the `tasks` capability; a tool
 * declares whether it may be called as a task (`execution.taskSupport`:
 * `"forbidden"`, the default, `"optional"` or `"required"`), and its handler
 * is the same Effect either way. A `tools/call` with a `task` field answers
 * at once with the task; the handler runs detached from the request, in the
 * layer's scope; `tasks/get`, `tasks/result` (waits, bounded by
 * `resultTimeout`), `tasks/list` (paginated) and `tasks/cancel` (interrupts
 * the handler and everything it forked) serve the task to the session, or the
 * principal, that created it, and to no one else. A reverse call of the
 * handler (elicitation, sampling) moves the task to `input_required` while
 * it waits and carries the task in its `_meta`. Records live in a
 * `TaskStore` (in memory by default) and expire `ttl` after creation, on the
 * `Clock`.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const Report = McpServer.tool({
 *   name: "report",
 *   description: "Builds the monthly report (minutes)",
 *   execution: { taskSupport: "optional" },
 *   handler: () => Effect.as(Effect.sleep("2 minutes"), "report ready")
 * })
 *
 * const ServerLive = Layer.mergeAll(McpServer.register(Report), McpTasks.layerMemory({ defaultTtl: "10 minutes" })).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "reports", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Engine from "./internal/tasks/engine.js"
import * as MemoryStore from "./internal/tasks/memoryStore.js"
import * as Tasks2026 from "./internal/tasks/era2026.js"
import type * as McpSchema from "./McpSchema.js"
import { McpServer } from "./McpServer.js"
import type * as Protocol from "./Protocol.js"

/**
 * How a finished task's request ended: the result it returned, or the
 * JSON-RPC error it failed with. `tasks/result` answers exactly this.
 * @since 0.1.0
 * @category models
 */
export type TaskOutcome =
  | { readonly _tag: "Result"; readonly result: Protocol.Result }
  | { readonly _tag: "Error"; readonly code: number; readonly message: string; readonly data?: unknown }

/**
 * A task as the store keeps it: the wire `Task`, who it belongs to, its
 * outcome once finished, and when it expires (epoch ms, on the `Clock`).
 * @since 0.1.0
 * @category models
 */
export interface StoredTask {
  readonly task: McpSchema.Task
  readonly owner: string
  readonly outcome?: TaskOutcome | undefined
  readonly expiresAt: number
  /**
   * 2026-07-28 (tasks extension): the input requests outstanding, by key (shown by `tasks/get`
   * while the task is `input_required`); JSON.
   */
  readonly inputRequests?: { readonly [key: string]: unknown } | undefined
  /** 2026-07-28: answers given by `tasks/update`, by key, until the handler takes them; JSON. */
  readonly inputResponses?: { readonly [key: string]: unknown } | undefined
  /** The session that created it (where a shared store sends a status change it makes itself). */
  readonly sessionId?: string | undefined
}

/**
 * A change to a task in a shared store, made by any instance: its new
 * status, or `undefined` when the record is gone (expired).
 * @since 0.1.0
 * @category models
 */
export interface TaskChange {
  readonly taskId: string
  readonly status: McpSchema.TaskStatus | undefined
}

/**
 * Where task records live. The contract a shared (Redis) store keeps:
 * - `put` adds a new record (ids are unique: random UUIDs);
 * - `update` applies `f` to the current record atomically (`f` returning
 *   undefined leaves it as it is) and returns the new record, or undefined
 *   when there is none or nothing changed: a status change is decided on the
 *   current record, so a cancelled task stays cancelled whichever instance
 *   finishes it;
 * - `list` returns the owner's records in creation order from `offset`, at
 *   most `limit`, and whether more follow;
 * - `sweep(now)` deletes every record whose `expiresAt` is at or before `now`
 *   and returns their ids (every instance may sweep; a record is returned once);
 * - `size` counts the records (tests, metrics);
 * - `changes` (a store shared by instances, e.g. Redis) delivers every
 *   change any instance makes, for the life of the scope, best effort (a
 *   lost change delays a waiter until its next poll): the engine wakes its
 *   `tasks/result` waiters with it, and stops the handler of a task it runs
 *   once the task is cancelled or gone. A shared store also fails the tasks
 *   of an instance that died.
 * @since 0.1.0
 * @category models
 */
export interface TaskStoreShape {
  readonly put: (record: StoredTask) => Effect.Effect<void>
  readonly get: (taskId: string) => Effect.Effect<StoredTask | undefined>
  readonly update: (taskId: string, f: (record: StoredTask) => StoredTask | undefined) => Effect.Effect<StoredTask | undefined>
  readonly list: (
    owner: string,
    offset: number,
    limit: number
  ) => Effect.Effect<{ readonly tasks: ReadonlyArray<StoredTask>; readonly more: boolean }>
  readonly sweep: (now: number) => Effect.Effect<ReadonlyArray<string>>
  readonly size: Effect.Effect<number>
  readonly changes?: ((handler: (change: TaskChange) => Effect.Effect<void>) => Effect.Effect<void, never, Scope.Scope>) | undefined
}

/**
 * The task store a server's tasks live in.
 * @since 0.1.0
 * @category tags
 */
export class TaskStore extends Context.Service<TaskStore, TaskStoreShape>()("@effect-mcp/mcp/McpTasks/TaskStore") {}

/**
 * A task store in memory (one instance; records by id in creation order).
 *
 * @example
 * ```ts
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as Effect from "effect/Effect"
 *
 * const count = Effect.flatMap(McpTasks.makeMemoryStore, (store) => store.size)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryStore: Effect.Effect<TaskStoreShape> = Effect.sync(MemoryStore.make)

/**
 * The in-memory task store as a Layer.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as Layer from "effect/Layer"
 *
 * const Tasks = McpTasks.layer().pipe(Layer.provide(McpTasks.layerMemoryStore))
 * const ServerLive = Tasks.pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1.0.0" })))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerMemoryStore: Layer.Layer<TaskStore> = Layer.effect(TaskStore, makeMemoryStore)

/**
 * How tasks are kept.
 * @since 0.1.0
 * @category models
 */
export interface TasksOptions {
  /** Retention when the client asks none (default 5 minutes), from creation. */
  readonly defaultTtl?: Duration.Input | undefined
  /** The longest retention granted, whatever the client asks (default 1 hour). */
  readonly maxTtl?: Duration.Input | undefined
  /** The polling interval suggested to clients (default 1 s). */
  readonly pollInterval?: Duration.Input | undefined
  /** How long `tasks/result` waits for an unfinished task before answering -32001 (default 60 s). */
  readonly resultTimeout?: Duration.Input | undefined
  /** How often expired records are swept (default 1 s). */
  readonly sweepInterval?: Duration.Input | undefined
  /** Tasks per `tasks/list` page (default 100). */
  readonly pageSize?: number | undefined
}

/**
 * Serves tasks for the life of the Layer, with the `TaskStore` in context:
 * declares the `tasks` capability (list, cancel, `tools/call`), answers
 * `tasks/*`, and runs task-augmented tool calls; their fibers end with the
 * Layer.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as Layer from "effect/Layer"
 *
 * const ServerLive = McpTasks.layer({ maxTtl: "30 minutes" }).pipe(
 *   Layer.provide(McpTasks.layerMemoryStore),
 *   Layer.provideMerge(McpServer.layer({ name: "s", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: TasksOptions): Layer.Layer<never, never, McpServer | TaskStore> =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* McpServer
      const store = yield* TaskStore
      const engine = yield* Engine.make(store, options ?? {})
      yield* server.extend(engine.extension)
    })
  )

/**
 * The identifier of the 2026-07-28 tasks extension (SEP-2663), declared
 * under `capabilities.extensions` by a server with `McpTasks.layer`.
 * @since 0.1.0
 * @category constants
 */
export const EXTENSION_ID: "io.modelcontextprotocol/tasks" = Tasks2026.EXTENSION_ID as "io.modelcontextprotocol/tasks"

/**
 * Where the handler of a tool with `taskStart: "detach"` becomes a task, on
 * 2026-07-28: what it asked before (elicitation, sampling) was asked on the
 * call itself, in multi-round-trip rounds; here the call answers with the
 * task (`CreateTaskResult`), and the rest of the handler runs as the task
 * (what it asks then is the task's `inputRequests`). On a plain call and on a
 * 2025-11-25 task, it does nothing: the handler is the same Effect.
 *
 * @example
 * ```ts
 * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Deploy = McpServer.tool({
 *   name: "deploy",
 *   execution: { taskSupport: "required" },
 *   taskStart: "detach",
 *   handler: () =>
 *     Effect.gen(function*() {
 *       const ctx = yield* HandlerContext
 *       const { env } = yield* ctx.elicit({ message: "Which environment?", schema: Schema.Struct({ env: Schema.String }) })
 *       yield* McpTasks.detach // the call answers with the task here
 *       yield* Effect.sleep("5 minutes")
 *       return `deployed to ${env}`
 *     })
 * })
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const detach: Effect.Effect<void> = Effect.flatMap(
  Effect.service(Tasks2026.currentDetach),
  (hook) => hook ?? Effect.void
)

/**
 * `layer` with an in-memory store of its own.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as Layer from "effect/Layer"
 *
 * const ServerLive = McpTasks.layerMemory().pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1.0.0" })))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options?: TasksOptions): Layer.Layer<never, never, McpServer> =>
  // a store of its own: the constant `layerMemoryStore` would be one store for every server built
  // with it in a process (v4 memoizes a Layer across `Effect.provide` calls)
  layer(options).pipe(Layer.provide(Layer.effect(TaskStore, makeMemoryStore)))
