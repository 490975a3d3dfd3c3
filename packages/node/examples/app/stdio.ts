/**
 * The server on stdio: `node stdio.js`. Serves one session until stdin ends
 * (the client closed it), then exits 0; SIGINT/SIGTERM interrupt it, which ends
 * the session and exits 130 (`runMain`'s code for an interruption from outside).
 * Logs go to stderr: stdout is the wire.
 */
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import { ServerLive } from "./server.js"

Effect.logInfo("my-server: serving on stdio").pipe(
  Effect.andThen(McpServer.run),
  Effect.provide(ServerLive),
  Effect.provide(NodeStdio.layerServer()),
  NodeRuntime.runMain
)
