/**
 * The in-memory `TaskStore` (`McpTasks.makeMemoryStore`): one instance,
 * records by id in creation order.
 */
import * as Effect from "effect/Effect"
import type { StoredTask, TaskStoreShape } from "../../McpTasks.js"

/** A fresh store. */
export const make = (): TaskStoreShape => {
  const records = new Map<string, StoredTask>()
  return {
    put: (record) => Effect.sync(() => void records.set(record.task.taskId, record)),
    get: (taskId) => Effect.sync(() => records.get(taskId)),
    update: (taskId, f) =>
      Effect.sync(() => {
        const current = records.get(taskId)
        const next = current === undefined ? undefined : f(current)
        if (next !== undefined) records.set(taskId, next)
        return next
      }),
    list: (owner, offset, limit) =>
      Effect.sync(() => {
        const tasks: Array<StoredTask> = []
        let seen = 0
        let more = false
        for (const record of records.values()) {
          if (record.owner !== owner) continue
          if (seen++ < offset) continue
          if (tasks.length === limit) {
            more = true
            break
          }
          tasks.push(record)
        }
        return { tasks, more }
      }),
    sweep: (now) =>
      Effect.sync(() => {
        const expired: Array<string> = []
        for (const [id, record] of records) {
          if (record.expiresAt <= now) expired.push(id)
        }
        for (const id of expired) records.delete(id)
        return expired
      }),
    size: Effect.sync(() => records.size)
  }
}
