/**
 * The demo: a server and a client in one process over the in-memory
 * transport. The client initializes, calls a tool that reports progress and
 * asks the client's model (sampling) for an answer, and every message that
 * crosses the wire is printed.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Transport from "@effect-mcp/mcp/Transport"

// ---------------------------------------------------------------- the server
const Haiku = McpServer.tool({
  name: "haiku",
  title: "Write a haiku",
  description: "Asks the client's model for a haiku about a topic, reporting progress",
  parameters: Schema.Struct({ topic: Schema.String.annotations({ description: "What the haiku is about" }) }),
  success: Schema.Struct({ topic: Schema.String, haiku: Schema.String }),
  handler: ({ topic }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(0, { total: 2, message: "asking the model" })
      const answer = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: `Write a haiku about ${topic}` } }],
        maxTokens: 60
      })
      yield* ctx.progress(1, { total: 2, message: "got an answer" })
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
      const haiku = content?.type === "text" ? content.text : "(no text)"
      yield* ctx.progress(2, { total: 2, message: "done" })
      return { topic, haiku }
    })
})

const ServerLive = McpServer.register(Haiku).pipe(
  Layer.provideMerge(McpServer.layer({ name: "demo-server", version: "0.1.0" }))
)

// ---------------------------------------------------------------- the client's model
const SamplingLive = McpClient.layerSampling((params) =>
  Effect.succeed({
    role: "assistant" as const,
    model: "pretend-model",
    content: {
      type: "text" as const,
      text: `Effects compose well\nfibers wait without blocking\n${params.maxTokens} tokens to spare`
    }
  })
)

// ---------------------------------------------------------------- the wire, readable
const describe = (json: string): string => {
  const m = JSON.parse(json) as Record<string, unknown>
  const id = "id" in m ? ` #${String(m.id)}` : ""
  if ("method" in m) return `${"id" in m ? "request" : "notify "}${id} ${String(m.method)} ${JSON.stringify(m.params ?? {})}`
  if ("error" in m) return `error  ${id} ${JSON.stringify(m.error)}`
  return `result ${id} ${JSON.stringify(m.result)}`
}

const program = Effect.gen(function*() {
  const pair = yield* Transport.makeMemoryPair({
    onWire: ({ from, json }) => console.log(`${from === "client" ? "client → server" : "server → client"}  ${describe(json)}`)
  })
  const server = yield* Layer.build(ServerLive)
  yield* McpServer.run.pipe(
    Effect.provide(server),
    Effect.provideService(Transport.Transport, pair.server),
    Effect.forkScoped
  )
  const client = yield* McpClient.make({ name: "demo-client", version: "0.1.0" }).pipe(
    Effect.provideService(Transport.Transport, pair.client),
    Effect.provide(SamplingLive)
  )
  yield* Console.log(`\nconnected to ${client.serverInfo.name} ${client.serverInfo.version}, protocol ${client.protocolVersion}\n`)
  const tools = yield* client.listToolsAll()
  yield* Console.log(`\ntools: ${tools.map((t) => t.name).join(", ")}\n`)
  const result = yield* client.callTool("haiku", { topic: "fibers" }, {
    onProgress: (p) => Console.log(`  progress ${p.progress}/${p.total ?? "?"} ${p.message ?? ""}`)
  })
  yield* Console.log(`\nresult:\n${JSON.stringify(result.structuredContent, null, 2)}`)
})

Effect.runPromise(Effect.scoped(program)).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
