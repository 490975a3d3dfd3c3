/**
 * What both task eras share on the server: the records in the `TaskStore`,
 * the one state-change function (`change`), the one waker map (waiting for a
 * task's next change, made here or, with a shared store, on another
 * instance), the handlers' fibers in the engine's scope, and the sweeper that
 * drops a record `ttl` after its creation. The eras' methods are in
 * `era2025.ts` and `era2026.ts`.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberMap from "effect/FiberMap"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import { ErrorResponse } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import type { ExtensionMethod, ToolCall } from "../../McpServer.js"
import type { StoredTask, TaskOutcome, TaskStoreShape, TasksOptions } from "../../McpTasks.js"
import type * as Protocol from "../../Protocol.js"
import { type Identity, ownerKey } from "../auth/principal.js"

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

export const iso = (millis: number): string => new Date(millis).toISOString()

/** A task's ttl: the one asked for (else the default), at most the core's maximum. */
export const ttlOf = (core: Core, requested: number | undefined): number => Math.min(requested ?? core.defaultTtl, core.maxTtl)

/** A task just created at `now`, in either era: working, with `ttl`. */
export const workingTask = (core: Core, taskId: string, now: number, ttl: number): McpSchema.Task => ({
  taskId,
  status: "working",
  createdAt: iso(now),
  lastUpdatedAt: iso(now),
  ttl,
  pollInterval: core.pollInterval
})

/** The record of `taskId` if `owner` owns it, else -32602 (another's task is not found). */
export const ownedBy = (store: TaskStoreShape, taskId: string, owner: string): Effect.Effect<StoredTask, ErrorResponse> =>
  Effect.flatMap(store.get(taskId), (record) =>
    record === undefined || record.owner !== owner
      ? Effect.fail(ErrorResponse.invalidParams("Failed to retrieve task: Task not found"))
      : Effect.succeed(record))

/** How a handler that did not return a result ended: the JSON-RPC error it failed with, else -32603. */
export const failureOutcome = (cause: Cause.Cause<ErrorResponse>): TaskOutcome & { readonly _tag: "Error" } => {
  const error = Cause.findErrorOption(cause)
  return error._tag === "Some"
    ? { _tag: "Error", code: error.value.code, message: error.value.message, data: error.value.data }
    : Cause.hasInterruptsOnly(cause)
    ? { _tag: "Error", code: -32603, message: "The task was stopped by the server" }
    : { _tag: "Error", code: -32603, message: "Internal error" }
}

/** One era's part: how it answers a `tools/call`, and its methods (those of the other era are -32601 in it). */
export interface Era {
  readonly toolCall: (call: ToolCall) => Effect.Effect<Protocol.Result, ErrorResponse> | undefined
  readonly methods: { readonly [method: string]: ExtensionMethod }
}

export interface Core {
  readonly store: TaskStoreShape
  readonly defaultTtl: number
  readonly maxTtl: number
  readonly pollInterval: number
  readonly resultTimeout: Duration.Input
  readonly pageSize: number
  /**
   * Applies `f` to the task unless it is terminal (`f` returning undefined: no change), stamping
   * `lastUpdatedAt`, and wakes its waiters here; the record after, if it changed.
   */
  readonly change: (taskId: string, f: (record: StoredTask) => StoredTask | undefined) => Effect.Effect<StoredTask | undefined>
  /**
   * Runs `check` until it answers (not undefined): again at each change of the task (made here,
   * or on another instance with a shared store), at least every `pollInterval`.
   */
  readonly until: <A, E>(taskId: string, check: Effect.Effect<A | undefined, E>) => Effect.Effect<A, E>
  /** Forks a task scope in the engine's scope (what the handler forks lives in it). */
  readonly forkScope: Effect.Effect<Scope.Closeable>
  /**
   * Runs `handler` as task `taskId` on this instance, detached; `end` sees how it ended (an
   * interruption as `Exit.interrupt`); then `taskScope` closes.
   */
  readonly spawn: <A, E>(
    taskId: string,
    taskScope: Scope.Closeable,
    handler: Effect.Effect<A, E>,
    end: (exit: Exit.Exit<A, E>) => Effect.Effect<void>
  ) => Effect.Effect<void>
  /** Interrupts the task's handler here and what it forked, and waits for them. */
  readonly interrupt: (taskId: string) => Effect.Effect<void>
  /** Drops the handler of a task that never became one (a 2026 call that ended before detaching). */
  readonly drop: (taskId: string) => Effect.Effect<void>
  /** Tasks whose handler runs on this instance. */
  readonly localSize: Effect.Effect<number>
}

/** The core, for the life of the scope: its fibers and the sweeper end with it. */
export const make = (store: TaskStoreShape, options: TasksOptions): Effect.Effect<Core, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const fibers = yield* FiberMap.make<string>()
    const pollInterval = options.pollInterval === undefined ? 1000 : Duration.toMillis(options.pollInterval)
    /** Waiting for a task's next change. */
    const wakers = new Map<string, Set<Deferred.Deferred<void>>>()

    const wake = (taskId: string) =>
      Effect.suspend(() => {
        const waiting = wakers.get(taskId)
        if (waiting === undefined) return Effect.void
        wakers.delete(taskId)
        return Effect.forEach(waiting, (d) => Deferred.succeed(d, undefined), { discard: true })
      })

    /** The task is gone or cancelled: its handler here stops, its waiters look again. */
    const forget = (taskId: string) => Effect.andThen(FiberMap.remove(fibers, taskId), wake(taskId))

    // a shared store: changes made on other instances wake this one's waiters, and stop the handlers it runs
    if (store.changes !== undefined) {
      yield* store.changes(({ status, taskId }) =>
        status === undefined || status === "cancelled" ? forget(taskId) : wake(taskId)
      )
    }

    // one fiber for every expiry: each record is dropped ttl after its creation, and its fiber with it
    yield* Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const expired = yield* store.sweep(now)
      yield* Effect.forEach(expired, forget, { discard: true })
    }).pipe(
      Effect.repeat(Schedule.spaced(options.sweepInterval ?? "1 second")),
      Effect.forkIn(scope)
    )

    const sleep = Effect.sleep(Duration.millis(pollInterval))
    // the waker is set before `check` reads the store: a change made meanwhile is not missed
    const until: Core["until"] = <A, E>(taskId: string, check: Effect.Effect<A | undefined, E>) => {
      const round = Effect.acquireUseRelease(
        Effect.map(Deferred.make<void>(), (d) => {
          wakers.set(taskId, (wakers.get(taskId) ?? new Set()).add(d))
          return d
        }),
        (d) => Effect.flatMap(check, (a) => a !== undefined ? Effect.succeed(a) : Effect.as(Effect.raceFirst(Deferred.await(d), sleep), a)),
        (d) =>
          Effect.sync(() => {
            const set = wakers.get(taskId)
            set?.delete(d)
            if (set?.size === 0) wakers.delete(taskId)
          })
      )
      const loop: Effect.Effect<A, E> = Effect.flatMap(round, (a) => a !== undefined ? Effect.succeed(a) : loop)
      return loop
    }

    const change: Core["change"] = (taskId, f) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        store.update(taskId, (record) => {
          if (isTerminal(record.task.status)) return undefined
          const next = f(record)
          return next === undefined ? undefined : { ...next, task: { ...next.task, lastUpdatedAt: iso(now) } }
        })).pipe(Effect.tap((moved) => (moved === undefined ? Effect.void : wake(taskId))))

    const spawn: Core["spawn"] = (taskId, taskScope, handler, end) =>
      Effect.asVoid(FiberMap.run(
        fibers,
        taskId,
        handler.pipe(
          Effect.exit,
          Effect.flatMap(end),
          Effect.onInterrupt(() => end(Exit.interrupt())),
          Effect.ensuring(Scope.close(taskScope, Exit.void))
        )
      ))

    return {
      store,
      defaultTtl: Duration.toMillis(options.defaultTtl ?? "5 minutes"),
      maxTtl: Duration.toMillis(options.maxTtl ?? "1 hour"),
      pollInterval,
      resultTimeout: options.resultTimeout ?? "60 seconds",
      pageSize: options.pageSize ?? 100,
      change,
      until,
      forkScope: Scope.fork(scope, "sequential"),
      spawn,
      interrupt: (taskId) =>
        Effect.flatMap(FiberMap.get(fibers, taskId), (fiber) =>
          fiber._tag === "Some" ? Fiber.interrupt(fiber.value) : Effect.void),
      drop: (taskId) => FiberMap.remove(fibers, taskId),
      localSize: FiberMap.size(fibers)
    }
  })
