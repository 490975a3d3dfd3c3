import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))
const fixture = fileURLToPath(new URL("./fixtures/official-server.mjs", import.meta.url))

describe("stdio interop with the official TypeScript SDK", () => {
  it.live("the official Client spawns our conformance server: tools, progress, sampling, elicitation, cancellation", () =>
    Effect.gen(function*() {
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } })
          client.setRequestHandler(CreateMessageRequestSchema, async () => ({
            role: "assistant",
            model: "m",
            content: { type: "text", text: "This is a test response from the client" }
          }))
          client.setRequestHandler(ElicitRequestSchema, async () => ({
            action: "accept",
            content: { username: "ada", email: "ada@example.com" }
          }))
          await client.connect(
            new StdioClientTransport({
              command: process.execPath,
              args: [bundled("conformance-server"), "--stdio"],
              cwd: repo,
              stderr: "pipe"
            })
          )
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const tools = yield* Effect.promise(() => client.listTools())
      assert.includeMembers(tools.tools.map((t) => t.name), ["echo", "slow", "test_sampling", "test_elicitation"])
      const echo = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "hé 🦀" } }))
      assert.deepStrictEqual(echo.content, [{ type: "text", text: "hé 🦀" }])
      const progress: Array<number> = []
      const slow = yield* Effect.promise(() =>
        client.callTool({ name: "slow", arguments: { ms: 350 } }, undefined, { onprogress: (p) => progress.push(p.progress) })
      )
      assert.deepStrictEqual(slow.content, [{ type: "text", text: "done" }])
      assert.isAtLeast(progress.length, 3)
      const sampled = yield* Effect.promise(() => client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }))
      assert.deepStrictEqual(sampled.content, [{ type: "text", text: "LLM response: This is a test response from the client" }])
      const elicited = yield* Effect.promise(() => client.callTool({ name: "test_elicitation", arguments: { message: "who?" } }))
      assert.include((elicited.content as Array<{ text: string }>)[0]!.text, "ada@example.com")
      // cancellation by the official client: the call rejects at once, the server goes on
      const controller = new AbortController()
      const started = Date.now()
      const cancelled = client.callTool({ name: "slow", arguments: { ms: 10_000 } }, undefined, { signal: controller.signal })
      setTimeout(() => controller.abort("changed my mind"), 100)
      const outcome = yield* Effect.promise(() => cancelled.then(() => "resolved", () => "rejected"))
      assert.strictEqual(outcome, "rejected")
      assert.isBelow(Date.now() - started, 2000)
      const after = yield* Effect.promise(() => client.callTool({ name: "echo", arguments: { text: "still here" } }))
      assert.deepStrictEqual(after.content, [{ type: "text", text: "still here" }])
    }), 30_000)

  it.live("our client spawns a server built with the official McpServer: the same, the other way", () =>
    Effect.gen(function*() {
      const transport = NodeStdio.layerClient({ command: process.execPath, args: [fixture], cwd: repo })
      const context = yield* Layer.build(
        McpClient.layer({
          era: "2025", name: "ours",
          version: "1.0.0",
          sampling: () => Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "hello" } }),
          elicitation: { form: () => Effect.succeed({ action: "accept", content: { ok: true } }) }
        }).pipe(
          Layer.provideMerge(transport)
        )
      )
      const mcp = yield* McpClient.McpClient.pipe(Effect.provide(context))
      const child = yield* NodeStdio.StdioChild.pipe(Effect.provide(context))
      assert.strictEqual(mcp.serverInfo.name, "official-server")
      const tools = yield* mcp.listToolsAll()
      assert.deepStrictEqual(tools.map((t) => t.name).sort(), ["confirm", "echo", "sample", "steps", "wait"])
      assert.deepStrictEqual((yield* mcp.callTool("echo", { text: "x" })).content, [{ type: "text", text: "x" }])
      const progress: Array<number> = []
      const steps = yield* mcp.callTool("steps", { n: 3 }, { onProgress: (p) => Effect.sync(() => progress.push(p.progress)) })
      assert.deepStrictEqual(steps.content, [{ type: "text", text: "did 3" }])
      assert.deepStrictEqual(progress, [1, 2, 3])
      assert.deepStrictEqual((yield* mcp.callTool("sample", { q: "?" })).content, [{ type: "text", text: "model said: hello" }])
      // the client fills the schema's defaults into an accepted answer
      const confirm = yield* mcp.callTool("confirm", {})
      assert.deepStrictEqual(JSON.parse((confirm.content[0] as { text: string }).text), {
        action: "accept",
        content: { ok: true, name: "Ada" }
      })
      // cancellation by interruption reaches the official server's abort signal
      const lines: Array<string> = []
      yield* child.stderr.pipe(Stream.runForEach((line) => Effect.sync(() => lines.push(line))), Effect.forkScoped)
      const call = yield* Effect.forkChild(mcp.callTool("wait", {}))
      yield* Effect.sleep(200)
      yield* Fiber.interrupt(call)
      yield* Effect.sleep(200)
      assert.isTrue(lines.some((l) => l.startsWith("cancelled")), `stderr: ${lines.join(" | ")}`)
      assert.deepStrictEqual((yield* mcp.callTool("echo", { text: "y" })).content, [{ type: "text", text: "y" }])
    }), 30_000)
})
