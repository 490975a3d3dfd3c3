/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`,
 * SEP-2663) on the server. Task creation is the server's: a `tools/call` of a
 * tool that supports tasks, from a request declaring the extension in its
 * capabilities, answers `CreateTaskResult` (`resultType: "task"`, the task's
 * fields flat, `ttlMs`/`pollIntervalMs`); a request that does not declare it
 * gets the plain result, or −32021 for a tool that requires a task. The
 * handler runs detached in the engine's scope; its reverse calls become the
 * task's `inputRequests` (status `input_required`), answered by
 * `tasks/update`; `tasks/get` answers the `DetailedTask` (the result or the
 * error inlined); `tasks/cancel` acknowledges and interrupts the handler.
 *
 * A tool whose `taskStart` is `"detach"` composes with multi-round-trip
 * requests: its handler runs on the call (its inputs are the call's
 * `InputRequiredResult` rounds) until it runs `McpTasks.detach`, where the
 * call answers with the task and the rest of the handler runs as the task.
 * Task records, their pending input requests and the answers on their way to
 * the handler live in the `TaskStore`, so that any instance may answer;
 * records, wakers and fibers are the core's (`core.ts`).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { ReverseCall } from "../../HandlerContext.js"
import * as Lifecycle from "../../Lifecycle.js"
import { ErrorResponse, ProtocolError } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../schema2026/core.js"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ExtensionRequest, ListenHook, ToolCall, ToolRunContext } from "../../McpServer.js"
import type { StoredTask, TaskOutcome } from "../../McpTasks.js"
import type * as Protocol from "../../Protocol.js"
import { type Core, type Era, failureOutcome, isTerminal, ownedBy, owner2026, ttlOf, workingTask } from "./core.js"
import { answerValidators, encodeRequest, isInputMethod, SHORT } from "../server/inputRequests.js"
import { formatIssue } from "../validate.js"

/** The extension's identifier. */
export const EXTENSION_ID = "io.modelcontextprotocol/tasks"

/** `McpTasks.detach`'s hook in the fiber of a detaching handler (undefined: it does nothing). */
export const currentDetach = Context.Reference<Effect.Effect<void> | undefined>(
  "@effect-mcp/mcp/McpTasks/currentDetach",
  { defaultValue: () => undefined }
)

const isRecord = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** Whether client capabilities (a 2026 request's) declare the tasks extension. */
export const declares = (capabilities: unknown): boolean =>
  isRecord(capabilities) && isRecord(capabilities.extensions) && capabilities.extensions[EXTENSION_ID] !== undefined

/** −32021 naming the extension, for `what`. */
export const missingCapability = (what: string): ErrorResponse =>
  new ErrorResponse({
    code: McpSchema2026.MISSING_REQUIRED_CLIENT_CAPABILITY,
    message: `Missing required client capability: extensions.${EXTENSION_ID} (${what})`,
    data: { requiredCapabilities: { extensions: { [EXTENSION_ID]: {} } } }
  })

/** The task's own fields on the 2026 wire (`ttlMs`, `pollIntervalMs`). */
const wireTask = (task: McpSchema.Task): { [key: string]: unknown } => {
  const { pollInterval, ttl, ...rest } = task
  return { ...rest, ttlMs: ttl ?? null, ...(pollInterval !== undefined ? { pollIntervalMs: pollInterval } : {}) }
}

const errorOf = (outcome: TaskOutcome | undefined) =>
  outcome?._tag === "Error"
    ? { code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) }
    : { code: -32603, message: "The task failed" }

/** The `DetailedTask` of a record: what `tasks/get` answers (and `notifications/tasks` carries). */
export const detailed = (record: StoredTask): Protocol.Result => {
  const out = wireTask(record.task)
  switch (record.task.status) {
    case "input_required":
      out.inputRequests = record.inputRequests ?? {}
      break
    case "completed":
      out.result = record.outcome?._tag === "Result" ? record.outcome.result : { content: [] }
      break
    case "failed":
      out.error = errorOf(record.outcome)
      break
  }
  return out as Protocol.Result
}

/** The `CreateTaskResult` of a new record. */
const created = (record: StoredTask): Protocol.Result => ({
  resultType: "task",
  ...wireTask(record.task)
})

/** `tasks/update`'s params: its answers are checked against the requests they answer. */
const UpdateParams = Schema.Struct({ taskId: Schema.String, inputResponses: Schema.optional(Schema.Unknown) })

interface UpdateParams {
  readonly taskId: string
  readonly inputResponses?: unknown
}

export interface Tasks2026 extends Era {
  readonly listen: ListenHook
}

export const make = (core: Core): Tasks2026 => {
  const { store } = core

  /** The listen streams following a task on this instance (`notifications/tasks`). */
  const watchers = new Map<string, Set<(record: StoredTask) => Effect.Effect<void>>>()
  const tell = (record: StoredTask | undefined) =>
    Effect.suspend(() => {
      const watching = record === undefined ? undefined : watchers.get(record.task.taskId)
      return watching === undefined ? Effect.void : Effect.forEach(watching, (w) => w(record!), { discard: true })
    })

  /** The core's `change`, told to the task's listeners. */
  const change = (taskId: string, f: (record: StoredTask) => StoredTask | undefined) =>
    Effect.tap(core.change(taskId, f), tell)

  const finish = (taskId: string, exit: Exit.Exit<McpSchema.CallToolResult, ErrorResponse>) => {
    const end = (status: McpSchema.TaskStatus, outcome: TaskOutcome, statusMessage?: string) =>
      change(taskId, (record) => {
        const { inputRequests: _, inputResponses: __, ...rest } = record
        return {
          ...rest,
          outcome,
          task: { ...record.task, status, ...(statusMessage !== undefined ? { statusMessage } : {}) }
        }
      })
    // a tool error is a result: completed (failed is for JSON-RPC errors)
    if (Exit.isSuccess(exit)) return end("completed", { _tag: "Result", result: exit.value as Protocol.Result })
    const outcome = failureOutcome(exit.cause)
    return end("failed", outcome, outcome.message)
  }

  /** The task's reverse calls: each an input request of the task, answered by `tasks/update`. */
  const ask = (taskId: string, call: ToolCall): ReverseCall => {
    const used = new Map<string, number>()
    return (method, params, options) =>
      Effect.suspend(() => {
        if (!isInputMethod(method)) {
          return Effect.fail(new ProtocolError({ reason: "Transport", method, message: `${method}: a task cannot send it` }))
        }
        if (!Lifecycle.clientSupports(call.session.clientCapabilities(), method, params)) {
          return Effect.fail(
            new ProtocolError({ reason: "CapabilityMissing", method, message: `The client did not declare the capability for ${method}` })
          )
        }
        const encoded = encodeRequest(params === undefined ? { method } : { method, params })
        if (Result.isFailure(encoded)) return Effect.die(new Error(`Invalid ${method} input request: ${formatIssue(encoded.failure)}`))
        const base = options?.inputKey ?? SHORT[method]
        // a key is never used twice in a task's life
        const n = (used.get(base) ?? 0) + 1
        used.set(base, n)
        const key = n === 1 ? base : `${base}-${n}`
        return waitFor(taskId, key, encoded.success)
      })
  }

  const waitFor = (taskId: string, key: string, request: unknown) => {
    const asked = change(taskId, (record) => ({
      ...record,
      inputRequests: { ...record.inputRequests, [key]: request },
      task: { ...record.task, status: "input_required" }
    }))
    // answered here, on another instance (a shared store's change), or seen at the next poll
    const take = core.until(taskId, Effect.flatMap(store.get(taskId), (record) => {
      if (record === undefined || isTerminal(record.task.status)) return Effect.interrupt
      const response = record.inputResponses?.[key]
      if (response === undefined) return Effect.succeed(undefined)
      return Effect.as(
        store.update(taskId, (r) => {
          const { [key]: _, ...rest } = r.inputResponses ?? {}
          return { ...r, inputResponses: rest }
        }),
        response as Protocol.Result
      )
    }))
    // asked no more (the handler moved on, or was interrupted): the request is withdrawn
    const withdraw = change(taskId, (record) => {
      if (record.inputRequests?.[key] === undefined) return undefined
      const { [key]: _, ...rest } = record.inputRequests
      return { ...record, inputRequests: rest, task: { ...record.task, status: Object.keys(rest).length > 0 ? "input_required" : "working" } }
    })
    return Effect.andThen(asked, take).pipe(Effect.onInterrupt(() => withdraw))
  }

  const newRecord = (call: ToolCall, taskId: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const ttl = ttlOf(core, undefined)
      const record: StoredTask = { task: workingTask(core, taskId, now, ttl), owner: owner2026(call.principal), expiresAt: now + ttl }
      return Effect.as(store.put(record), record)
    })

  interface Run {
    active: boolean
    /** "call" while a detaching handler runs on its call; "task" once it runs as the task. */
    phase: "call" | "task"
  }

  const runContext = (call: ToolCall, taskId: string, taskScope: Scope.Scope, state: Run): ToolRunContext => {
    const asTask = ask(taskId, call)
    return {
      isActive: () => state.active,
      scope: taskScope,
      reverseCall: (method, params, options) =>
        state.phase === "task" ? asTask(method, params, options) : call.reverseCall(method, params, options)
    }
  }

  /** Runs `handler` as task `taskId` (its record made) in the engine's scope; the record follows its end. */
  const spawn = (
    taskId: string,
    state: Run,
    taskScope: Scope.Closeable,
    handler: Effect.Effect<McpSchema.CallToolResult, ErrorResponse>,
    onCallEnd: (exit: Exit.Exit<McpSchema.CallToolResult, ErrorResponse>) => Effect.Effect<void>
  ) =>
    core.spawn(taskId, taskScope, handler, (exit) =>
      Effect.suspend(() => {
        state.active = false
        return state.phase === "task" ? Effect.asVoid(finish(taskId, exit)) : onCallEnd(exit)
      }))

  /** A task made as the call arrives: the handler runs as the task from its start. */
  const atCall = (call: ToolCall) =>
    Effect.gen(function*() {
      const record = yield* newRecord(call, crypto.randomUUID())
      const taskId = record.task.taskId
      const taskScope = yield* core.forkScope
      const state: Run = { active: true, phase: "task" as "call" | "task" }
      yield* spawn(taskId, state, taskScope, call.run(runContext(call, taskId, taskScope, state)), () => Effect.void)
      return created(record)
    })

  /**
   * A task made where the handler detaches: until then it runs for the call (its inputs are
   * the call's rounds; a round that asks ends it, and the call answers `InputRequiredResult`);
   * there the call answers with the task, and the handler goes on as the task.
   */
  const atDetach = (call: ToolCall) =>
    Effect.gen(function*() {
      const taskId = crypto.randomUUID()
      const decision = yield* Deferred.make<Exit.Exit<McpSchema.CallToolResult, ErrorResponse> | undefined>()
      const made = yield* Deferred.make<void>()
      const taskScope = yield* core.forkScope
      const state: Run = { active: true, phase: "call" }
      const detach = Effect.suspend(() => {
        if (state.phase === "task") return Effect.void
        state.phase = "task"
        return Effect.andThen(Deferred.succeed(decision, undefined), Deferred.await(made))
      })
      const handler = call.run(runContext(call, taskId, taskScope, state)).pipe(Effect.provideService(currentDetach, detach))
      yield* spawn(taskId, state, taskScope, handler, (exit) => Deferred.succeed(decision, exit))
      const outcome = yield* Deferred.await(decision).pipe(
        Effect.onInterrupt(() => (state.phase === "task" ? Effect.void : core.drop(taskId)))
      )
      // ended on the call: its result, or the end of a round that asked (the call's InputRequiredResult)
      if (outcome !== undefined) return yield* outcome
      const record = yield* newRecord(call, taskId)
      yield* Deferred.succeed(made, undefined)
      return created(record)
    })

  const toolCall = (call: ToolCall): Effect.Effect<Protocol.Result, ErrorResponse> | undefined => {
    const support = call.tool.execution?.taskSupport ?? "forbidden"
    if (support === "forbidden") return undefined
    if (!declares(call.session.clientCapabilities())) {
      return support === "required" ? Effect.fail(missingCapability(`tools/call of ${call.tool.name}, which requires a task`)) : undefined
    }
    return call.taskStart === "detach" ? atDetach(call) : atCall(call)
  }

  /** The caller's own task (after the extension is checked), or −32602. */
  const owned = (taskId: string, request: ExtensionRequest) =>
    !declares(request.session.clientCapabilities())
      ? Effect.fail(missingCapability(request.request.method))
      : ownedBy(store, taskId, owner2026(request.principal))

  const update = (params: UpdateParams, request: ExtensionRequest) =>
    Effect.gen(function*() {
      const record = yield* owned(params.taskId, request)
      const responses = params.inputResponses
      if (!isRecord(responses)) {
        return yield* Effect.fail(ErrorResponse.invalidParams("inputResponses must be an object of responses keyed by the input requests"))
      }
      // only what answers a request outstanding now counts; the rest is ignored
      const accepted: Record<string, unknown> = {}
      for (const [key, response] of Object.entries(responses)) {
        const asked = record.inputRequests?.[key] as { readonly method?: string } | undefined
        if (asked === undefined || typeof asked.method !== "string" || !isInputMethod(asked.method)) continue
        const checked = answerValidators[asked.method](response)
        if (Result.isFailure(checked)) {
          return yield* Effect.fail(ErrorResponse.invalidParams(`Invalid input response ${key} (${asked.method}): ${formatIssue(checked.failure)}`))
        }
        accepted[key] = response
      }
      if (Object.keys(accepted).length > 0) {
        yield* change(params.taskId, (current) => {
          const pending: Record<string, unknown> = { ...current.inputRequests }
          const answers: Record<string, unknown> = { ...current.inputResponses }
          for (const [key, response] of Object.entries(accepted)) {
            if (pending[key] === undefined) continue
            delete pending[key]
            answers[key] = response
          }
          const status = Object.keys(pending).length > 0 ? "input_required" : "working"
          return { ...current, inputRequests: pending, inputResponses: answers, task: { ...current.task, status } }
        })
      }
      return {}
    })

  const cancel = (taskId: string, request: ExtensionRequest) =>
    Effect.gen(function*() {
      const record = yield* owned(taskId, request)
      // cancelling a finished task is acknowledged as well (idempotent)
      if (isTerminal(record.task.status)) return {}
      yield* change(taskId, (current) => {
        const { inputRequests: _, inputResponses: __, ...rest } = current
        return { ...rest, task: { ...current.task, status: "cancelled", statusMessage: "The task was cancelled by request." } }
      })
      // interrupts the handler and everything it forked, here (elsewhere it sees the record)
      yield* core.interrupt(taskId)
      return {}
    })

  /**
   * `subscriptions/listen` with `taskIds`: `notifications/tasks` (the DetailedTask) at each change
   * of those of the caller's tasks; −32021 without the extension.
   */
  const listen: ListenHook = (filter, request, send) =>
    Effect.gen(function*() {
      const asked = filter.taskIds
      if (!Array.isArray(asked)) return undefined
      if (!declares(request.session.clientCapabilities())) return yield* Effect.fail(missingCapability("subscriptions/listen of taskIds"))
      const owner = owner2026(request.principal)
      const taskIds: Array<string> = []
      for (const taskId of asked) {
        if (typeof taskId !== "string") continue
        const record = yield* store.get(taskId)
        if (record !== undefined && record.owner === owner) taskIds.push(taskId)
      }
      const watcher = (record: StoredTask) => send("notifications/tasks", detailed(record) as JsonRpc.Params)
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          for (const taskId of taskIds) watchers.set(taskId, (watchers.get(taskId) ?? new Set()).add(watcher))
        }),
        () =>
          Effect.sync(() => {
            for (const taskId of taskIds) {
              const set = watchers.get(taskId)
              set?.delete(watcher)
              if (set?.size === 0) watchers.delete(taskId)
            }
          })
      )
      return { taskIds }
    })

  return {
    toolCall,
    listen,
    methods: {
      "tasks/get": {
        params: McpSchema.GetTaskRequestParams,
        handle: ({ taskId }: { readonly taskId: string }, request) => Effect.map(owned(taskId, request), detailed)
      },
      "tasks/update": { params: UpdateParams, handle: update },
      "tasks/cancel": {
        params: McpSchema.CancelTaskRequestParams,
        handle: ({ taskId }: { readonly taskId: string }, request) => cancel(taskId, request)
      }
    }
  }
}
