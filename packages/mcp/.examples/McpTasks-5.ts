import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const Deploy = McpServer.tool({
  name: "deploy",
  execution: { taskSupport: "required" },
  taskStart: "detach",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const { env } = yield* ctx.elicit({ message: "Which environment?", schema: Schema.Struct({ env: Schema.String }) })
      yield* McpTasks.detach // the call answers with the task here
      yield* Effect.sleep("5 minutes")
      return `deployed to ${env}`
    })
})
export {}
