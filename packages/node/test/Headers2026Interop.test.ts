/**
 * The shared header cases (`packages/mcp/test/utils/headers2026Cases.ts`) over real HTTP, both
 * sides: our client's encoder against our server's decoder, against the official v2 server's
 * (`@modelcontextprotocol/server` 2.4.0, which checks `Mcp-Param-*` against the body), and the
 * official v2 client's encoder (`@modelcontextprotocol/client` 2.4.0) against our server's. The
 * v2 SDK does not export its codec: each call's headers are read on the wire, and each server's
 * refusal of a header that disagrees shows it does check them.
 */
import { assert, describe, it } from "@effect/vitest"
import * as HttpServer from "effect/http/HttpServer"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { toNodeHandler } from "@modelcontextprotocol/node"
import { createMcpHandler, McpServer as OfficialServer } from "@modelcontextprotocol/server"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as z from "zod"
import { VALUE_CASES, type ValueCase } from "../../mcp/test/utils/headers2026Cases.js"

const V = "2026-07-28"
const KEY = { string: "s", integer: "i", boolean: "b" } as const
const HEADER = { string: "mcp-param-s", integer: "mcp-param-i", boolean: "mcp-param-b" } as const
const argsOf = (c: ValueCase) => ({ [KEY[c.type]]: c.value })
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text

/** Every POST's headers, by the tool it calls. */
type Seen = Array<{ readonly tool: unknown; readonly headers: Record<string, string | undefined> }>

// ---------------------------------------------------------------- our server

const Mirror = McpServer.tool({
  name: "mirror",
  inputSchema: {
    type: "object",
    properties: {
      s: { type: "string", "x-mcp-header": "S" },
      i: { type: "integer", "x-mcp-header": "I" },
      b: { type: "boolean", "x-mcp-header": "B" }
    }
  } as McpSchema.Tool["inputSchema"],
  parameters: Schema.Struct({ s: Schema.optional(Schema.String), i: Schema.optional(Schema.Int), b: Schema.optional(Schema.Boolean) }),
  handler: (args) => Effect.succeed(JSON.stringify(args))
})

const ours = Effect.gen(function*() {
  const layer = NodeStreamableHttp.layer({ port: 0 }).pipe(
    Layer.provideMerge(McpServer.register(Mirror)),
    Layer.provideMerge(McpServer.layer({ name: "headers", version: "1.0.0" }))
  )
  const server = yield* HttpServer.HttpServer.pipe(Effect.provide(yield* Layer.build(layer).pipe(Effect.orDie)))
  return `http://127.0.0.1:${"port" in server.address ? server.address.port : 0}/mcp`
})

// ---------------------------------------------------------------- the official v2 server

const officialFactory = () => {
  const server = new OfficialServer({ name: "official-v2", version: "2.4.0" })
  server.registerTool("mirror", {
    inputSchema: z.object({
      s: z.string().meta({ "x-mcp-header": "S" }).optional(),
      i: z.int().meta({ "x-mcp-header": "I" }).optional(),
      b: z.boolean().meta({ "x-mcp-header": "B" }).optional()
    })
  }, async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }))
  return server
}

/** The official handler on 127.0.0.1:0; the headers of every POST are kept. */
const official = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly seen: Seen; readonly server: http.Server }>((resume) => {
    const handler = toNodeHandler(createMcpHandler(officialFactory, { legacy: "stateless" }))
    const seen: Seen = []
    const server = http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        const body = text === "" ? undefined : JSON.parse(text)
        if (req.method === "POST") seen.push({ tool: body?.params?.name, headers: req.headers as Seen[number]["headers"] })
        void handler(req as never, res as never, body)
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen, server })))
  }),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

/** A proxy on 127.0.0.1:0 in front of `target` that keeps the headers of every POST. */
const capture = (target: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly seen: Seen; readonly server: http.Server }>((resume) => {
      const seen: Seen = []
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", async () => {
          const body = Buffer.concat(chunks).toString("utf8")
          const headers = req.headers as Seen[number]["headers"]
          if (req.method === "POST") seen.push({ tool: body === "" ? undefined : JSON.parse(body)?.params?.name, headers })
          const forwarded = Object.entries(headers).filter(([k, v]) => v !== undefined && k !== "host" && k !== "content-length")
          const answer = await fetch(target, {
            method: req.method!,
            headers: forwarded as Array<[string, string]>,
            ...(body === "" ? {} : { body })
          })
          res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()))
          res.end(Buffer.from(await answer.arrayBuffer()))
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen, server })))
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

// ---------------------------------------------------------------- clients

const ourClient = (url: string) =>
  Effect.flatMap(
    Layer.build(McpClient.layer({ name: "ours", version: "1.0.0", era: "2026-07-28" }).pipe(
      Layer.provide(NodeStreamableHttpClient.layer({ url }))
    )),
    (context) => McpClient.McpClient.pipe(Effect.provide(context))
  )

/** The official v2 client, pinned to 2026-07-28; its POSTs' headers are kept. */
const officialClient = (url: string, seen: Seen) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official-v2", version: "2.4.0" }, { versionNegotiation: { mode: { pin: V } } as never })
      const fetchSeen = async (input: string | URL | Request, init?: RequestInit) => {
        const headers = Object.fromEntries(new Headers(init?.headers).entries())
        const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined
        if (init?.method === "POST") seen.push({ tool: body?.params?.name, headers })
        return fetch(input, init)
      }
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchSeen }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

/** A raw 2026 `tools/call` of `mirror` with `{ s: "a" }` and the given `Mcp-Param-S`: the server's status and error code. */
const rawCall = (url: string, paramS: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": V,
        "mcp-method": "tools/call",
        "mcp-name": "mirror",
        "mcp-param-s": paramS
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "mirror",
          arguments: { s: "a" },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": V,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
          }
        }
      })
    })
    const text = await response.text()
    const json = text.startsWith("{") ? JSON.parse(text) : JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))!.slice(6))
    return { status: response.status, code: json.error?.code as number | undefined }
  })

/** Each case's call was answered with its own arguments, and its header on the wire is the spec's. */
const assertCases = (results: ReadonlyArray<string>, seen: Seen) => {
  const calls = seen.filter((s) => s.tool === "mirror")
  assert.strictEqual(calls.length, VALUE_CASES.length)
  VALUE_CASES.forEach((c, n) => {
    assert.deepStrictEqual(JSON.parse(results[n]!), argsOf(c), c.label)
    assert.strictEqual(calls[n]!.headers[HEADER[c.type]], c.header, c.label)
    assert.strictEqual(calls[n]!.headers["mcp-name"], "mirror")
  })
}

describe("the 2026 header cases over HTTP, both SDKs", () => {
  it.live("our encoder → our decoder: listed, called with the spec's header values, enforced", () =>
    Effect.gen(function*() {
      const url = yield* ours
      const proxy = yield* capture(url)
      const client = yield* ourClient(proxy.url)
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools.map((t) => t.name), ["mirror"])
      const results: Array<string> = []
      for (const c of VALUE_CASES) results.push(textOf(yield* client.callTool("mirror", argsOf(c))))
      assertCases(results, proxy.seen)
      assert.deepStrictEqual(yield* rawCall(url, "b"), { status: 400, code: -32020 })
      assert.deepStrictEqual(yield* rawCall(url, "a"), { status: 200, code: undefined })
    }), 30_000)

  it.live("our encoder → the official v2 server's decoder: the same values on the wire, accepted", () =>
    Effect.gen(function*() {
      const server = yield* official
      const client = yield* ourClient(server.url)
      assert.include((yield* client.listToolsAll()).map((t) => t.name), "mirror")
      const results: Array<string> = []
      for (const c of VALUE_CASES) results.push(textOf(yield* client.callTool("mirror", argsOf(c))))
      assertCases(results, server.seen)
      // it does check them
      assert.deepStrictEqual(yield* rawCall(server.url, "b"), { status: 400, code: -32020 })
    }), 30_000)

  it.live("the official v2 client's encoder → our decoder: the same values on the wire, accepted", () =>
    Effect.gen(function*() {
      const url = yield* ours
      const seen: Seen = []
      const client = yield* officialClient(url, seen)
      const { tools } = yield* Effect.promise(() => client.listTools())
      assert.deepStrictEqual(tools.map((t) => t.name), ["mirror"])
      const results: Array<string> = []
      for (const c of VALUE_CASES) {
        results.push(textOf(yield* Effect.promise(() => client.callTool({ name: "mirror", arguments: argsOf(c) }))))
      }
      assertCases(results, seen)
    }), 30_000)
})
