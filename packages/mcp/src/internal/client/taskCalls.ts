/**
 * A plain `callTool` of a tool whose `execution.taskSupport` is `"required"`
 * (2025-11-25 tasks), made as a task: `tools/call` with `task`, then
 * `tasks/result` (asked again while the server bounds its wait with
 * -32001, or the client's default request timeout runs out; a `timeout`
 * given to the call bounds each wait); interrupting the call, or a wait
 * that fails on our side, cancels the task (`tasks/cancel`). The
 * client knows a tool's support from its listings (`listTools`,
 * `listToolsAll`); on 2025-11-25 the tools are listed once before the first
 * call of a tool never listed (a server may refuse a plain call of a
 * required tool with an error result, nothing to rely on), and a tool the
 * listing lacks is called plainly; if that listing fails, or on 2026-07-28,
 * the plain call is made, and its refusal (-32601, or -32021 naming the
 * tasks extension) lists the tools once and makes the call as a task when
 * the tool requires one. On 2026-07-28 (the tasks extension)
 * the call opts into the extension and the server decides: a task is polled
 * with `tasks/get` to its inlined result (input requests answered by the
 * client's handlers, see `client/era2026`), cancelled when interrupted; the
 * refusal of a plain call is -32021 naming the extension.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import type * as JsonRpc from "../../JsonRpc.js"
import type { CallOptions, ClientError, McpClientShape, Tool } from "../../McpClient.js"
import { McpError, ProtocolError } from "../../McpError.js"
import { CLIENT_CAPABILITIES_META_KEY } from "../schema2026/core.js"
import { TASKS_CAPABILITY, TASKS_EXTENSION } from "./taskInputs2026.js"

export interface TaskCalls {
  /** Remembers the task support of listed tools. */
  readonly remember: (tools: ReadonlyArray<Tool>) => void
  /**
   * `call` (a plain `tools/call`), or the call made as a task when the tool requires one; the
   * raw result of the tool either way.
   */
  readonly call: (
    name: string,
    params: JsonRpc.Params,
    callOptions: CallOptions | undefined,
    plain: Effect.Effect<unknown, ClientError>
  ) => Effect.Effect<unknown, ClientError>
}

/** Our default request timeout ran out (the caller set none for this call): the wait goes on. */
const waitedTooLong = (error: ClientError, callOptions: CallOptions | undefined): boolean =>
  callOptions?.timeout === undefined && error instanceof ProtocolError && error.reason === "Timeout"

/** A refusal of a plain call of a tool that requires a task: -32601 (2025), -32021 naming the tasks extension (2026). */
const isRefusal = (error: ClientError): boolean =>
  error instanceof McpError &&
  (error.code === -32601 ||
    (error.code === -32021 &&
      (error.data as { readonly requiredCapabilities?: { readonly extensions?: object } } | undefined)?.requiredCapabilities
          ?.extensions?.[TASKS_EXTENSION as never] !== undefined))

/**
 * What a terminal 2026 task (`tasks/get`'s DetailedTask) ends with: its inlined result, else its
 * inlined JSON-RPC error (or -32800 when cancelled) as an `McpError`.
 */
export const outcome2026 = (task: { readonly [key: string]: unknown }): Effect.Effect<unknown, McpError> => {
  if (task.status === "completed") return Effect.succeed(task.result)
  const error = task.error as { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown } | undefined
  return Effect.fail(
    task.status !== "failed" || typeof error?.code !== "number"
      ? new McpError({ code: -32800, message: `The task ${String(task.taskId)} was ${String(task.status)}`, method: "tools/call" })
      : new McpError({
        code: error.code,
        message: String(error.message ?? "The task failed"),
        ...(error.data !== undefined ? { data: error.data } : {}),
        method: "tools/call"
      })
  )
}

const TERMINAL: ReadonlySet<unknown> = new Set(["completed", "failed", "cancelled"])

export const make = (options: {
  readonly request: McpClientShape["request"]
  /** The tools, listed (and remembered) again. */
  readonly listAll: Effect.Effect<ReadonlyArray<Tool>, ClientError>
  /** 2026: the tasks extension (the call opts in, the server decides; polled with tasks/get). */
  readonly era?: "2025" | "2026" | undefined
}): TaskCalls => {
  const { request } = options

  /** 2026: `tools/call` opting into the tasks extension; a task is polled to its end, cancelled when interrupted. */
  const asTask2026 = (params: JsonRpc.Params, callOptions: CallOptions | undefined) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const meta = { ...(params._meta as object | undefined), [CLIENT_CAPABILITIES_META_KEY]: TASKS_CAPABILITY }
        const created = yield* restore(request("tools/call", { ...params, _meta: meta }, callOptions))
        // the server answered at once
        if (typeof created.taskId !== "string") return created
        const taskId = created.taskId
        const interval = Duration.millis(typeof created.pollIntervalMs === "number" ? created.pollIntervalMs : 1000)
        const poll: Effect.Effect<unknown, ClientError> = Effect.flatMap(
          request("tasks/get", { taskId }, callOptions),
          (task) => TERMINAL.has(task.status) ? outcome2026(task) : Effect.andThen(Effect.sleep(interval), poll)
        )
        return yield* restore(Effect.andThen(Effect.sleep(interval), poll)).pipe(
          Effect.onInterrupt(() => Effect.ignore(request("tasks/cancel", { taskId })))
        )
      })
    )
  const support = new Map<string, string>()
  /** The tools of any listing. */
  const seen = new Set<string>()
  /** The tools were listed once: a tool missing from the listing is called plainly. */
  let listed = false

  const asTask = (name: string, params: JsonRpc.Params, callOptions: CallOptions | undefined) =>
    options.era === "2026" ? asTask2026(params, callOptions) : Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const created = yield* restore(request("tools/call", { ...params, task: {} }, callOptions))
        const task = (created as { readonly task?: { readonly taskId?: unknown } }).task
        if (typeof task?.taskId !== "string") {
          return yield* new ProtocolError({
            reason: "InvalidResult",
            method: "tools/call",
            message: `The server answered the task-augmented tools/call of ${name} without a task`
          })
        }
        const taskId = task.taskId
        const cancel = Effect.ignore(request("tasks/cancel", { taskId }))
        return yield* restore(
          request("tasks/result", { taskId }, callOptions).pipe(
            // the server bounds its wait, and so does the client's default request timeout: ask again
            Effect.retry({ while: (e) => e instanceof McpError ? e.code === -32001 : waitedTooLong(e, callOptions) })
          )
        ).pipe(
          // interrupted, or given up on our side (no one will ask for the result): the task is cancelled.
          // The server's error is the task's own end (or its refusal): nothing to cancel
          Effect.onExit((exit) =>
            Exit.isSuccess(exit) || Option.exists(Cause.findErrorOption(exit.cause), (e) => e instanceof McpError)
              ? Effect.void
              : cancel
          )
        )
      })
    )

  return {
    remember: (tools) => {
      for (const t of tools) {
        seen.add(t.name)
        const s = t.execution?.taskSupport
        if (s === undefined) support.delete(t.name)
        else support.set(t.name, s)
      }
    },
    call: (name, params, callOptions, plain) => {
      const asListed = Effect.suspend(() => support.get(name) === "required" ? asTask(name, params, callOptions) : plain)
      if (seen.has(name) || listed) return asListed
      // the plain call, the server's refusal of it as the signal: the tools listed, then as a task if required
      const refusedThenListed = Effect.catchIf(plain, isRefusal, (refused) =>
        Effect.flatMap(options.listAll, () => {
          listed = true
          return support.get(name) === "required" ? asTask(name, params, callOptions) : Effect.fail(refused)
        }))
      // 2026: a plain call of a required tool is refused -32021, naming the extension
      if (options.era === "2026") return refusedThenListed
      // 2025: a tool never listed is called as its listing says (a server may refuse a plain call of a
      // required tool with an error result, which says nothing a client can rely on)
      return Effect.flatMap(Effect.result(options.listAll), (listing) => {
        if (Result.isFailure(listing)) return refusedThenListed
        listed = true
        return asListed
      })
    }
  }
}
