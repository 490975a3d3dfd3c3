/**
 * The 2026-07-28 header rules (SEP-2243) of `internal/headers2026`, the one
 * module both sides use: the shared cases through our encoder (the client's
 * `Mcp-Param-*` and `Mcp-Name`) and our decoder (the server's checks), the
 * `x-mcp-header` rules, the standard headers. The same cases against the
 * official v2 SDK: `packages/node/test/Headers2026Interop.test.ts`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Headers2026 from "../src/internal/headers2026.js"
import { INVALID_SCHEMAS, VALUE_CASES } from "./utils/headers2026Cases.js"

const V = "2026-07-28"
const PV = "io.modelcontextprotocol/protocolVersion"

describe("header values: our encoder, our decoder", () => {
  for (const c of VALUE_CASES) {
    it(`${c.label}: encoded as the spec writes it, decoded back, accepted by the server's check`, () => {
      const params = [{ path: ["v"], name: "V", type: c.type }]
      const headers = Headers2026.paramHeaders(params, { v: c.value })
      assert.deepStrictEqual(headers, { "mcp-param-v": c.header })
      assert.strictEqual(Headers2026.decodeValue(c.header), String(c.value))
      assert.isUndefined(Headers2026.checkParamHeaders(params, { v: c.value }, headers))
      // a header that says something else is refused
      const other = Headers2026.paramHeaders(params, { v: typeof c.value === "string" ? `${c.value}x` : String(c.value) + "1" })
      assert.strictEqual(Headers2026.checkParamHeaders(params, { v: c.value }, other)?.header, "Mcp-Param-V")
    })
  }

  it("Mcp-Name: the encoder's value is what the server's check decodes", () => {
    for (const c of VALUE_CASES.filter((c) => typeof c.value === "string")) {
      const uri = c.value as string
      const standard = Headers2026.standardHeaders(JsonRpc.request(1, "resources/read", { _meta: { [PV]: V }, uri }), undefined)!
      assert.strictEqual(standard["mcp-name"], c.header)
      assert.isUndefined(Headers2026.checkName(standard, "resources/read", { uri }))
      assert.strictEqual(Headers2026.checkName(standard, "resources/read", { uri: `${uri}/other` })?.header, "Mcp-Name")
    }
  })

  it("decoding: a sentinel whose payload is not canonical base64 of UTF-8 is refused; OWS is trimmed", () => {
    assert.isUndefined(Headers2026.decodeValue("=?base64?not base64!?="))
    assert.isUndefined(Headers2026.decodeValue("=?base64?/w==?=")) // 0xFF: not UTF-8
    const params = [{ path: ["v"], name: "V", type: "string" }]
    assert.strictEqual(
      Headers2026.checkParamHeaders(params, { v: "x" }, { "mcp-param-v": "=?base64?%%?=" })?.detail,
      "the Mcp-Param-V header is not valid base64 of UTF-8"
    )
    assert.isUndefined(Headers2026.checkParamHeaders(params, { v: "x" }, { "mcp-param-v": " x\t" }))
  })

  it("integers compare numerically; absent, null and non-primitive arguments have no header and expect none", () => {
    const params = [{ path: ["n"], name: "N", type: "integer" }, { path: ["o"], name: "O", type: "string" }]
    assert.isUndefined(Headers2026.checkParamHeaders(params, { n: 42 }, { "mcp-param-n": "42.0" }))
    assert.strictEqual(Headers2026.checkParamHeaders(params, { n: 42 }, {})?.header, "Mcp-Param-N")
    assert.deepStrictEqual(Headers2026.paramHeaders(params, { n: null, o: { no: 1 } }), {})
    assert.deepStrictEqual(Headers2026.paramHeaders(params, { n: Number.MAX_SAFE_INTEGER + 1 }), {})
    assert.isUndefined(Headers2026.checkParamHeaders(params, { n: null, o: ["a"] }, { "mcp-param-n": "1" }))
  })
})

describe("x-mcp-header rules", () => {
  for (const [what, schema] of INVALID_SCHEMAS) {
    it(`invalid: ${what}`, () => {
      assert.strictEqual(Headers2026.scanToolHeaders(schema)._tag, "Invalid")
    })
  }

  it("a number parameter: invalid, saying to make it an integer or a string", () => {
    const scan = Headers2026.scanToolHeaders({ type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } })
    assert.strictEqual(scan._tag === "Invalid" && scan.reason.includes("make it an integer, or a string"), true)
  })

  it("valid: nested properties, string/integer/boolean, none at all", () => {
    const scan = Headers2026.scanToolHeaders({
      type: "object",
      properties: {
        a: { type: "object", properties: { deep: { type: "boolean", "x-mcp-header": "Deep" } } },
        b: { type: "integer", "x-mcp-header": "B" },
        c: { type: "number" }
      }
    })
    assert.deepStrictEqual(scan, {
      _tag: "Valid",
      params: [{ path: ["a", "deep"], name: "Deep", type: "boolean" }, { path: ["b"], name: "B", type: "integer" }]
    })
    assert.deepStrictEqual(Headers2026.scanToolHeaders(undefined), { _tag: "Valid", params: [] })
  })
})

describe("standard headers", () => {
  it("Mcp-Method always, Mcp-Name where the method has one, the envelope's version; none on 2025", () => {
    const meta = { _meta: { [PV]: V } }
    assert.deepStrictEqual(Headers2026.standardHeaders(JsonRpc.request(1, "tools/call", { ...meta, name: "my-tool" }), undefined), {
      "mcp-protocol-version": V,
      "mcp-method": "tools/call",
      "mcp-name": "my-tool"
    })
    assert.strictEqual(
      Headers2026.standardHeaders(JsonRpc.request(1, "tasks/get", { ...meta, taskId: "t-1" }), undefined)?.["mcp-name"],
      "t-1"
    )
    assert.deepStrictEqual(
      Headers2026.standardHeaders(JsonRpc.notification("notifications/cancelled", { requestId: 1 }), V),
      { "mcp-protocol-version": V, "mcp-method": "notifications/cancelled" }
    )
    assert.isUndefined(Headers2026.standardHeaders(JsonRpc.request(1, "tools/list", {}), "2025-11-25"))
    assert.isUndefined(Headers2026.standardHeaders(JsonRpc.request(1, "tools/list", {}), undefined))
    assert.isUndefined(Headers2026.standardHeaders(JsonRpc.success(1, {}), V))
  })

  it("the server's check: version, then method, then name, each against the body", () => {
    const ok = { "mcp-protocol-version": V, "mcp-method": "prompts/get", "mcp-name": "=?base64?w6k=?=" }
    assert.isUndefined(Headers2026.checkVersionAndMethod(ok, V, "prompts/get"))
    assert.isUndefined(Headers2026.checkName(ok, "prompts/get", { name: "é" }))
    assert.strictEqual(Headers2026.checkVersionAndMethod({ ...ok, "mcp-protocol-version": "2025-11-25" }, V, "prompts/get")?.header, "MCP-Protocol-Version")
    assert.strictEqual(Headers2026.checkVersionAndMethod({ "mcp-protocol-version": V }, V, "prompts/get")?.header, "Mcp-Method")
    assert.strictEqual(Headers2026.checkName({}, "prompts/get", { name: "é" })?.header, "Mcp-Name")
    assert.isUndefined(Headers2026.checkName({}, "tools/list", {}))
  })
})

describe("registration: a server registers no tool its clients would drop", () => {
  const build = (inputSchema: Record<string, unknown>) =>
    Effect.exit(Effect.scoped(Layer.build(McpServer.register(McpServer.tool({
      name: "annotated",
      inputSchema: inputSchema as McpSchema.Tool["inputSchema"],
      handler: () => Effect.succeed("ran")
    })).pipe(Layer.provideMerge(McpServer.layer({ name: "headers", version: "1.0.0" }))))))

  for (const [what, schema] of INVALID_SCHEMAS) {
    it.effect(`invalid (${what}): the layer dies naming the tool and the rule`, () =>
      Effect.gen(function*() {
        const exit = yield* build(schema)
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause), what)
        const message = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
        assert.include(message, "Tool annotated cannot be registered")
        assert.include(message, "x-mcp-header")
      }))
  }

  it.effect("valid annotations register", () =>
    Effect.gen(function*() {
      const exit = yield* build({ type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } })
      assert.isTrue(Exit.isSuccess(exit))
    }))
})
