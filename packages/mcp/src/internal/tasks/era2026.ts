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
 * the handler live in the `TaskStore`, so that any instance may answer.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as FiberMap from "effect/FiberMap"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Scope from "effect/Scope"
import type { ReverseCall } from "../../HandlerContext.js"
import * as Lifecycle from "../../Lifecycle.js"
import { ErrorResponse, ProtocolError } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../schema2026/core.js"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ExtensionRequest, ListenHook, ToolCall, ToolRunContext } from "../../McpServer.js"
import type { StoredTask, TaskOutcome, TaskStoreShape } from "../../McpTasks.js"
import type * as Protocol from "../../Protocol.js"
import { type Identity, ownerKey } from "../auth/principal.js"
import { answerValidators, encodeRequest, isInputMethod, SHORT } from "../server/inputRequests.js"
import { formatIssue } from "../validate.js"

/** The extension's identifier. */
export const EXTENSION_ID = "io.modelcontextprotocol/tasks"

const TERMINAL = new Set<McpSchema.TaskStatus>(["completed", "failed", "cancelled"])

export const isTerminal = (status: McpSchema.TaskStatus): boolean => TERMINAL.has(status)

/** Who a 2025 task belongs to: the principal on a protected transport (its `ownerKey`), else the session. */
export const ownerOf = (principal: Identity | undefined, sessionId: string): string =>
  principal === undefined ? `session:${sessionId}` : `principal:${ownerKey(principal)}`

/**
 * Who a 2026 task belongs to: the principal on a protected transport; else anyone holding its
 * id (there is no session: the id, a random UUID, is the bearer).
 */
export const owner2026 = (principal: Identity | undefined): string =>
  principal === undefined ? "anyone" : ownerOf(principal, "")

/** `McpTasks.detach`'s hook in the fiber of a detaching handler (undefined: it does nothing). */
export const currentDetach = globalValue(
  "@effect-mcp/mcp/McpTasks/currentDetach",
  () => FiberRef.unsafeMake<Effect.Effect<void> | undefined>(undefined)
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

const notFound = () => ErrorResponse.invalidParams("Failed to retrieve task: Task not found")

const iso = (millis: number): string => new Date(millis).toISOString()

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


/** What the 2026 tasks share with the 2025 engine. */
export interface Core {
  readonly store: TaskStoreShape
  readonly scope: Scope.Scope
  readonly fibers: FiberMap.FiberMap<string>
  readonly defaultTtl: number
  readonly maxTtl: number
  readonly pollInterval: number
  /** Completes at the next change another instance makes to the task (a shared store), else never. */
  readonly nextChange: (taskId: string) => Effect.Effect<void>
  /** Marks a task as running on this instance; the Deferred completes when it ends here. */
  readonly track: (taskId: string) => Effect.Effect<Deferred.Deferred<void>>
}

export interface Tasks2026 {
  readonly toolCall: (call: ToolCall) => Effect.Effect<Protocol.Result, ErrorResponse> | undefined
  readonly get: (taskId: string, request: ExtensionRequest) => Effect.Effect<Protocol.Result, ErrorResponse>
  readonly update: (params: UpdateParams, request: ExtensionRequest) => Effect.Effect<Protocol.Result, ErrorResponse>
  readonly cancel: (taskId: string, request: ExtensionRequest) => Effect.Effect<Protocol.Result, ErrorResponse>
  readonly listen: ListenHook
}

export interface UpdateParams {
  readonly taskId: string
  readonly inputResponses?: unknown
}

export const make = (core: Core): Tasks2026 => {
  const { store } = core
  /** Wakes this instance's handlers of a task waiting for an answer. */
  const wakers = new Map<string, Deferred.Deferred<void>>()
  const wake = (taskId: string) =>
    Effect.suspend(() => {
      const waker = wakers.get(taskId)
      wakers.delete(taskId)
      return waker === undefined ? Effect.void : Deferred.succeed(waker, undefined)
    })
  const changed = (taskId: string) =>
    Effect.suspend(() => {
      let waker = wakers.get(taskId)
      if (waker === undefined) {
        waker = Deferred.unsafeMake<void>(FiberId.none)
        wakers.set(taskId, waker)
      }
      // answered here, answered on another instance (a shared store's change), or the next poll
      return Effect.raceAll([Deferred.await(waker), core.nextChange(taskId), Effect.sleep(Duration.millis(core.pollInterval))])
    })

  /** The listen streams following a task on this instance (`notifications/tasks`). */
  const watchers = new Map<string, Set<(record: StoredTask) => Effect.Effect<void>>>()
  const tell = (record: StoredTask | undefined) =>
    Effect.suspend(() => {
      const watching = record === undefined ? undefined : watchers.get(record.task.taskId)
      return watching === undefined ? Effect.void : Effect.forEach(watching, (w) => w(record!), { discard: true })
    })

  /** Applies `f` unless the task is terminal, stamping `lastUpdatedAt`; a status change is told to its listeners. */
  const change = (taskId: string, f: (record: StoredTask) => StoredTask | undefined) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      store.update(taskId, (record) => {
        if (isTerminal(record.task.status)) return undefined
        const next = f(record)
        return next === undefined ? undefined : { ...next, task: { ...next.task, lastUpdatedAt: iso(now) } }
      })).pipe(Effect.tap(tell))

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
    const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
    const outcome: TaskOutcome = failure !== undefined
      ? { _tag: "Error", code: failure.code, message: failure.message, data: failure.data }
      : { _tag: "Error", code: -32603, message: Exit.isInterrupted(exit) ? "The task was stopped by the server" : "Internal error" }
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
        if (Either.isLeft(encoded)) return Effect.dieMessage(`Invalid ${method} input request: ${formatIssue(encoded.left)}`)
        const base = options?.inputKey ?? SHORT[method]
        // a key is never used twice in a task's life
        const n = (used.get(base) ?? 0) + 1
        used.set(base, n)
        const key = n === 1 ? base : `${base}-${n}`
        return waitFor(taskId, key, encoded.right)
      })
  }

  const waitFor = (taskId: string, key: string, request: unknown) => {
    const asked = change(taskId, (record) => ({
      ...record,
      inputRequests: { ...record.inputRequests, [key]: request },
      task: { ...record.task, status: "input_required" }
    }))
    const take: Effect.Effect<Protocol.Result> = Effect.flatMap(store.get(taskId), (record) => {
      if (record === undefined || isTerminal(record.task.status)) return Effect.interrupt
      const response = record.inputResponses?.[key]
      if (response === undefined) return Effect.zipRight(changed(taskId), take)
      return Effect.as(
        store.update(taskId, (r) => {
          const { [key]: _, ...rest } = r.inputResponses ?? {}
          return { ...r, inputResponses: rest }
        }),
        response as Protocol.Result
      )
    })
    // asked no more (the handler moved on, or was interrupted): the request is withdrawn
    const withdraw = change(taskId, (record) => {
      if (record.inputRequests?.[key] === undefined) return undefined
      const { [key]: _, ...rest } = record.inputRequests
      return { ...record, inputRequests: rest, task: { ...record.task, status: Object.keys(rest).length > 0 ? "input_required" : "working" } }
    })
    return Effect.zipRight(asked, take).pipe(Effect.onInterrupt(() => withdraw))
  }

  const newRecord = (call: ToolCall, taskId: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const ttl = Math.min(core.defaultTtl, core.maxTtl)
      const task: McpSchema.Task = {
        taskId,
        status: "working",
        createdAt: iso(now),
        lastUpdatedAt: iso(now),
        ttl,
        pollInterval: core.pollInterval
      }
      const record: StoredTask = { task, owner: owner2026(call.principal), expiresAt: now + ttl }
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
    taskScope: Scope.CloseableScope,
    handler: Effect.Effect<McpSchema.CallToolResult, ErrorResponse>,
    onCallEnd: (exit: Exit.Exit<McpSchema.CallToolResult, ErrorResponse>) => Effect.Effect<void>
  ) =>
    Effect.flatMap(core.track(taskId), (done) => {
      const ended = (exit: Exit.Exit<McpSchema.CallToolResult, ErrorResponse>) =>
        Effect.suspend(() => {
          state.active = false
          return state.phase === "task" ? Effect.asVoid(finish(taskId, exit)) : onCallEnd(exit)
        })
      const body = handler.pipe(
        Effect.exit,
        Effect.flatMap(ended),
        Effect.onInterrupt(() => ended(Exit.interrupt(FiberId.none))),
        Effect.ensuring(Effect.suspend(() => {
          wakers.delete(taskId)
          return Effect.zipRight(Scope.close(taskScope, Exit.void), Deferred.succeed(done, undefined))
        }))
      )
      return FiberMap.run(core.fibers, taskId, body)
    })

  /** A task made as the call arrives: the handler runs as the task from its start. */
  const atCall = (call: ToolCall) =>
    Effect.gen(function*() {
      const record = yield* newRecord(call, crypto.randomUUID())
      const taskId = record.task.taskId
      const taskScope = yield* Scope.fork(core.scope, ExecutionStrategy.sequential)
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
      const taskScope = yield* Scope.fork(core.scope, ExecutionStrategy.sequential)
      const state: Run = { active: true, phase: "call" }
      const detach = Effect.suspend(() => {
        if (state.phase === "task") return Effect.void
        state.phase = "task"
        return Effect.zipRight(Deferred.succeed(decision, undefined), Deferred.await(made))
      })
      const handler = call.run(runContext(call, taskId, taskScope, state)).pipe(Effect.locally(currentDetach, detach))
      yield* spawn(taskId, state, taskScope, handler, (exit) => Deferred.succeed(decision, exit))
      const outcome = yield* Deferred.await(decision).pipe(
        Effect.onInterrupt(() => (state.phase === "task" ? Effect.void : FiberMap.remove(core.fibers, taskId)))
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
      : Effect.flatMap(store.get(taskId), (record) =>
        record === undefined || record.owner !== owner2026(request.principal)
          ? Effect.fail(notFound())
          : Effect.succeed(record))

  const get = (taskId: string, request: ExtensionRequest) => Effect.map(owned(taskId, request), detailed)

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
        if (Either.isLeft(checked)) {
          return yield* Effect.fail(ErrorResponse.invalidParams(`Invalid input response ${key} (${asked.method}): ${formatIssue(checked.left)}`))
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
        yield* wake(params.taskId)
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
      const fiber = yield* FiberMap.get(core.fibers, taskId).pipe(Effect.option)
      if (fiber._tag === "Some") yield* Fiber.interrupt(fiber.value)
      yield* wake(taskId)
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

  return { toolCall, get, update, cancel, listen }
}
