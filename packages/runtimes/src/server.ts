/**
 * The MCP server every runtime serves, as one fetch handler (`StreamableHttpServer.toFetchHandler`):
 * the module `bun.ts`, `deno.ts` and `worker.ts` wrap, bundled by esbuild, and the one the Node
 * tests drive with undici `Request`s. Its tools: `echo`; `steps` (progress, then the answer);
 * `ask` (an elicitation and a sampling round trip through the same handler, on both eras);
 * `quiet` (an answer after a silence longer than Bun's 10 s idle cut); `announce` (a session
 * message, not related to the request: it goes on the standing GET).
 *
 * @since 0.1.0
 */
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const Steps = McpServer.tool({
  name: "steps",
  description: "progress then answer",
  parameters: Schema.Struct({ n: Schema.Number }),
  handler: ({ n }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= n; i++) {
        yield* Effect.sleep("5 millis")
        yield* ctx.progress(i, { total: n })
      }
      return `did ${n}`
    })
})

const Name = Schema.Struct({ name: Schema.String })

const Ask = McpServer.tool({
  name: "ask",
  description: "an elicitation, then a sampling, answered by the client",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const { name } = yield* ctx.elicit({ message: "What is your name?", schema: Name })
      const sampled = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }],
        maxTokens: 10
      })
      const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content
      return `${name}: ${content?.type === "text" ? content.text : ""}`
    })
})

const Quiet = McpServer.tool({
  name: "quiet",
  description: "answers after ms of silence",
  parameters: Schema.Struct({ ms: Schema.Number }),
  handler: ({ ms }) => Effect.as(Effect.sleep(ms), `quiet for ${ms} ms`)
})

const Announce = McpServer.tool({
  name: "announce",
  description: "a session message, not related to this request",
  handler: () => Effect.flatMap(ServerSession, (session) => session.log("info", "announced")).pipe(Effect.as("ok"))
})

/**
 * The server's Layer.
 * @since 0.1.0
 * @category layers
 */
export const ServerLive = McpServer.register(Echo, Steps, Ask, Quiet, Announce).pipe(
  Layer.provideMerge(McpServer.layer({ name: "runtimes", version: "1.0.0" }))
)

/** The origin the tests' CORS checks allow. */
export const ALLOWED_ORIGIN = "https://app.example.com"

/**
 * The handler, made at module scope (as Cloudflare Workers want it); CORS allows one origin.
 * @since 0.1.0
 * @category handlers
 */
export const handler = (options: StreamableHttpServer.FetchHandlerOptions = {}): StreamableHttpServer.FetchHandler =>
  StreamableHttpServer.toFetchHandler(ServerLive, { path: "/mcp", cors: { allowedOrigins: [ALLOWED_ORIGIN] }, ...options })
