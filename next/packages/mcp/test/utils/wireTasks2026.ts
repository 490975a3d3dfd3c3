/**
 * Validates the tasks extension's wire (2026-07-28, SEP-2663) against the extension's own JSON
 * Schema (a fixture of the repository, `fixtures/spec/ext-tasks`): `CreateTaskResult`,
 * `GetTaskResult`, `UpdateTaskResult`, `CancelTaskResult`, `TaskStatusNotification`.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import type { ValidateFunction } from "ajv/dist/2020.js"

const schema = JSON.parse(
  readFileSync(fileURLToPath(new URL("../fixtures/spec/ext-tasks/schema.json", import.meta.url)), "utf8")
) as { readonly $defs: { readonly [name: string]: object } }

const ajv = new Ajv2020.default({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(schema as object, "tasks2026")

const validators = new Map<string, ValidateFunction>()

/** The definitions this helper checks against. */
export type TasksDef = "CreateTaskResult" | "GetTaskResult" | "UpdateTaskResult" | "CancelTaskResult" | "TaskStatusNotification"

/** Throws unless `value` is a valid `def` of the tasks extension's schema. */
export const assertTasksValid = (def: TasksDef, value: unknown): void => {
  let v = validators.get(def)
  if (v === undefined) {
    if (schema.$defs[def] === undefined) throw new Error(`no definition ${def} in the tasks extension's schema`)
    v = ajv.getSchema(`tasks2026#/$defs/${def}`)!
    validators.set(def, v)
  }
  if (!v(value)) throw new Error(`not a valid ${def}: ${ajv.errorsText(v.errors)}\n  ${JSON.stringify(value)}`)
}

/** The task fields of the extension's results and notifications (its `Task` definition). */
export interface WireTask {
  readonly taskId: string
  readonly status: "working" | "input_required" | "completed" | "failed" | "cancelled"
  readonly statusMessage?: string
  readonly createdAt?: string
  readonly lastUpdatedAt?: string
  readonly ttlMs?: number | null
  readonly pollIntervalMs?: number
}

/** A tool's result as a terminal task inlines it. */
export interface WireToolResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
  readonly isError?: boolean
  readonly _meta?: { readonly [key: string]: unknown }
}

/** What each definition checked by `tasksWire` states, as TypeScript reads it. */
export interface TasksWire {
  readonly CreateTaskResult: WireTask & { readonly resultType: "task" }
  readonly GetTaskResult: WireTask & {
    readonly resultType: "complete"
    readonly inputRequests?: { readonly [key: string]: { readonly method: string; readonly params?: unknown } }
    readonly result?: WireToolResult
    readonly error?: { readonly code: number; readonly message: string }
  }
  readonly UpdateTaskResult: { readonly resultType: "complete" }
  readonly CancelTaskResult: { readonly resultType: "complete" }
  readonly TaskStatusNotification: {
    readonly method: "notifications/tasks"
    readonly params: WireTask & { readonly result?: WireToolResult }
  }
}

/** `value` as a `def` of the tasks extension, after checking it against the extension's schema. */
export const tasksWire = <D extends TasksDef>(def: D, value: unknown): TasksWire[D] => {
  assertTasksValid(def, value)
  return value as TasksWire[D]
}
