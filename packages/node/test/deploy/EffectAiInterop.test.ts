/**
 * Interop with Effect 4's own MCP modules (`effect/ai/McpServer`, `effect/ai/McpClient`, effect 4.1.5),
 * over real transports (issue 37): our client against its server, its client against ours, on stdio
 * (a child process) and on streamable HTTP (127.0.0.1, port 0), in both eras (2025-11-25 and 2026-07-28;
 * effect/ai's client speaks no other). Each direction runs initialize (or server/discover), tools/list,
 * tools/call, resources/read and prompts/get, and checks what crossed. In the deploy suite: its child
 * processes and servers take ~10 s.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as EffectMcpClient from "effect/ai/McpClient"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as EffectMcpServer from "effect/ai/McpServer"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as ChildProcess from "effect/process/ChildProcess"
import * as http from "node:http"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"
import { ServerLive } from "../../examples/app/server.js"
import { protocols, Registrations } from "../fixtures/effectAiServer.js"

/** Our declaration of effect/ai's `echo` (fixtures/effectAiServer.ts), for the typed `callTool`. */
const EchoDeclaration = McpTool.make({ name: "echo", parameters: Schema.Struct({ text: Schema.String }), success: Schema.String })

const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const effectAiServer = fileURLToPath(new URL("../fixtures/effectAiServer.ts", import.meta.url))

/** The port an `HttpServer` in `context` listens on. */
const portOf = (server: HttpServer.HttpServer["Service"]): number => "port" in server.address ? server.address.port : 0

/** effect/ai's `McpServer.layerHttp` at /mcp on 127.0.0.1:0, serving `offered`; its port. */
const startEffectAiHttp = (offered: readonly [McpProtocol.ProtocolAdapter, ...Array<McpProtocol.ProtocolAdapter>]) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(
      HttpRouter.serve(
        EffectMcpServer.layerHttp({
          name: "effect-ai-server",
          version: "4.1.5",
          path: "/mcp",
          protocols: offered,
          allowSessionTermination: true,
          registrations: Registrations
        }),
        { disableListenLog: true, disableLogger: true }
      ).pipe(Layer.provideMerge(NodeHttpServer.layer(() => http.createServer(), { port: 0, host: "127.0.0.1" })))
    )
    return portOf(yield* HttpServer.HttpServer.pipe(Effect.provide(context)))
  })

/** One 2026-07-28 request POSTed by hand to an endpoint on `port`; its JSON-RPC answer. */
/** What the raw 2026 assertions read of an answer (a `tools/list` or a `tools/call` result; the rest is not read). */
interface RawAnswer {
  readonly result: {
    readonly tools: ReadonlyArray<{ readonly outputSchema?: unknown }>
    readonly structuredContent?: unknown
    readonly content?: unknown
  }
}

const post2026 = async (port: number, method: string, params: Record<string, unknown>) => {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {}
  }
  const name = typeof params.name === "string" ? { "mcp-name": params.name } : {}
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...name
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } })
  })
  return (await response.json()) as RawAnswer
}

/** What our client sees from the effect/ai server (the same on either transport). */
const exerciseEffectAiServer = (mcp: McpClient.McpClient["Service"], era: "2025" | "2026" = "2025") =>
  Effect.gen(function*() {
    assert.deepStrictEqual(mcp.serverInfo, { name: "effect-ai-server", version: "4.1.5" })
    assert.strictEqual(mcp.era, era)
    assert.strictEqual(mcp.protocolVersion, era === "2025" ? "2025-11-25" : "2026-07-28")
    assert.deepStrictEqual(mcp.serverCapabilities.tools, { listChanged: true })
    const tools = yield* mcp.listToolsAll()
    assert.deepStrictEqual(tools.map((t) => [t.name, t.description]), [["echo", "Echoes its text"]])
    assert.deepStrictEqual(tools[0]!.inputSchema, {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: true
    })
    const echo = yield* mcp.callTool("echo", { text: "hé 🦀" })
    assert.strictEqual(echo.isError, false)
    if (era === "2025") {
      assert.deepStrictEqual(echo.content, [{ type: "text", text: "hé 🦀" }])
    } else {
      // 2026-07-28 lets a tool's `outputSchema` be any JSON Schema and `structuredContent` any JSON value
      // (the official schema.json): effect/ai sends both for `success: Schema.String`, checked against each other
      assert.deepStrictEqual(tools[0]!.outputSchema, { type: "string" })
      assert.strictEqual(echo.structuredContent, "hé 🦀")
      assert.deepStrictEqual(echo.content, [{ type: "text", text: JSON.stringify("hé 🦀") }])
      // typed: our declaration of the same tool decodes the value as it came (not wrapped as ours wraps it)
      assert.strictEqual(yield* mcp.callTool(EchoDeclaration, { text: "hé 🦀" }), "hé 🦀")
    }
    const readme = yield* mcp.readResource("docs://readme")
    assert.deepStrictEqual(readme.contents, [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Hello from effect/ai" }])
    const greet = yield* mcp.getPrompt("greet", { name: "Ada" })
    assert.strictEqual(greet.description, "Greets someone")
    assert.deepStrictEqual(greet.messages, [{ role: "user", content: { type: "text", text: "Say hello to Ada" } }])
  })

/** What the effect/ai client sees from our example server (`examples/app/server.ts`). */
const exerciseOurServer = (client: EffectMcpClient.McpClient, version: string) =>
  Effect.gen(function*() {
    assert.strictEqual(client.protocolVersion, version)
    assert.deepStrictEqual(client.serverInfo, { name: "my-server", version: "1.0.0" })
    const tools = yield* client.listTools()
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), ["add", "countdown"])
    const add = tools.find((t) => t.name === "add")!
    const sum = yield* client.callTool({ tool: add, arguments: { a: 2, b: 3 } })
    assert.deepStrictEqual(sum.structuredContent, { sum: 5 })
    assert.deepStrictEqual(sum.content.map((c) => c.type === "text" ? JSON.parse(c.text) : c), [{ sum: 5 }])
    const readme = yield* client.readResource({ uri: "docs://readme" })
    assert.deepStrictEqual(readme.contents.map((c) => ({ ...c })), [{
      uri: "docs://readme",
      mimeType: "text/markdown",
      text: "# Hello from my-server"
    }])
    const prompts = yield* client.listPrompts()
    assert.deepStrictEqual(prompts.map((p) => p.name), ["greet"])
    const greet = yield* client.getPrompt({ prompt: prompts[0]!, arguments: { name: "Ada" } })
    assert.deepStrictEqual(greet.messages.map((m) => ({ role: m.role, content: { ...m.content } })), [{
      role: "user",
      content: { type: "text", text: "Say hello to Ada" }
    }])
  })

describe("interop with effect/ai's McpServer and McpClient (effect 4.1.5)", () => {
  it.live("our client (era auto) spawns an effect/ai stdio server: server/discover falls back to initialize 2025-11-25", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        McpClient.layer({ name: "ours", version: "1.0.0" }).pipe(
          Layer.provideMerge(NodeStdio.layerClient({ command: process.execPath, args: [effectAiServer], cwd: repo }))
        )
      )
      yield* exerciseEffectAiServer(yield* McpClient.McpClient.pipe(Effect.provide(context)))
    }), 30_000)

  it.live("our client (era 2026-07-28) spawns an effect/ai stdio server that also serves 2026-07-28", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        McpClient.layer({ era: "2026-07-28", name: "ours", version: "1.0.0" }).pipe(
          Layer.provideMerge(NodeStdio.layerClient({ command: process.execPath, args: [effectAiServer, "--2026"], cwd: repo }))
        )
      )
      yield* exerciseEffectAiServer(yield* McpClient.McpClient.pipe(Effect.provide(context)), "2026")
    }), 30_000)

  for (
    const [label, era, offered, expected] of [
      ["era 2025, a 2025-only endpoint", "2025", protocols, "2025"],
      ["era 2026-07-28, an endpoint that also serves 2026-07-28", "2026-07-28", [McpProtocol.v2026_07_28, ...protocols], "2026"],
      ["era auto, an endpoint that also serves 2026-07-28: picks 2026", "auto", [McpProtocol.v2026_07_28, ...protocols], "2026"]
    ] as const
  ) {
    it.live(`our client over streamable HTTP against effect/ai's McpServer.layerHttp (${label})`, () =>
      Effect.gen(function*() {
        const port = yield* startEffectAiHttp(offered)
        const context = yield* Layer.build(
          McpClient.layer({ era, name: "ours", version: "1.0.0" }).pipe(
            Layer.provide(NodeStreamableHttpClient.layer({ url: `http://127.0.0.1:${port}/mcp` }))
          )
        )
        yield* exerciseEffectAiServer(yield* McpClient.McpClient.pipe(Effect.provide(context)), expected)
        if (expected === "2026") {
          // what effect/ai puts on the wire for the tool, in 2026-07-28 (stateless POSTs)
          const [list, call] = yield* Effect.promise(() =>
            Promise.all([
              post2026(port, "tools/list", {}),
              post2026(port, "tools/call", { name: "echo", arguments: { text: "hé 🦀" } })
            ])
          )
          assert.deepStrictEqual(list.result.tools[0]?.outputSchema, { type: "string" })
          assert.deepStrictEqual(call.result.structuredContent, "hé 🦀")
          assert.deepStrictEqual(call.result.content, [{ type: "text", text: JSON.stringify("hé 🦀") }])
          // effect/ai's documented HTTP edges (McpServer.layerHttp's JSDoc): an unknown method is -32601 with status 404,
          // and there is no GET SSE stream (405)
          const [unknown, get] = yield* Effect.promise(() =>
            Promise.all([
              post2026(port, "no/such", {}).then((body) => body as unknown as { readonly error: { readonly code: number } }),
              fetch(`http://127.0.0.1:${port}/mcp`, { headers: { accept: "text/event-stream" } }).then((r) => r.status)
            ])
          )
          assert.strictEqual(unknown.error.code, -32601)
          assert.strictEqual(get, 405)
        }
      }), 30_000)
  }

  it.live("effect/ai's McpClient.layerStdio spawns our stdio server (2025-11-25)", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        EffectMcpClient.layerStdio({
          name: "effect-ai-client",
          version: "4.1.5",
          protocol: McpProtocol.v2025_11_25,
          command: ChildProcess.make(process.execPath, [bundled("stdio-app")], { cwd: repo })
        }).pipe(Layer.provide(NodeServices.layer))
      )
      yield* exerciseOurServer(yield* EffectMcpClient.McpClient.pipe(Effect.provide(context)), "2025-11-25")
    }), 30_000)

  it.live("effect/ai's McpClient.layerStdio spawns our stdio server (2026-07-28)", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        EffectMcpClient.layerStdio({
          name: "effect-ai-client",
          version: "4.1.5",
          protocol: McpProtocol.v2026_07_28,
          command: ChildProcess.make(process.execPath, [bundled("stdio-app")], { cwd: repo })
        }).pipe(Layer.provide(NodeServices.layer))
      )
      yield* exerciseOurServer(yield* EffectMcpClient.McpClient.pipe(Effect.provide(context)), "2026-07-28")
    }), 30_000)

  for (const protocol of [McpProtocol.v2025_11_25, McpProtocol.v2026_07_28]) {
    it.live(`effect/ai's McpClient.layerHttp against our NodeStreamableHttp (${protocol.protocolVersion})`, () =>
      Effect.gen(function*() {
        const serverContext = yield* Layer.build(NodeStreamableHttp.layer({ port: 0 }).pipe(Layer.provide(ServerLive)))
        const port = portOf(yield* HttpServer.HttpServer.pipe(Effect.provide(serverContext)))
        const context = yield* Layer.build(
          EffectMcpClient.layerHttp({
            name: "effect-ai-client",
            version: "4.1.5",
            protocol,
            url: `http://127.0.0.1:${port}/mcp`
          }).pipe(Layer.provide(NodeHttpClient.layerUndici))
        )
        yield* exerciseOurServer(yield* EffectMcpClient.McpClient.pipe(Effect.provide(context)), protocol.protocolVersion)
      }), 30_000)
  }
})
