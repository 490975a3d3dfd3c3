/**
 * A plain `callTool` of a tool whose `execution.taskSupport` is `"required"`
 * (2025-11-25 tasks), made as a task: `tools/call` with `task`, then
 * `tasks/result` (asked again while the server bounds its wait with
 * -32001); interrupting the call cancels the task (`tasks/cancel`). The
 * client knows a tool's support from its listings (`listTools`,
 * `listToolsAll`); a tool never listed is called plainly, and if the server
 * refuses that call (-32601) the tools are listed once and the call is made
 * as a task when the tool requires one.
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as JsonRpc from "../JsonRpc.js"
import type { CallOptions, ClientError, McpClientShape } from "../McpClient.js"
import { McpError, ProtocolError } from "../McpError.js"
import type * as McpSchema from "../McpSchema.js"

export interface TaskCalls {
  /** Remembers the task support of listed tools. */
  readonly remember: (tools: ReadonlyArray<McpSchema.Tool>) => void
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

const isRefusal = (error: ClientError): boolean => error instanceof McpError && error.code === -32601

export const make = (options: {
  readonly request: McpClientShape["request"]
  /** The tools, listed (and remembered) again. */
  readonly listAll: Effect.Effect<ReadonlyArray<McpSchema.Tool>, ClientError>
}): TaskCalls => {
  const { request } = options
  const support = new Map<string, string>()
  let relisted = false

  const asTask = (name: string, params: JsonRpc.Params, callOptions: CallOptions | undefined) =>
    Effect.uninterruptibleMask((restore) =>
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
        return yield* restore(
          request("tasks/result", { taskId }, callOptions).pipe(
            // the server bounds its wait: ask again
            Effect.retry({ while: (e) => e instanceof McpError && e.code === -32001 })
          )
        ).pipe(Effect.onInterrupt(() => Effect.ignore(request("tasks/cancel", { taskId }))))
      })
    )

  return {
    remember: (tools) => {
      for (const t of tools) {
        const s = t.execution?.taskSupport
        if (s === undefined) support.delete(t.name)
        else support.set(t.name, s)
      }
    },
    call: (name, params, callOptions, plain) => {
      if (support.get(name) === "required") return asTask(name, params, callOptions)
      if (support.has(name) || relisted) return plain
      return Effect.catchIf(plain, isRefusal, (refused) =>
        Effect.flatMap(options.listAll, () => {
          relisted = true
          return support.get(name) === "required" ? asTask(name, params, callOptions) : Effect.fail(refused)
        }))
    }
  }
}
