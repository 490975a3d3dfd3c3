import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

class Clock extends Context.Service<Clock, { readonly now: Effect.Effect<string> }>()("Clock") {}

const Now = McpServer.tool({ name: "now", handler: () => Effect.flatMap(Clock, (clock) => clock.now) })

// the tool needs Clock: the registering Layer does, and gives it to the handler
const ServerLive = McpServer.register(Now).pipe(
  Layer.provide(Layer.succeed(Clock, { now: Effect.sync(() => new Date().toISOString()) })),
  Layer.provideMerge(McpServer.layer({ name: "clock", version: "1.0.0" }))
)
export {}
