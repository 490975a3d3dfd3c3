import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const ServerLive = McpServer.register(McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })).pipe(
  Layer.provideMerge(McpServer.layer({ name: "my-server", version: "1.0.0" }))
)

// listens until SIGINT/SIGTERM, then ends the sessions and closes the server
NodeStreamableHttp.layer({ port: 3000, path: "/mcp" }).pipe(
  Layer.provide(ServerLive),
  Layer.launch,
  NodeRuntime.runMain
)
export {}
