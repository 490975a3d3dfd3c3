/**
 * The tasks utility of 2025-11-25 on the server: a task-augmented
 * `tools/call` runs its handler detached from the request, in the engine's
 * scope (the request answers at once with the task); its record lives in the
 * `TaskStore`; status changes are notified; `tasks/cancel` interrupts the
 * handler and what it forked; a record expires `ttl` after creation (one
 * sweeping fiber on the Clock).
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Encoding from "effect/Encoding"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as FiberMap from "effect/FiberMap"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import type { ReverseCall } from "../../HandlerContext.js"
import * as Lifecycle from "../../Lifecycle.js"
import { ErrorResponse, ProtocolError } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import type { Extension, ExtensionRequest, ToolCall } from "../../McpServer.js"
import type { StoredTask, TaskOutcome, TaskStoreShape, TasksOptions } from "../../McpTasks.js"
import type * as Protocol from "../../Protocol.js"
import * as Tasks2026 from "./era2026.js"
import { isTerminal, ownerOf } from "./era2026.js"

export { isTerminal, ownerOf } from "./era2026.js"
const notFound = () => ErrorResponse.invalidParams("Failed to retrieve task: Task not found")

const iso = (millis: number): string => new Date(millis).toISOString()

/** `tasks/update` (2026-07-28): its answers are checked against the requests they answer. */
const UpdateTaskParams = Schema.Struct({ taskId: Schema.String, inputResponses: Schema.optional(Schema.Unknown) })

interface Local {
  /** Completed when the task reaches a terminal status on this instance. */
  readonly done: Deferred.Deferred<void>
}

export interface Engine {
  readonly extension: Extension
  /** Tasks with a local waiter or fiber (tests: nothing is left behind). */
  readonly localSize: Effect.Effect<number>
}

/** The engine, for the life of the scope: its fibers and the sweeper end with it. */
export const make = (store: TaskStoreShape, options: TasksOptions): Effect.Effect<Engine, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const fibers = yield* FiberMap.make<string>()
    const local = new Map<string, Local>()
    const defaultTtl = Duration.toMillis(options.defaultTtl ?? "5 minutes")
    const maxTtl = Duration.toMillis(options.maxTtl ?? "1 hour")
    const pollInterval = options.pollInterval === undefined ? 1000 : Duration.toMillis(options.pollInterval)
    const resultTimeout = options.resultTimeout ?? "60 seconds"
    const pageSize = options.pageSize ?? 100

    const forget = (taskId: string) =>
      Effect.suspend(() => {
        const entry = local.get(taskId)
        local.delete(taskId)
        return Effect.zipRight(
          FiberMap.remove(fibers, taskId),
          entry === undefined ? Effect.void : Deferred.succeed(entry.done, undefined)
        )
      })

    // a shared store: changes made on other instances wake this one's waiters, and stop the handlers it runs
    const wakers = new Map<string, Set<Deferred.Deferred<void>>>()
    const wake = (taskId: string) =>
      Effect.suspend(() => {
        const waiting = wakers.get(taskId)
        wakers.delete(taskId)
        return waiting === undefined ? Effect.void : Effect.forEach(waiting, (d) => Deferred.succeed(d, undefined), { discard: true })
      })
    if (store.changes !== undefined) {
      yield* store.changes(({ status, taskId }) =>
        Effect.zipRight(
          status === undefined || status === "cancelled" ? forget(taskId) : Effect.void,
          wake(taskId)
        )
      )
    }
    /** Completes at the next change of the task that `changes` reports (never without a shared store). */
    const nextChange = (taskId: string): Effect.Effect<void> =>
      store.changes === undefined ? Effect.never : Effect.acquireUseRelease(
        Effect.map(Deferred.make<void>(), (d) => {
          const set = wakers.get(taskId) ?? new Set()
          wakers.set(taskId, set.add(d))
          return d
        }),
        Deferred.await,
        (d) =>
          Effect.sync(() => {
            const set = wakers.get(taskId)
            set?.delete(d)
            if (set?.size === 0) wakers.delete(taskId)
          })
      )

    // one fiber for every expiry: each record is dropped ttl after its creation, and its fiber with it
    yield* Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const expired = yield* store.sweep(now)
      yield* Effect.forEach(expired, forget, { discard: true })
    }).pipe(
      Effect.repeat(Schedule.spaced(options.sweepInterval ?? "1 second")),
      Effect.forkIn(scope)
    )

    const tasks2026 = Tasks2026.make({
      store,
      nextChange,
      scope,
      fibers,
      defaultTtl,
      maxTtl,
      pollInterval,
      track: (taskId) =>
        Effect.map(Deferred.make<void>(), (done) => {
          local.set(taskId, { done })
          return done
        })
    })

    const notify = (protocol: Protocol.Protocol | undefined, task: McpSchema.Task) =>
      protocol === undefined ? Effect.void : Effect.ignore(protocol.notify("notifications/tasks/status", { ...task }))

    /** Moves a task to `status` unless it is terminal already; the record after, if it moved. */
    const transition = (
      taskId: string,
      status: McpSchema.TaskStatus,
      extra: { readonly statusMessage?: string | undefined; readonly outcome?: TaskOutcome | undefined },
      protocol: Protocol.Protocol | undefined
    ) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.update(taskId, (record) =>
          isTerminal(record.task.status) || record.task.status === status && extra.outcome === undefined
            ? undefined
            : {
              ...record,
              ...(extra.outcome !== undefined ? { outcome: extra.outcome } : {}),
              task: {
                ...record.task,
                status,
                lastUpdatedAt: iso(now),
                ...(extra.statusMessage !== undefined ? { statusMessage: extra.statusMessage } : {})
              }
            }
        ).pipe(Effect.tap((moved) => (moved === undefined ? Effect.void : notify(protocol, moved.task)))))

    const finish = (taskId: string, exit: Exit.Exit<McpSchema.CallToolResult, ErrorResponse>, protocol: Protocol.Protocol | undefined) => {
      if (Exit.isSuccess(exit)) {
        const result = exit.value
        const failed = result.isError === true
        const first = result.content[0]
        return transition(taskId, failed ? "failed" : "completed", {
          outcome: { _tag: "Result", result: result as Protocol.Result },
          statusMessage: failed ? (first?.type === "text" ? first.text : "The tool reported an error") : undefined
        }, protocol)
      }
      const error = Cause.failureOption(exit.cause)
      const outcome: TaskOutcome = error._tag === "Some"
        ? { _tag: "Error", code: error.value.code, message: error.value.message, data: error.value.data }
        : Cause.isInterruptedOnly(exit.cause)
        ? { _tag: "Error", code: -32603, message: "The task was stopped by the server" }
        : { _tag: "Error", code: -32603, message: "Internal error" }
      return transition(taskId, "failed", { outcome, statusMessage: outcome.message }, protocol)
    }

    /** The task's reverse calls: related to the task, while it shows `input_required`. */
    const reverseCall = (taskId: string, call: ToolCall): ReverseCall => (method, params, callOptions) => {
      const protocol = call.protocol!
      if (!Lifecycle.clientSupports(call.session.clientCapabilities(), method, params)) {
        return Effect.fail(
          new ProtocolError({ reason: "CapabilityMissing", method, message: `The client did not declare the capability for ${method}` })
        )
      }
      const meta = { ...(params?._meta as object | undefined), [McpSchema.RELATED_TASK_META_KEY]: { taskId } }
      const { inputKey: _, ...requestOptions } = callOptions ?? {}
      return transition(taskId, "input_required", {}, protocol).pipe(
        Effect.zipRight(protocol.request(method, { ...params, _meta: meta }, requestOptions)),
        Effect.ensuring(transition(taskId, "working", {}, protocol))
      )
    }

    const create = (call: ToolCall, requested: McpSchema.TaskMetadata) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const taskId = crypto.randomUUID()
        const ttl = Math.min(requested.ttl ?? defaultTtl, maxTtl)
        const task: McpSchema.Task = { taskId, status: "working", createdAt: iso(now), lastUpdatedAt: iso(now), ttl, pollInterval }
        const sessionId = call.session.sessionId
        yield* store.put({ task, owner: ownerOf(call.principal, sessionId), expiresAt: now + ttl, sessionId })
        const done = yield* Deferred.make<void>()
        local.set(taskId, { done })
        const taskScope = yield* Scope.fork(scope, ExecutionStrategy.sequential)
        let active = true
        const body = call.run({ isActive: () => active, reverseCall: reverseCall(taskId, call), scope: taskScope }).pipe(
          Effect.exit,
          Effect.flatMap((exit) => Effect.zipRight(Effect.sync(() => (active = false)), finish(taskId, exit, call.protocol))),
          Effect.onInterrupt(() =>
            Effect.zipRight(
              Effect.sync(() => (active = false)),
              finish(taskId, Exit.interrupt(FiberId.none), call.protocol)
            )
          ),
          Effect.ensuring(Effect.zipRight(Scope.close(taskScope, Exit.void), Deferred.succeed(done, undefined)))
        )
        yield* FiberMap.run(fibers, taskId, body)
        return { task } as Protocol.Result
      })

    const toolCall = (call: ToolCall): Effect.Effect<Protocol.Result, ErrorResponse> | undefined => {
      // 2026-07-28: the tasks extension (the server decides; a legacy `task` param is ignored)
      if (call.session.era === "2026") return tasks2026.toolCall(call)
      const support = call.tool.execution?.taskSupport ?? "forbidden"
      const requested = call.params.task
      if (requested === undefined) {
        return support === "required"
          ? Effect.fail(ErrorResponse.methodNotFound(`tools/call of ${call.tool.name} without a task (the tool requires one)`))
          : undefined
      }
      if (support === "forbidden") {
        return Effect.fail(ErrorResponse.methodNotFound(`tools/call of ${call.tool.name} as a task (the tool does not support tasks)`))
      }
      if (call.protocol === undefined) return undefined
      return create(call, requested)
    }

    /** The caller's own task, or -32602. */
    const owned = (taskId: string, request: ExtensionRequest) =>
      Effect.flatMap(store.get(taskId), (record) =>
        record === undefined || record.owner !== ownerOf(request.principal, request.session.sessionId)
          ? Effect.fail(notFound())
          : Effect.succeed(record))

    const answer = (record: StoredTask): Effect.Effect<Protocol.Result, ErrorResponse> => {
      const outcome = record.outcome
      const related = { [McpSchema.RELATED_TASK_META_KEY]: { taskId: record.task.taskId } }
      if (outcome === undefined) {
        // cancelled before it answered: what a cancelled request gets
        return Effect.fail(new ErrorResponse({ code: -32800, message: "The task was cancelled", data: related }))
      }
      if (outcome._tag === "Error") {
        return Effect.fail(
          new ErrorResponse({ code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) })
        )
      }
      const meta = outcome.result._meta as object | undefined
      return Effect.succeed({ ...outcome.result, _meta: { ...meta, ...related } })
    }

    /** Waits until the task is terminal: on this instance's signal, else by polling the store. */
    const awaitTerminal = (taskId: string, request: ExtensionRequest): Effect.Effect<StoredTask, ErrorResponse> => {
      const poll: Effect.Effect<StoredTask, ErrorResponse> = Effect.flatMap(owned(taskId, request), (record) =>
        isTerminal(record.task.status)
          ? Effect.succeed(record)
          : Effect.zipRight(
            Effect.raceAll([
              local.get(taskId) === undefined ? Effect.never : Deferred.await(local.get(taskId)!.done),
              nextChange(taskId),
              Effect.sleep(Duration.millis(pollInterval))
            ]),
            poll
          ))
      return poll.pipe(
        Effect.timeoutFail({
          duration: resultTimeout,
          onTimeout: () =>
            new ErrorResponse({
              code: -32001,
              message: `The task did not finish within ${Duration.format(Duration.decode(resultTimeout))}; ask tasks/result again`
            })
        })
      )
    }

    const cursorOf = (offset: number) => Encoding.encodeBase64Url(JSON.stringify({ o: offset }))
    const offsetOf = (cursor: string | undefined): number | undefined => {
      if (cursor === undefined) return 0
      const text = Encoding.decodeBase64UrlString(cursor)
      if (Either.isLeft(text)) return undefined
      try {
        const o = (JSON.parse(text.right) as { o?: unknown }).o
        return typeof o === "number" && Number.isInteger(o) && o >= 0 ? o : undefined
      } catch {
        return undefined
      }
    }

    const extension: Extension = {
      // 2025-11-25's capability, and 2026-07-28's extension (server/discover shows only the latter)
      capabilities: {
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        extensions: { [Tasks2026.EXTENSION_ID]: {} }
      },
      toolCall,
      listen: tasks2026.listen,
      methods: {
        "tasks/get": {
          params: McpSchema.GetTaskRequestParams,
          handle: ({ taskId }: { readonly taskId: string }, request) =>
            request.era === "2026"
              ? tasks2026.get(taskId, request)
              : Effect.map(owned(taskId, request), (r) => ({ ...r.task }))
        },
        "tasks/update": {
          params: UpdateTaskParams,
          handle: (params: Tasks2026.UpdateParams, request) =>
            request.era === "2026" ? tasks2026.update(params, request) : Effect.fail(ErrorResponse.methodNotFound("tasks/update"))
        },
        "tasks/result": {
          params: McpSchema.GetTaskPayloadRequestParams,
          // 2026: removed (tasks/get inlines the result)
          handle: ({ taskId }: { readonly taskId: string }, request) =>
            request.era === "2026"
              ? Effect.fail(ErrorResponse.methodNotFound("tasks/result"))
              : Effect.flatMap(awaitTerminal(taskId, request), answer)
        },
        "tasks/list": {
          params: Schema.UndefinedOr(McpSchema.PaginatedRequestParams),
          handle: (params: { readonly cursor?: string | undefined } | undefined, request) => {
            // 2026: removed (no one lists tasks)
            if (request.era === "2026") return Effect.fail(ErrorResponse.methodNotFound("tasks/list"))
            const offset = offsetOf(params?.cursor)
            if (offset === undefined) return Effect.fail(ErrorResponse.invalidParams("Invalid cursor"))
            return Effect.map(
              store.list(ownerOf(request.principal, request.session.sessionId), offset, pageSize),
              ({ more, tasks }) => ({
                tasks: tasks.map((t) => ({ ...t.task })),
                ...(more ? { nextCursor: cursorOf(offset + tasks.length) } : {})
              })
            )
          }
        },
        "tasks/cancel": {
          params: McpSchema.CancelTaskRequestParams,
          handle: ({ taskId }: { readonly taskId: string }, request) =>
            request.era === "2026" ? tasks2026.cancel(taskId, request) : Effect.gen(function*() {
              const record = yield* owned(taskId, request)
              if (isTerminal(record.task.status)) {
                return yield* Effect.fail(
                  ErrorResponse.invalidParams(`Cannot cancel task: already in terminal status '${record.task.status}'`)
                )
              }
              const moved = yield* transition(taskId, "cancelled", { statusMessage: "The task was cancelled by request." }, undefined)
              if (moved === undefined) {
                return yield* Effect.fail(ErrorResponse.invalidParams("Cannot cancel task: it reached a terminal status"))
              }
              // interrupts the handler and everything it forked, and waits for them
              const fiber = yield* FiberMap.get(fibers, taskId).pipe(Effect.option)
              if (fiber._tag === "Some") yield* Fiber.interrupt(fiber.value)
              const after = (yield* store.get(taskId)) ?? moved
              yield* Effect.ignore(request.session.notify("notifications/tasks/status", { ...after.task }))
              return { ...after.task }
            })
        }
      }
    }
    return { extension, localSize: Effect.sync(() => local.size) }
  })
