import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const Echo = McpServer.tool({
  name: "echo",
  handler: () => Effect.succeed("hello")
})

// serves until the client closes stdin; SIGINT/SIGTERM interrupt it and close the session
McpServer.run.pipe(
  Effect.provide(McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "echo", version: "1.0.0" })))),
  Effect.provide(NodeStdio.layerServer()),
  NodeRuntime.runMain
)
export {}
