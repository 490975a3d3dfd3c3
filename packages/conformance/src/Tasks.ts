/**
 * Tasks on the fixture server (2025-11-25 tasks): the `tasks` capability and
 * `slow_compute`, a tool that may be called as a task.
 * @since 0.2.0
 */
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

/**
 * Sleeps `seconds` (0: answers at once), then answers; may be called as a task.
 * @since 0.2.0
 */
export const SlowCompute = McpServer.tool({
  name: "slow_compute",
  description: "Computes for `seconds` seconds, then answers; may be called as a task",
  execution: { taskSupport: "optional" },
  parameters: Schema.Struct({ seconds: Schema.Number.pipe(Schema.between(0, 600)) }),
  handler: ({ seconds }) => Effect.as(Effect.sleep(`${seconds} seconds`), `computed after ${seconds} s`)
})

/**
 * The fixture's tasks: the tool and an in-memory task store.
 * @since 0.2.0
 */
export const TasksLive = Layer.mergeAll(McpServer.register(SlowCompute), McpTasks.layerMemory())
