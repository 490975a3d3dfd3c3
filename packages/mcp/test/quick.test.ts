import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Transport from "@effect-mcp/mcp/Transport"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const Ask = McpServer.tool({
  name: "ask",
  parameters: Schema.Struct({ q: Schema.String }),
  handler: ({ q }) => Effect.gen(function*() {
    const ctx = yield* HandlerContext
    yield* ctx.progress(1, { total: 2 })
    const r = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: q } }], maxTokens: 10 })
    return r.content.type === "text" ? r.content.text : "?"
  })
})

it.scoped("quick e2e", () =>
  Effect.gen(function*() {
    const pair = yield* Transport.makeMemoryPair()
    const server = yield* Layer.build(McpServer.register(Echo, Ask).pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1" }))))
    yield* McpServer.run.pipe(Effect.provide(server), Effect.provideService(Transport.Transport, pair.server), Effect.forkScoped)
    const client = yield* McpClient.make({ name: "c", version: "1" }).pipe(
      Effect.provideService(Transport.Transport, pair.client),
      Effect.provide(McpClient.layerSampling((p) => Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "answer" } })))
    )
    const tools = yield* client.listToolsAll()
    assert.strictEqual(tools.length, 2)
    const r = yield* client.callTool("echo", { text: "hi" })
    assert.deepStrictEqual(r.content, [{ type: "text", text: "hi" }])
    const bad = yield* client.callTool("echo", { text: 1 })
    console.log(JSON.stringify(bad))
    const progress: Array<unknown> = []
    const r2 = yield* client.callTool("ask", { q: "?" }, { onProgress: (p) => Effect.sync(() => progress.push(p)) })
    console.log(JSON.stringify(r2), progress)
    for (const w of pair.wire) console.log(w.from, w.json)
  }))
