import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js"
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { rawRequest, startServer } from "./httpUtil.js"

const Ask = McpServer.tool({
  name: "ask",
  description: "progress, then sampling",
  parameters: Schema.Struct({ q: Schema.String }),
  handler: ({ q }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(1, { total: 1 })
      const answer = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: q } }], maxTokens: 5 })
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
      return content?.type === "text" ? content.text : ""
    })
})

describe("legacy HTTP+SSE server (2024-11-05)", () => {
  it.live("the official SSEClientTransport talks to it, side by side with streamable HTTP", () =>
    Effect.gen(function*() {
      const { port } = yield* startServer(McpServer.register(Ask), { legacySse: true })
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "legacy", version: "1" }, { capabilities: { sampling: {} } })
          client.setRequestHandler(CreateMessageRequestSchema, async () => ({
            role: "assistant",
            model: "m",
            content: { type: "text", text: "old but gold" }
          }))
          await client.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${port}/sse`)))
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const tools = yield* Effect.promise(() => client.listTools())
      assert.deepStrictEqual(tools.tools.map((t) => t.name), ["ask"])
      const progress: Array<number> = []
      const result = yield* Effect.promise(() =>
        client.callTool({ name: "ask", arguments: { q: "?" } }, undefined, { onprogress: (p) => progress.push(p.progress) })
      )
      assert.deepStrictEqual(result.content, [{ type: "text", text: "old but gold" }])
      assert.deepStrictEqual(progress, [1])
    }))

  it.live("checks Host, session ids, content type and body size", () =>
    Effect.gen(function*() {
      const { port } = yield* startServer(McpServer.register(Ask), { legacySse: true, maxBodyBytes: 64 })
      const base = `http://127.0.0.1:${port}`
      const evil = yield* rawRequest(`${base}/sse`, { method: "GET", headers: { host: "evil.example.com", accept: "text/event-stream" } })
      assert.strictEqual(evil.status, 403)
      const json = { "content-type": "application/json" }
      const missing = yield* rawRequest(`${base}/messages`, { method: "POST", headers: json, body: "{}" })
      assert.strictEqual(missing.status, 400)
      const unknown = yield* rawRequest(`${base}/messages?sessionId=nope`, { method: "POST", headers: json, body: "{}" })
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(JSON.parse(unknown.text).error.code, -32001)
      const text = yield* rawRequest(`${base}/messages?sessionId=nope`, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })
      assert.strictEqual(text.status, 415)
      // a real session: oversized and malformed bodies are refused and the session goes on
      const controller = new AbortController()
      const { reader, sessionId } = yield* Effect.promise(async () => {
        const response = await fetch(`${base}/sse`, { headers: { accept: "text/event-stream" }, signal: controller.signal })
        const reader = response.body!.getReader()
        let buffer = ""
        while (!buffer.includes("\n\n")) buffer += new TextDecoder().decode((await reader.read()).value)
        return { reader, sessionId: /sessionId=([0-9a-f]+)/.exec(buffer)![1]! }
      })
      const at = `${base}/messages?sessionId=${sessionId}`
      const big = yield* rawRequest(at, { method: "POST", headers: json, body: JSON.stringify({ pad: "x".repeat(100) }) })
      assert.strictEqual(big.status, 413)
      const bad = yield* rawRequest(at, { method: "POST", headers: json, body: "{x" })
      assert.strictEqual(bad.status, 400)
      assert.strictEqual(JSON.parse(bad.text).error.code, -32700)
      const ping = yield* rawRequest(at, { method: "POST", headers: json, body: '{"jsonrpc":"2.0","id":7,"method":"ping"}' })
      assert.strictEqual(ping.status, 202)
      const answer = yield* Effect.promise(async () => {
        let buffer = ""
        while (!buffer.includes('"id":7')) buffer += new TextDecoder().decode((await reader.read()).value)
        return buffer
      })
      assert.include(answer, '{"jsonrpc":"2.0","id":7,"result":{}}')
      controller.abort()
      // the stream closed with the abort: the session is gone with it
      yield* Effect.sleep(50)
      const gone = yield* rawRequest(`${base}/messages?sessionId=${sessionId}`, { method: "POST", headers: json, body: "{}" })
      assert.strictEqual(gone.status, 404)
    }))
})
