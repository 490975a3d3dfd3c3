/**
 * The tasks of both eras as one server extension: the core (`core.ts`:
 * records, wakers, fibers, expiry) and a methods table per era (`era2025.ts`,
 * `era2026.ts`), the table chosen by the request's era at dispatch; a
 * `tools/call` goes to the era of its session.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Extension } from "../../McpServer.js"
import type { TaskStoreShape, TasksOptions } from "../../McpTasks.js"
import * as Core from "./core.js"
import * as Era2025 from "./era2025.js"
import * as Tasks2026 from "./era2026.js"

export interface Engine {
  readonly extension: Extension
  /** Tasks whose handler runs on this instance (tests: nothing is left behind). */
  readonly localSize: Effect.Effect<number>
}

/** The engine, for the life of the scope: its fibers and the sweeper end with it. */
export const make = (store: TaskStoreShape, options: TasksOptions): Effect.Effect<Engine, never, Scope.Scope> =>
  Effect.map(Core.make(store, options), (core) => {
    const era2025 = Era2025.make(core)
    const era2026 = Tasks2026.make(core)
    const extension: Extension = {
      // 2025-11-25's capability, and 2026-07-28's extension (server/discover shows only the latter)
      capabilities: {
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        extensions: { [Tasks2026.EXTENSION_ID]: {} }
      },
      // 2026: the tasks extension (the server decides; a legacy `task` param is ignored)
      toolCall: (call) => (call.session.era === "2026" ? era2026 : era2025).toolCall(call),
      listen: era2026.listen,
      methodsByEra: { "2025": era2025.methods, "2026": era2026.methods }
    }
    return { extension, localSize: core.localSize }
  })
