/**
 * The client's side of the tasks extension (`io.modelcontextprotocol/tasks`)
 * on the 2026-07-28 path: which methods are its (their envelope declares the
 * extension), and the input requests of a task. A `tasks/get` showing input
 * requests the client's handlers have not answered yet has them answered
 * (`tasks/update`) before it returns; what was answered is remembered by
 * task, and forgotten once the task is seen terminal.
 */
import * as Effect from "effect/Effect"
import type * as JsonRpc from "../../JsonRpc.js"
import type * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import type { ClientError, Send } from "./envelope2026.js"
import type { Fulfil } from "./inputRounds2026.js"

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks"

/** The methods of the tasks extension: on 2026 the server decides, the client asks (no `tasks` capability). */
export const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"])

/** The client capabilities a request of the tasks extension declares. */
export const TASKS_CAPABILITY = { extensions: { [TASKS_EXTENSION]: {} } }

const TERMINAL: ReadonlySet<unknown> = new Set(["completed", "failed", "cancelled"])

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The input requests of `requests` whose keys are not in `seen`. */
const unanswered = (requests: Record<string, unknown>, seen: ReadonlySet<string>): McpSchema2026.InputRequests =>
  Object.fromEntries(Object.entries(requests).filter(([key]) => !seen.has(key))) as McpSchema2026.InputRequests

/** `tasks/get`, answering the input requests of the task it shows that were not answered yet. */
export const getTask = (send: Send, fulfil: Fulfil) => {
  /** The keys of the input requests answered already, by task. */
  const answered = new Map<string, Set<string>>()
  const answerNew = (taskId: string, requests: Record<string, unknown>, options: Protocol.RequestOptions | undefined) => {
    const seen = answered.get(taskId) ?? new Set<string>()
    answered.set(taskId, seen)
    const fresh = unanswered(requests, seen)
    if (Object.keys(fresh).length === 0) return Effect.void
    return fulfil("tasks/get", fresh).pipe(
      Effect.tap((inputResponses) => send("tasks/update", { taskId, inputResponses }, options)),
      Effect.tap((inputResponses) => Effect.sync(() => Object.keys(inputResponses).forEach((key) => seen.add(key))))
    )
  }
  return (
    params: JsonRpc.Params | undefined,
    options: Protocol.RequestOptions | undefined
  ): Effect.Effect<Protocol.Result, ClientError> =>
    Effect.flatMap(send("tasks/get", params, options), (task) => {
      const taskId = task.taskId
      if (typeof taskId !== "string") return Effect.succeed(task)
      if (TERMINAL.has(task.status)) {
        answered.delete(taskId)
        return Effect.succeed(task)
      }
      if (task.status !== "input_required" || !isObject(task.inputRequests)) return Effect.succeed(task)
      return Effect.as(answerNew(taskId, task.inputRequests, options), task)
    })
}
