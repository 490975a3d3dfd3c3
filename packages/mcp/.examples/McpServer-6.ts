import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const ServerLive = McpServer.register(McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })).pipe(
  Layer.provideMerge(McpServer.layer({ name: "my-server", version: "1.0.0", instructions: "Call ping." }))
)
export {}
