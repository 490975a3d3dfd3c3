/**
 * The tasks utility of 2025-11-25 on the server: a task-augmented
 * `tools/call` runs its handler detached from the request (the request
 * answers at once with the task); status changes are notified
 * (`notifications/tasks/status`); `tasks/get`, `tasks/result` (waits),
 * `tasks/list` (paginated) and `tasks/cancel` (interrupts the handler and what
 * it forked) serve the session, or the principal, that created the task.
 * Records, wakers and fibers are the core's (`core.ts`).
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import type { ReverseCall } from "../../HandlerContext.js"
import * as Lifecycle from "../../Lifecycle.js"
import { ErrorResponse, ProtocolError } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import type { ExtensionRequest, ToolCall } from "../../McpServer.js"
import type { StoredTask, TaskOutcome } from "../../McpTasks.js"
import type * as Protocol from "../../Protocol.js"
import { decodeCursor, encodeCursor } from "../server/pagination.js"
import { type Core, type Era, failureOutcome, isTerminal, ownedBy, ownerOf, ttlOf, workingTask } from "./core.js"

export const make = (core: Core): Era => {
  const { store } = core

  const notify = (protocol: Protocol.Protocol | undefined, task: McpSchema.Task) =>
    protocol === undefined ? Effect.void : Effect.ignore(protocol.notify("notifications/tasks/status", { ...task }))

  /** Moves a task to `status` (unless it shows it already and no outcome comes), notified on `protocol`. */
  const moveTo = (
    taskId: string,
    status: McpSchema.TaskStatus,
    extra: { readonly statusMessage?: string | undefined; readonly outcome?: TaskOutcome | undefined },
    protocol: Protocol.Protocol | undefined
  ) =>
    core.change(taskId, (record) =>
      record.task.status === status && extra.outcome === undefined ? undefined : {
        ...record,
        ...(extra.outcome !== undefined ? { outcome: extra.outcome } : {}),
        task: { ...record.task, status, ...(extra.statusMessage !== undefined ? { statusMessage: extra.statusMessage } : {}) }
      }).pipe(Effect.tap((moved) => (moved === undefined ? Effect.void : notify(protocol, moved.task))))

  // a tool error result is a failed task (its first text the status message)
  const finish = (taskId: string, exit: Exit.Exit<McpSchema.CallToolResult, ErrorResponse>, protocol: Protocol.Protocol | undefined) => {
    if (Exit.isFailure(exit)) {
      const outcome = failureOutcome(exit.cause)
      return moveTo(taskId, "failed", { outcome, statusMessage: outcome.message }, protocol)
    }
    const result = exit.value
    const failed = result.isError === true
    const first = result.content[0]
    return moveTo(taskId, failed ? "failed" : "completed", {
      outcome: { _tag: "Result", result: result as Protocol.Result },
      statusMessage: failed ? (first?.type === "text" ? first.text : "The tool reported an error") : undefined
    }, protocol)
  }

  /** The task's reverse calls: related to the task, while it shows `input_required`. */
  const reverseCall = (taskId: string, call: ToolCall, protocol: Protocol.Protocol): ReverseCall => (method, params, callOptions) => {
    if (!Lifecycle.clientSupports(call.session.clientCapabilities(), method, params)) {
      return Effect.fail(
        new ProtocolError({ reason: "CapabilityMissing", method, message: `The client did not declare the capability for ${method}` })
      )
    }
    const meta = { ...(params?._meta as object | undefined), [McpSchema.RELATED_TASK_META_KEY]: { taskId } }
    const { inputKey: _, ...requestOptions } = callOptions ?? {}
    return moveTo(taskId, "input_required", {}, protocol).pipe(
      Effect.andThen(protocol.request(method, { ...params, _meta: meta }, requestOptions)),
      Effect.ensuring(moveTo(taskId, "working", {}, protocol))
    )
  }

  const create = (call: ToolCall, protocol: Protocol.Protocol, requested: McpSchema.TaskMetadata) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const taskId = crypto.randomUUID()
      const ttl = ttlOf(core, requested.ttl)
      const task = workingTask(core, taskId, now, ttl)
      const sessionId = call.session.sessionId
      yield* store.put({ task, owner: ownerOf(call.principal, sessionId), expiresAt: now + ttl, sessionId })
      const taskScope = yield* core.forkScope
      let active = true
      const handler = call.run({ isActive: () => active, reverseCall: reverseCall(taskId, call, protocol), scope: taskScope })
      yield* core.spawn(taskId, taskScope, handler, (exit) =>
        Effect.suspend(() => {
          active = false
          return Effect.asVoid(finish(taskId, exit, protocol))
        }))
      return { task } as Protocol.Result
    })

  const toolCall = (call: ToolCall): Effect.Effect<Protocol.Result, ErrorResponse> | undefined => {
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
    // a 2025 session's call always has its engine; without one, the call is served plainly
    return call.protocol === undefined ? undefined : create(call, call.protocol, requested)
  }

  const owned = (taskId: string, request: ExtensionRequest) =>
    ownedBy(store, taskId, ownerOf(request.principal, request.session.sessionId))

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

  /** Waits until the task is terminal, bounded by `resultTimeout`. */
  const awaitTerminal = (taskId: string, request: ExtensionRequest): Effect.Effect<StoredTask, ErrorResponse> =>
    core.until(taskId, Effect.map(owned(taskId, request), (record) => (isTerminal(record.task.status) ? record : undefined))).pipe(
      Effect.timeoutOrElse({
        duration: core.resultTimeout,
        orElse: () =>
          Effect.fail(
            new ErrorResponse({
              code: -32001,
              message: `The task did not finish within ${
                Duration.format(Duration.fromInputUnsafe(core.resultTimeout))
              }; ask tasks/result again`
            })
          )
      })
    )

  const cancel = (taskId: string, request: ExtensionRequest) =>
    Effect.gen(function*() {
      const record = yield* owned(taskId, request)
      if (isTerminal(record.task.status)) {
        return yield* Effect.fail(
          ErrorResponse.invalidParams(`Cannot cancel task: already in terminal status '${record.task.status}'`)
        )
      }
      const moved = yield* moveTo(taskId, "cancelled", { statusMessage: "The task was cancelled by request." }, undefined)
      if (moved === undefined) {
        return yield* Effect.fail(ErrorResponse.invalidParams("Cannot cancel task: it reached a terminal status"))
      }
      yield* core.interrupt(taskId)
      const after = (yield* store.get(taskId)) ?? moved
      yield* Effect.ignore(request.session.notify("notifications/tasks/status", { ...after.task }))
      return { ...after.task }
    })

  return {
    toolCall,
    methods: {
      "tasks/get": {
        params: McpSchema.GetTaskRequestParams,
        handle: ({ taskId }: { readonly taskId: string }, request) => Effect.map(owned(taskId, request), (r) => ({ ...r.task }))
      },
      "tasks/result": {
        params: McpSchema.GetTaskPayloadRequestParams,
        handle: ({ taskId }: { readonly taskId: string }, request) => Effect.flatMap(awaitTerminal(taskId, request), answer)
      },
      "tasks/list": {
        params: Schema.UndefinedOr(McpSchema.PaginatedRequestParams),
        handle: (params: { readonly cursor?: string | undefined } | undefined, request) =>
          Result.match(decodeCursor(params?.cursor), {
            onFailure: Effect.fail,
            onSuccess: (offset) =>
              Effect.map(
                store.list(ownerOf(request.principal, request.session.sessionId), offset, core.pageSize),
                ({ more, tasks }) => ({
                  tasks: tasks.map((t) => ({ ...t.task })),
                  ...(more ? { nextCursor: encodeCursor(offset + tasks.length) } : {})
                })
              )
          })
      },
      "tasks/cancel": {
        params: McpSchema.CancelTaskRequestParams,
        handle: ({ taskId }: { readonly taskId: string }, request) => cancel(taskId, request)
      }
    }
  }
}
