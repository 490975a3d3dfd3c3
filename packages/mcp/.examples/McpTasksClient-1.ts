import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpTasksClient from "@effect-mcp/mcp/McpTasksClient"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const program = Effect.gen(function*() {
  const handle = yield* McpTasksClient.callTool("report", { month: "May" }, { ttl: 600_000 })
  yield* handle.statuses.pipe(Stream.runForEach((task) => Effect.log(task.status)))
  return yield* handle.result
}).pipe(Effect.scoped)
// Effect.provide(program, McpClient.layer(...))
export {}
