/**
 * Our client on the 2026-07-28 path, against the official v2 server
 * (`@modelcontextprotocol/server` 2.4.0 with `@modelcontextprotocol/node`): over HTTP in its
 * default (stateless, both eras) and `legacy: 'reject'` modes, and over stdio in `serve` and
 * `reject` modes; multi-round-trip elicitation, sampling and roots; the `Mcp-Param-*` header of
 * an `x-mcp-header` parameter (the server refuses a call without it). And the fallback: `auto`
 * against the official v1 server and our own 2025 server over stdio.
 */
import { assert, describe, it } from "@effect/vitest"
import { createMcpHandler } from "@modelcontextprotocol/server"
import { toNodeHandler } from "@modelcontextprotocol/node"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"
import { emcp } from "../cliRun.js"
// @ts-expect-error: a plain .mjs fixture without types (it is also run as a process)
import { factory } from "../fixtures/official-v2.mjs"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const v2Fixture = fileURLToPath(new URL("../fixtures/official-v2.mjs", import.meta.url))
const v1Fixture = fileURLToPath(new URL("../fixtures/official-server.mjs", import.meta.url))

interface Seen {
  readonly method: string | undefined
  readonly headers: http.IncomingHttpHeaders
  readonly body: { readonly method?: string; readonly params?: Record<string, unknown> }
}

/** The official handler on 127.0.0.1:0; every POST's headers and body are kept. */
const officialHttp = (legacy: "stateless" | "reject") =>
  Effect.acquireRelease(
    Effect.callback<{
      readonly url: string
      readonly seen: Array<Seen>
      readonly server: http.Server
      readonly notify: ReturnType<typeof createMcpHandler>["notify"]
    }>((resume) => {
      const mcp = createMcpHandler(factory, { legacy })
      const handler = toNodeHandler(mcp)
      const seen: Array<Seen> = []
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8")
          const body = text === "" ? undefined : JSON.parse(text)
          if (req.method === "POST") seen.push({ method: body?.method, headers: req.headers, body: body ?? {} })
          void handler(req as never, res as never, body)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}/mcp`, seen, server, notify: mcp.notify }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const elicited: Array<McpSchema.ElicitRequestFormParams> = []
const sampled: Array<string> = []
const clientOptions = (era?: McpClient.ClientOptions["era"]) => ({
  name: "ours",
  version: "1.0.0",
  ...(era === undefined ? {} : { era }),
  elicitation: {
    form: (params: McpSchema.ElicitRequestFormParams) =>
      Effect.sync(() => {
        elicited.push(params)
        return { action: "accept" as const, content: { ok: true } }
      })
  },
  sampling: (params: McpSchema.CreateMessageRequestParams) =>
    Effect.sync(() => {
      const text = (params.messages[0]!.content as { text: string }).text
      sampled.push(text)
      return { role: "assistant" as const, model: "m", content: { type: "text" as const, text: `<${text}>` } }
    }),
  roots: [{ uri: "file:///work", name: "work" }]
})

const text = (result: McpClient.CallToolResult) => (result.content[0] as { text: string }).text

/** What every 2026 server of the fixture answers the same, whatever the transport. */
const exercise2026 = (client: McpClient.McpClientShape) =>
  Effect.gen(function*() {
    assert.strictEqual(client.era, "2026")
    assert.strictEqual(client.protocolVersion, "2026-07-28")
    assert.strictEqual(client.serverInfo.name, "official-v2")
    const tools = yield* client.listToolsAll()
    assert.includeMembers(tools.map((t) => t.name), ["echo", "confirm", "haiku", "roots", "region"])
    assert.strictEqual(text(yield* client.callTool("echo", { text: "hé 🦀" })), "hé 🦀")
    elicited.length = 0
    assert.strictEqual(text(yield* client.callTool("confirm", { action: "deploy" })), `deploy: {"ok":true} (state confirm:deploy)`)
    assert.strictEqual(elicited.length, 1)
    assert.strictEqual(elicited[0]!.message, "Really deploy?")
    sampled.length = 0
    assert.strictEqual(text(yield* client.callTool("haiku", { topic: "fibers" })), "<line 1 about fibers> / <line 2 about fibers>")
    assert.deepStrictEqual(sampled, ["line 1 about fibers", "line 2 about fibers"])
    assert.strictEqual(text(yield* client.callTool("roots", {})), "file:///work")
    // the server checks Mcp-Param-Region against the body: a call without it would fail
    assert.strictEqual(text(yield* client.callTool("region", { region: "eu west" })), "region eu west")
    const read = yield* client.readResource("file:///readme.txt")
    assert.deepStrictEqual(read.contents, [{ uri: "file:///readme.txt", text: "read me" }])
    const prompt = yield* client.getPrompt("greet", { name: "Ada" })
    assert.deepStrictEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "hello Ada" } }])
    // parallel calls keep their rounds apart
    elicited.length = 0
    const both = yield* Effect.all([
      client.callTool("confirm", { action: "a" }),
      client.callTool("confirm", { action: "b" }),
      client.callTool("echo", { text: "plain" })
    ], { concurrency: "unbounded" })
    assert.deepStrictEqual(both.map(text), [`a: {"ok":true} (state confirm:a)`, `b: {"ok":true} (state confirm:b)`, "plain"])
    yield* client.ping
  })

const overHttp = (url: string, era?: McpClient.ClientOptions["era"]) =>
  Layer.build(McpClient.layer(clientOptions(era)).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url }))))

describe("our client against the official v2 server on the 2026 path", () => {
  for (const legacy of ["stateless", "reject"] as const) {
    it.live(`HTTP, legacy: '${legacy}': auto settles on 2026; envelope, headers, MRTR rounds`, () =>
      Effect.gen(function*() {
        const server = yield* officialHttp(legacy)
        const client = yield* McpClient.McpClient.pipe(Effect.provide(yield* overHttp(server.url)))
        yield* exercise2026(client)
        assert.isTrue(server.seen.length > 0)
        assert.strictEqual(server.seen[0]!.method, "server/discover")
        for (const { body, headers } of server.seen) {
          const meta = body.params?._meta as Record<string, unknown>
          assert.strictEqual(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28")
          assert.deepStrictEqual(meta["io.modelcontextprotocol/clientInfo"], { name: "ours", version: "1.0.0" })
          assert.deepStrictEqual(meta["io.modelcontextprotocol/clientCapabilities"], {
            sampling: {},
            elicitation: { form: {} },
            roots: {}
          })
          assert.strictEqual(headers["mcp-protocol-version"], "2026-07-28")
          assert.strictEqual(headers["mcp-method"], body.method)
          assert.isUndefined(headers["mcp-session-id"])
        }
        const region = server.seen.find((s) => s.body.params?.name === "region")!
        assert.strictEqual(region.headers["mcp-name"], "region")
        assert.strictEqual(region.headers["mcp-param-region"], "eu west")
        const read = server.seen.find((s) => s.method === "resources/read")!
        assert.strictEqual(read.headers["mcp-name"], "file:///readme.txt")
        // each round is a new request: a new id, the original arguments, the exact state
        const rounds = server.seen.filter((s) => s.body.params?.name === "haiku")
        assert.strictEqual(rounds.length, 3)
        assert.strictEqual(new Set(rounds.map((r) => (r.body as { id?: unknown }).id)).size, 3)
        assert.isUndefined(rounds[0]!.body.params!.requestState)
        assert.strictEqual(rounds[1]!.body.params!.requestState, "1:[]")
        assert.strictEqual(rounds[2]!.body.params!.requestState, `2:["<line 1 about fibers>"]`)
        for (const r of rounds) assert.deepStrictEqual(r.body.params!.arguments, { topic: "fibers" })
        // the other calls of the parallel batch carry nothing of the confirm rounds
        const echoes = server.seen.filter((s) => s.body.params?.name === "echo")
        for (const e of echoes) {
          assert.isUndefined(e.body.params!.inputResponses)
          assert.isUndefined(e.body.params!.requestState)
        }
      }), 60_000)
  }

  it.live("HTTP: listen is acknowledged, then yields what its filter asks for; closing it ends the request", () =>
    Effect.gen(function*() {
      const server = yield* officialHttp("reject")
      const client = yield* McpClient.McpClient.pipe(Effect.provide(yield* overHttp(server.url)))
      const got = new Set<string>()
      const listening = yield* Effect.forkScoped(
        client.listen({ toolsListChanged: true, promptsListChanged: true }).pipe(
          Stream.map((n) => `${n.method} ${String(n.params?.uri ?? "")}`.trim()),
          Stream.takeUntil((line) => {
            got.add(line)
            return got.size >= 2
          }),
          Stream.runDrain
        )
      )
      // the server publishes only to subscriptions it holds: publish until the stream has seen both
      const publish = Effect.sync(() => {
        server.notify.resourcesChanged() // not asked for
        server.notify.toolsChanged()
        server.notify.promptsChanged()
      }).pipe(Effect.andThen(Effect.sleep("100 millis")), Effect.forever, Effect.forkScoped)
      yield* publish
      yield* Fiber.join(listening)
      const listen = server.seen.find((s) => s.method === "subscriptions/listen")!
      assert.deepStrictEqual(listen.body.params!.notifications, { toolsListChanged: true, promptsListChanged: true })
      assert.strictEqual(listen.headers["mcp-method"], "subscriptions/listen")
      assert.deepStrictEqual([...got].sort(), ["notifications/prompts/list_changed", "notifications/tools/list_changed"])
      // the stream is over: its request is cancelled on the wire
      yield* Effect.sleep("300 millis")
      const cancelled = server.seen.find((s) => s.method === "notifications/cancelled")
      assert.strictEqual(cancelled?.body.params?.requestId, (listen.body as { id?: unknown }).id)
    }), 30_000)

  it.live("HTTP, default mode: era '2025' initializes as before", () =>
    Effect.gen(function*() {
      const server = yield* officialHttp("stateless")
      const client = yield* McpClient.McpClient.pipe(Effect.provide(yield* overHttp(server.url, "2025")))
      assert.strictEqual(client.era, "2025")
      assert.strictEqual(server.seen[0]!.method, "initialize")
      assert.strictEqual(text(yield* client.callTool("echo", { text: "old" })), "old")
    }), 30_000)

  it.live("HTTP, legacy: 'reject': era '2025' fails with the server's -32022", () =>
    Effect.gen(function*() {
      const server = yield* officialHttp("reject")
      const error = yield* Effect.flip(overHttp(server.url, "2025"))
      assert.strictEqual(error._tag, "McpError", error.message)
      assert.strictEqual((error as { code?: number }).code, -32022)
    }), 30_000)

  for (const legacy of ["serve", "reject"] as const) {
    it.live(`stdio, legacy: '${legacy}': auto settles on 2026`, () =>
      Effect.gen(function*() {
        const context = yield* Layer.build(
          McpClient.layer(clientOptions()).pipe(
            Layer.provide(NodeStdio.layerClient({ command: process.execPath, args: [v2Fixture, "--stdio", legacy], cwd: repo }))
          )
        )
        yield* exercise2026(yield* McpClient.McpClient.pipe(Effect.provide(context)))
      }), 60_000)
  }
})

describe("auto against servers of 2025, and our own", () => {
  it.live("the official v1 server over stdio", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        McpClient.layer(clientOptions()).pipe(
          Layer.provide(NodeStdio.layerClient({ command: process.execPath, args: [v1Fixture], cwd: repo }))
        )
      )
      const client = yield* McpClient.McpClient.pipe(Effect.provide(context))
      assert.strictEqual(client.era, "2025")
      assert.strictEqual(client.serverInfo.name, "official-server")
      assert.deepStrictEqual((yield* client.callTool("echo", { text: "x" })).content, [{ type: "text", text: "x" }])
      assert.deepStrictEqual((yield* client.callTool("sample", { q: "?" })).content, [{ type: "text", text: "model said: <?>" }])
    }), 30_000)

  it.live("our own server over stdio: 2026 with auto, 2025 when asked", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        McpClient.layer(clientOptions()).pipe(
          Layer.provide(NodeStdio.layerClient({
            command: process.execPath,
            args: [bundled("conformance-server"), "--stdio"],
            cwd: repo
          }))
        )
      )
      const client = yield* McpClient.McpClient.pipe(Effect.provide(context))
      assert.strictEqual(client.era, "2026")
      assert.deepStrictEqual(yield* client.callTool("echo", { text: "ours" }), { content: [{ type: "text", text: "ours" }] })
      const pinned = yield* Layer.build(
        McpClient.layer(clientOptions("2025")).pipe(
          Layer.provide(NodeStdio.layerClient({
            command: process.execPath,
            args: [bundled("conformance-server"), "--stdio"],
            cwd: repo
          }))
        )
      )
      const old = yield* McpClient.McpClient.pipe(Effect.provide(pinned))
      assert.strictEqual(old.era, "2025")
      assert.deepStrictEqual(yield* old.callTool("echo", { text: "ours" }), { content: [{ type: "text", text: "ours" }] })
    }), 30_000)
})

describe("emcp against the official v2 server", () => {
  const check = (connection: ReadonlyArray<string>, legacy2025Works: boolean) =>
    Effect.gen(function*() {
      const info = yield* emcp(...connection, "info", "--json")
      assert.strictEqual(info.code, 0, info.stderr)
      const parsed = JSON.parse(info.stdout)
      assert.strictEqual(parsed.era, "2026")
      assert.strictEqual(parsed.protocolVersion, "2026-07-28")
      assert.strictEqual(parsed.serverInfo.name, "official-v2")
      const human = yield* emcp(...connection, "info")
      assert.match(human.stdout, /\nprotocol: 2026-07-28 \(2026 era, stateless\)\n/)
      const echo = yield* emcp(...connection, "tools", "call", "echo", `{"text":"hi"}`, "--json")
      assert.strictEqual(echo.stdout, `{"content":[{"type":"text","text":"hi"}]}\n`, echo.stderr)
      // an elicitation round answered from the flag, a sampling round from the flag
      const confirm = yield* emcp(...connection, "tools", "call", "confirm", `{"action":"go"}`, "--elicit", `accept:{"ok":true}`, "--json")
      assert.strictEqual(JSON.parse(confirm.stdout).content[0].text, `go: {"ok":true} (state confirm:go)`, confirm.stderr)
      const haiku = yield* emcp(...connection, "tools", "call", "haiku", `{"topic":"x"}`, "--sampling-response", "a line", "--json")
      assert.strictEqual(JSON.parse(haiku.stdout).content[0].text, "a line / a line", haiku.stderr)
      const region = yield* emcp(...connection, "tools", "call", "region", `{"region":"eu"}`, "--json")
      assert.strictEqual(JSON.parse(region.stdout).content[0].text, "region eu", region.stderr)
      const ping = yield* emcp(...connection, "ping")
      assert.match(ping.stdout, /^pong/)
      const pinned = yield* emcp(...connection, "--protocol", "2026-07-28", "tools", "call", "echo", `{"text":"p"}`, "--json")
      assert.strictEqual(pinned.stdout, `{"content":[{"type":"text","text":"p"}]}\n`, pinned.stderr)
      const old = yield* emcp(...connection, "--protocol", "2025-11-25", "info", "--json")
      if (legacy2025Works) {
        assert.strictEqual(JSON.parse(old.stdout).era, "2025", old.stderr)
      } else {
        assert.strictEqual(old.code, 1)
        assert.match(old.stderr, /-32022/)
      }
    })

  for (const legacy of ["stateless", "reject"] as const) {
    it.live(`over HTTP, legacy: '${legacy}'`, () =>
      Effect.gen(function*() {
        const server = yield* officialHttp(legacy)
        yield* check(["--url", server.url], legacy === "stateless")
      }), 60_000)
  }
  for (const legacy of ["serve", "reject"] as const) {
    it.live(`over stdio, legacy: '${legacy}'`, () =>
      check(["--stdio", `'${process.execPath}' '${v2Fixture}' --stdio ${legacy}`], legacy === "serve"), 90_000)
  }
})
