/**
 * Tasks on the fixture server: the 2025-11-25 `tasks` capability and the
 * 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663),
 * with the tools the suite's `tasks-*` scenarios call. Each handler is the
 * same Effect for a 2025 task, a 2026 task and a plain call.
 * @since 0.1.0
 */
import { type ElicitationFields, HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

/**
 * Sleeps `seconds` (0: answers at once), then answers; may be called as a task.
 * @since 0.1.0
 */
export const SlowCompute = McpServer.tool({
  name: "slow_compute",
  description: "Computes for `seconds` seconds, then answers; may be called as a task",
  execution: { taskSupport: "optional" },
  parameters: Schema.Struct({ seconds: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 600 })), label: Schema.optional(Schema.String) }),
  handler: ({ seconds }) => Effect.as(Effect.sleep(`${seconds} seconds`), `computed after ${seconds} s`)
})

const Greet = McpServer.tool({
  name: "greet",
  description: "Greets (never a task)",
  parameters: Schema.Struct({ name: Schema.String }),
  handler: ({ name }) => Effect.succeed(`Hello, ${name}!`)
})

/** A tool error after a second (a task of it completes with `isError`); requires a task. */
const FailingJob = McpServer.tool({
  name: "failing_job",
  description: "Fails as a tool after a second; must be called as a task",
  execution: { taskSupport: "required" },
  handler: () => Effect.andThen(Effect.sleep("1 second"), Effect.fail("the job failed"))
})

/** A JSON-RPC error (a task of it fails with the error inlined). */
const ProtocolErrorJob = McpServer.tool({
  name: "protocol_error_job",
  description: "Fails with a JSON-RPC internal error",
  execution: { taskSupport: "optional" },
  handler: () =>
    Effect.andThen(
      Effect.sleep("100 millis"),
      Effect.fail(new ErrorResponse({ code: -32603, message: "protocol_error_job: internal failure" }))
    )
})

const Confirm = Schema.Struct({ confirm: Schema.Boolean })
const Name = Schema.Struct({ name: Schema.String })

const elicit = <A, I extends ElicitationFields>(message: string, schema: Schema.Codec<A, I>, inputKey?: string) =>
  Effect.flatMap(HandlerContext, (ctx) => ctx.elicit({ message, schema }, inputKey === undefined ? undefined : { inputKey }))

/** Asks the user to confirm (as a task: its `inputRequests`, answered by `tasks/update`). */
const ConfirmDelete = McpServer.tool({
  name: "confirm_delete",
  description: "Asks the user to confirm deleting a file, then deletes it",
  execution: { taskSupport: "optional" },
  parameters: Schema.Struct({ filename: Schema.String }),
  handler: ({ filename }) =>
    Effect.map(elicit(`Delete ${filename}?`, Confirm), ({ confirm }) => (confirm ? `deleted ${filename}` : `kept ${filename}`))
})

/** Asks two questions at once. */
const MultiInput = McpServer.tool({
  name: "multi_input",
  description: "Asks two questions at once",
  execution: { taskSupport: "optional" },
  handler: () =>
    Effect.map(
      Effect.all([elicit("First name?", Name, "first"), elicit("Second name?", Name, "second")], { concurrency: "unbounded" }),
      ([a, b]) => `${a.name} and ${b.name}`
    )
})

/**
 * Asks the user's name on the call (2026: a multi-round-trip round), then
 * becomes a task (`McpTasks.detach`) that greets after a moment.
 */
const ToolWithTask = McpServer.tool({
  name: "test_tool_with_task",
  description: "Asks the user's name, then greets as a task",
  execution: { taskSupport: "required" },
  taskStart: "detach",
  handler: () =>
    Effect.gen(function*() {
      const { name } = yield* elicit("What is your name?", Name, "user_name")
      yield* McpTasks.detach
      yield* Effect.sleep("200 millis")
      return `Hello, ${name}!`
    })
})

/**
 * The fixture's tasks: the tools and an in-memory task store.
 * @since 0.1.0
 */
export const TasksLive = Layer.mergeAll(
  McpServer.register(SlowCompute, Greet, FailingJob, ProtocolErrorJob, ConfirmDelete, MultiInput, ToolWithTask),
  McpTasks.layerMemory()
)
