/**
 * The README's "Five minutes" server: its tools, a resource and a
 * prompt, as a Layer that any transport serves (`stdio.ts`, `http.ts`).
 * Checked against the packed packages by `pnpm test:pack`.
 */
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

const Add = McpServer.tool({
  name: "add",
  description: "Adds two numbers",
  parameters: Schema.Struct({ a: Schema.Number, b: Schema.Number }),
  success: Schema.Struct({ sum: Schema.Number }),
  handler: ({ a, b }) => Effect.log(`add ${a} + ${b}`).pipe(Effect.as({ sum: a + b }))
})

const Countdown = McpServer.tool({
  name: "countdown",
  description: "Counts down from `from`, one step every 100 ms, reporting progress",
  parameters: Schema.Struct({ from: Schema.Number }),
  handler: ({ from }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let left = from; left > 0; left--) {
        yield* ctx.progress(from - left, { total: from, message: `${left} to go` })
        yield* Effect.sleep("100 millis")
      }
      return "liftoff"
    })
})

const Readme = McpServer.resource({
  uri: "docs://readme",
  name: "readme",
  mimeType: "text/markdown",
  content: Effect.succeed("# Hello from my-server")
})

const Greet = McpServer.prompt({
  name: "greet",
  description: "Greets someone",
  parameters: Schema.Struct({ name: Schema.String }),
  content: ({ name }) => Effect.succeed(`Say hello to ${name}`)
})

export const ServerLive = McpServer.register(Add, Countdown, Readme, Greet).pipe(
  Layer.provideMerge(McpServer.layer({ name: "my-server", version: "1.0.0" }))
)
