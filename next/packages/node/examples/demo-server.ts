/**
 * The demo's server: one tool that reports progress and asks the client's
 * model for a haiku, served on stdio. Logs go to stderr; stdout is the wire.
 */
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Haiku } from "./demo-tools.js"

// the declaration is shared with the client; the handler is the server's alone
const HaikuLive = McpServer.toolHandler(Haiku, ({ topic }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(0, { total: 2, message: "asking the model" })
      const answer = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: `Write a haiku about ${topic}` } }],
        maxTokens: 60
      })
      yield* ctx.progress(1, { total: 2, message: "got an answer" })
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
      yield* ctx.progress(2, { total: 2, message: "done" })
      return { topic, haiku: content?.type === "text" ? content.text : "(no text)" }
    }))

const ServerLive = McpServer.register(HaikuLive).pipe(
  Layer.provideMerge(McpServer.layer({ name: "demo-server", version: "0.1.0" }))
)

// serves until stdin ends, then exits; SIGINT/SIGTERM end the session
McpServer.run.pipe(
  Effect.provide(ServerLive),
  Effect.provide(NodeStdio.layerServer()),
  NodeRuntime.runMain
)
