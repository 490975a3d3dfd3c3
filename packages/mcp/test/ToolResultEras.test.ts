/**
 * What the client accepts of a tool's `outputSchema` and `structuredContent`, per era, against scripted
 * servers on an in-memory wire. 2026-07-28 lets `outputSchema` be any JSON Schema object and
 * `structuredContent` any JSON value (its schema.json; effect/ai's McpServer sends
 * `outputSchema: {"type":"string"}` and `structuredContent: "hé 🦀"` for a `success: Schema.String` tool);
 * 2025-11-25 wants an object schema and an object value. In both, `structuredContent` is checked against the
 * listed output schema, and the typed `callTool(McpTool)` decodes it (wrapped `{ result }` or not).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ProtocolError } from "@effect-mcp/mcp/McpError"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Transport from "@effect-mcp/mcp/Transport"
import { fakePeer, initializeResult } from "./utils/wire.js"

const Echo = McpTool.make({ name: "echo", parameters: Schema.Struct({ text: Schema.String }), success: Schema.String })

const echoTool = (outputSchema: object) => ({
  name: "echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  outputSchema
})

/** A server of `era` whose `echo` lists `outputSchema` and answers `structuredContent` (what `reply` gives for the text). */
const scripted = (
  era: "2025" | "2026",
  outputSchema: object,
  reply: (text: string) => unknown,
  options: Partial<McpClient.ClientOptions> = {}
) =>
  Effect.gen(function*() {
    const pair = yield* Transport.makeMemoryPair()
    const complete = era === "2026" ? { resultType: "complete" } : {}
    yield* fakePeer(pair.server, (r) => {
      switch (r.method) {
        case "server/discover":
          return era === "2026"
            ? JsonRpc.success(r.id, {
              resultType: "complete",
              ttlMs: 0,
              cacheScope: "private",
              supportedVersions: ["2026-07-28"],
              capabilities: { tools: {} },
              _meta: { "io.modelcontextprotocol/serverInfo": { name: "scripted", version: "1" } }
            })
            : JsonRpc.failure(r.id, { code: -32601, message: "Method not found" })
        case "initialize":
          return initializeResult(r.id, { tools: {} })
        case "tools/list":
          return JsonRpc.success(r.id, { ...complete, ttlMs: 0, cacheScope: "private", tools: [echoTool(outputSchema)] })
        case "tools/call": {
          const text = (r.params as { readonly arguments: { readonly text: string } }).arguments.text
          const structuredContent = reply(text)
          return JsonRpc.success(r.id, {
            ...complete,
            content: [{ type: "text", text: JSON.stringify(structuredContent) ?? "" }],
            ...(structuredContent === undefined ? {} : { structuredContent })
          })
        }
        default:
          return JsonRpc.failure(r.id, { code: -32601, message: "Method not found" })
      }
    })
    const client = yield* (McpClient.make({ era: "auto", name: "c", version: "1", ...options }).pipe(
      Effect.provideService(Transport.Transport, pair.client)
    ) as Effect.Effect<McpClient.McpClientShape, McpClient.ClientError, import("effect/Scope").Scope>)
    assert.strictEqual(client.era, era)
    return client
  })

const invalid = (error: unknown, message: string) => {
  assert.instanceOf(error, ProtocolError)
  assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
  assert.include((error as ProtocolError).message, message)
}

describe("tool results on 2026-07-28: any JSON Schema, any JSON value", () => {
  it.effect("a string outputSchema is listed as it is; a string structuredContent comes back, raw and typed", () =>
    Effect.gen(function*() {
      const client = yield* scripted("2026", { type: "string" }, (text) => text)
      // before listing: not checked, but decoded by 2026's rules
      assert.strictEqual((yield* client.callTool("echo", { text: "hé 🦀" })).structuredContent, "hé 🦀")
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools[0]!.outputSchema, { type: "string" })
      const raw = yield* client.callTool("echo", { text: "hé 🦀" })
      assert.strictEqual(raw.structuredContent, "hé 🦀")
      assert.deepStrictEqual(raw.content, [{ type: "text", text: JSON.stringify("hé 🦀") }])
      // typed: the value is not wrapped as this SDK wraps it ({ result }), and decodes as it is
      assert.strictEqual(yield* client.callTool(Echo, { text: "typed" }), "typed")
    }))

  it.effect("structuredContent that the listed non-object schema rejects is refused (InvalidResult)", () =>
    Effect.gen(function*() {
      const client = yield* scripted("2026", { type: "string" }, (text) => text === "num" ? 42 : text)
      yield* client.listToolsAll()
      invalid(yield* Effect.flip(client.callTool("echo", { text: "num" })), "does not match its output schema")
      // typed too (the output check comes first)
      invalid(yield* Effect.flip(client.callTool(Echo, { text: "num" })), "does not match its output schema")
      // and the next call is fine
      assert.strictEqual((yield* client.callTool("echo", { text: "ok" })).structuredContent, "ok")
    }))

  it.effect("with validation off, the typed call's success schema still refuses a wrong value", () =>
    Effect.gen(function*() {
      const lax = yield* scripted("2026", { type: "string" }, () => 42, { validateStructuredContent: false })
      yield* lax.listToolsAll()
      assert.strictEqual((yield* lax.callTool("echo", { text: "x" })).structuredContent, 42)
      invalid(yield* Effect.flip(lax.callTool(Echo, { text: "x" })), "its success schema rejects")
    }))

  it.effect("an array, null or a wrapped object: each checked against its listed schema", () =>
    Effect.gen(function*() {
      const arrays = yield* scripted("2026", { type: "array", items: { type: "string" } }, (text) => [text, text])
      yield* arrays.listToolsAll()
      assert.deepStrictEqual((yield* arrays.callTool("echo", { text: "a" })).structuredContent, ["a", "a"])
      const nulls = yield* scripted("2026", { type: "null" }, (text) => text === "null" ? null : text)
      yield* nulls.listToolsAll()
      assert.isNull((yield* nulls.callTool("echo", { text: "null" })).structuredContent)
      invalid(yield* Effect.flip(nulls.callTool("echo", { text: "x" })), "does not match its output schema")
      // our own servers wrap a non-object success as { result } in both eras: the typed call unwraps it
      const wrapped = yield* scripted(
        "2026",
        Echo.definition.outputSchema as object,
        (text) => ({ result: text })
      )
      yield* wrapped.listToolsAll()
      assert.strictEqual(yield* wrapped.callTool(Echo, { text: "w" }), "w")
    }))

  it.effect("a listed output schema and no structuredContent is refused", () =>
    Effect.gen(function*() {
      const client = yield* scripted("2026", { type: "string" }, () => undefined)
      yield* client.listToolsAll()
      invalid(yield* Effect.flip(client.callTool("echo", { text: "x" })), "returned no structuredContent")
    }))
})

describe("tool results on 2025-11-25: an object schema, an object value", () => {
  it.effect("a non-object outputSchema fails tools/list (InvalidResult)", () =>
    Effect.gen(function*() {
      const client = yield* scripted("2025", { type: "string" }, (text) => text)
      invalid(yield* Effect.flip(client.listToolsAll()), `tools.0.outputSchema.type: Expected "object"`)
    }))

  it.effect("a non-object structuredContent fails tools/call where the response is read (InvalidResult)", () =>
    Effect.gen(function*() {
      const client = yield* scripted("2025", { type: "object" }, (text) => text)
      invalid(yield* Effect.flip(client.callTool("echo", { text: "x" })), `structuredContent: Expected { readonly [x: string]: unknown }, actual "x"`)
      invalid(yield* Effect.flip(client.callTool(Echo, { text: "x" })), `structuredContent: Expected { readonly [x: string]: unknown }`)
    }))

  it.effect("an object structuredContent is checked against the listed schema, and the typed call unwraps { result }", () =>
    Effect.gen(function*() {
      const client = yield* scripted(
        "2025",
        Echo.definition.outputSchema as object,
        (text) => text === "bad" ? { result: 1 } : { result: text }
      )
      yield* client.listToolsAll()
      assert.deepStrictEqual((yield* client.callTool("echo", { text: "a" })).structuredContent, { result: "a" })
      assert.strictEqual(yield* client.callTool(Echo, { text: "b" }), "b")
      invalid(yield* Effect.flip(client.callTool("echo", { text: "bad" })), "does not match its output schema")
    }))
})
