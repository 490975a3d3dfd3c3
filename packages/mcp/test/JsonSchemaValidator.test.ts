/**
 * The eval-free validator behind the client's output-schema check
 * (`internal/jsonSchemaValidator.ts`): 2020-12 as MCP uses it, the schemas
 * it refuses (with a reason) instead of skipping, and the client's call
 * failing with that reason. That it runs with no code generation from strings
 * at all is checked here in a `node:vm` context that forbids it (as a strict
 * CSP does) and in a real browser by `packages/node/test/browser/`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as esbuild from "esbuild"
import * as path from "node:path"
import * as vm from "node:vm"
import { fileURLToPath } from "node:url"
import { ProtocolError } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { compile } from "../src/internal/jsonSchemaValidator.js"
import { assertWireValid, buildServer, connect } from "./utils/wire.js"

const validator = (schema: unknown) => {
  const compiled = compile(schema)
  if (compiled._tag === "Invalid") throw new Error(`refused: ${compiled.reason}`)
  return compiled.validate
}
const accepts = (schema: unknown, value: unknown) => assert.isUndefined(validator(schema)(value), JSON.stringify(value))
const rejects = (schema: unknown, value: unknown) => assert.isString(validator(schema)(value), JSON.stringify(value))
const refusal = (schema: unknown): string => {
  const compiled = compile(schema)
  assert.strictEqual(compiled._tag, "Invalid", JSON.stringify(schema))
  return compiled._tag === "Invalid" ? compiled.reason : ""
}

describe("jsonSchemaValidator: 2020-12 as MCP uses it", () => {
  it("objects, required, types, integers, enums, const, nullable unions", () => {
    const schema = {
      type: "object",
      properties: {
        n: { type: "integer", minimum: 0 },
        s: { type: ["string", "null"], maxLength: 3 },
        e: { enum: ["a", "b"] },
        c: { const: { x: 1 } }
      },
      required: ["n"],
      additionalProperties: false
    }
    accepts(schema, { n: 1 })
    accepts(schema, { n: 1.0, s: null, e: "a", c: { x: 1 } })
    rejects(schema, { n: 1.5 })
    rejects(schema, { n: -1 })
    rejects(schema, {})
    rejects(schema, { n: 1, s: "long" })
    rejects(schema, { n: 1, e: "z" })
    rejects(schema, { n: 1, c: { x: 2 } })
    rejects(schema, { n: 1, extra: true })
    assert.include(validator(schema)({ n: "x" }), "/n")
  })

  it("prefixItems and items: false (a tuple), arrays, uniqueItems, contains", () => {
    const tuple = { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false }
    accepts(tuple, ["a", 1])
    rejects(tuple, ["a", 1, 2])
    rejects(tuple, [1, "a"])
    const list = { type: "array", items: { type: "number" }, minItems: 1, uniqueItems: true, contains: { const: 2 } }
    accepts(list, [1, 2])
    rejects(list, [])
    rejects(list, [1, 1, 2])
    rejects(list, [1, 3])
  })

  it("$defs and $ref, recursive ones too; anyOf, oneOf, allOf, not, if/then/else", () => {
    const tree = {
      $ref: "#/$defs/node",
      $defs: {
        node: { type: "object", properties: { v: { type: "number" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["v"] }
      }
    }
    accepts(tree, { v: 1, kids: [{ v: 2, kids: [{ v: 3 }] }] })
    rejects(tree, { v: 1, kids: [{ v: 2, kids: [{}] }] })
    const combos = {
      allOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { not: { const: 0 } }],
      oneOf: [{ type: "number" }, { type: "string", minLength: 1 }],
      if: { type: "number" },
      then: { maximum: 10 },
      else: { pattern: "^a" }
    }
    accepts(combos, 5)
    accepts(combos, "abc")
    rejects(combos, 0)
    rejects(combos, 11)
    rejects(combos, "bcd")
    rejects(combos, true)
  })

  it("unevaluatedProperties sees through allOf and $ref; patternProperties; propertyNames", () => {
    const schema = {
      allOf: [{ $ref: "#/$defs/base" }],
      properties: { b: { type: "number" } },
      unevaluatedProperties: false,
      $defs: { base: { properties: { a: { type: "string" } } } }
    }
    accepts(schema, { a: "x", b: 1 })
    rejects(schema, { a: "x", c: 1 })
    const patterned = { type: "object", patternProperties: { "^x-": { type: "string" } }, propertyNames: { maxLength: 4 } }
    accepts(patterned, { "x-a": "s" })
    rejects(patterned, { "x-a": 1 })
    rejects(patterned, { toolong: 1 })
  })

  it("boolean schemas; an empty schema accepts anything", () => {
    accepts(true, { any: "thing" })
    rejects(false, 1)
    accepts({}, null)
    accepts({ type: "object", properties: { x: true, y: false } }, { x: 1 })
    rejects({ type: "object", properties: { x: true, y: false } }, { y: 1 })
  })

  it("format is an annotation (2020-12's default), as it was with Ajv", () => {
    accepts({ type: "string", format: "email" }, "not an email")
    accepts({ type: "object", properties: { when: { type: "string", format: "date-time" } } }, { when: "yesterday" })
    // a property named format is a property, not the keyword
    rejects({ type: "object", properties: { format: { type: "number" } }, required: ["format"] }, { format: "x" })
  })

  it("the same $id on identical subschemas (Effect's unknown, published twice) is one schema", () => {
    const unknown = () => ({ $id: "/schemas/unknown", title: "unknown" })
    const schema = { type: "object", properties: { a: unknown(), b: unknown() }, required: ["a", "b"] }
    accepts(schema, { a: 1, b: "x" })
    rejects(schema, { a: 1 })
    // compiled twice (the tool listed again): the caller's value is never annotated
    accepts(schema, { a: 1, b: 2 })
    accepts(schema, { a: [], b: {} })
    assert.deepStrictEqual(Object.keys(schema.properties.a), ["$id", "title"])
    assert.strictEqual(JSON.stringify(schema), JSON.stringify({ type: "object", properties: { a: unknown(), b: unknown() }, required: ["a", "b"] }))
  })

  it("a top-level $id is kept as the base of relative references", () => {
    const schema = { $id: "https://example.com/out", type: "object", properties: { n: { $ref: "out#/$defs/n" } }, $defs: { n: { type: "number" } } }
    accepts(schema, { n: 1 })
    rejects(schema, { n: "1" })
    accepts({ ...schema, properties: { n: { $ref: "https://example.com/out#/$defs/n" } } }, { n: 1 })
  })

  it("$anchor; $dynamicRef in a schema of one resource, as the $ref it then is", () => {
    accepts({ $ref: "#num", $defs: { n: { $anchor: "num", type: "number" } } }, 1)
    rejects({ $ref: "#num", $defs: { n: { $anchor: "num", type: "number" } } }, "1")
    const dynamic = {
      $dynamicAnchor: "node",
      type: "object",
      properties: { kids: { type: "array", items: { $dynamicRef: "#node" } }, v: { type: "number" } }
    }
    accepts(dynamic, { v: 1, kids: [{ v: 2, kids: [] }] })
    rejects(dynamic, { v: 1, kids: [{ v: "2" }] })
  })

  it("older dialects by $schema: draft-07's items array, 2019-09's $recursiveRef", () => {
    const d7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: false }
    accepts(d7, ["a"])
    rejects(d7, ["a", "b"])
    const d2019 = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      $recursiveAnchor: true,
      type: "object",
      properties: { kids: { type: "array", items: { $recursiveRef: "#" } } }
    }
    accepts(d2019, { kids: [{ kids: [] }] })
    rejects(d2019, { kids: [1] })
  })
})

describe("jsonSchemaValidator: refused with a reason, never skipped", () => {
  it("an unknown dialect", () => {
    assert.include(refusal({ $schema: "https://example.com/my-dialect", type: "object" }), "dialect")
    assert.include(refusal({ $schema: 7 }), "$schema")
  })
  it("a $ref that resolves to nothing (nothing is fetched)", () => {
    assert.include(refusal({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }), "#/$defs/missing")
    assert.include(refusal({ $ref: "https://example.com/elsewhere.json" }), "resolves to nothing")
  })
  it("a type that names no JSON type; a pattern that is not a regular expression", () => {
    assert.include(refusal({ type: "object", properties: { a: { type: "strin" } } }), "#/properties/a/type")
    assert.include(refusal({ type: ["string", 5] }), "type")
    assert.include(refusal({ type: "string", pattern: "([" }), "#/pattern")
    assert.include(refusal({ type: "object", patternProperties: { "([": {} } }), "patternProperties")
  })
  it("a subschema that is not a schema; an array keyword that is not an array", () => {
    assert.include(refusal({ type: "object", properties: { a: 5 } }), "#/properties/a")
    assert.include(refusal({ anyOf: { type: "string" } }), "#/anyOf")
    assert.include(refusal("string"), "not a schema")
  })
  it("two different schemas under one $id", () => {
    assert.include(
      refusal({ properties: { a: { $id: "/x", type: "string" }, b: { $id: "/x", type: "number" } } }),
      "$id"
    )
  })
  it("$dynamicRef in a schema of several resources", () => {
    assert.include(
      refusal({ $dynamicAnchor: "n", properties: { a: { $id: "/inner", $dynamicRef: "#n" } } }),
      "$dynamicRef"
    )
  })
  it("a value the engine cannot read is a failure, not a pass", () => {
    assert.include(validator({ type: "object" })(undefined), "could not be checked")
  })
})

describe("jsonSchemaValidator: no code generation from strings", () => {
  it.effect("compiles and validates in a context where eval and new Function throw (as under a strict CSP)", () =>
    Effect.promise(async () => {
      const here = path.dirname(fileURLToPath(import.meta.url))
      const built = await esbuild.build({
        stdin: {
          contents: `import { compile } from "./src/internal/jsonSchemaValidator.ts"
            const c = compile({ type: "object", properties: { n: { type: "number" }, s: { type: "string", pattern: "^a" } }, required: ["n"] })
            globalThis.result = c._tag === "Compiled" ? [c.validate({ n: 1, s: "ab" }), c.validate({ n: "x" })] : c.reason`,
          resolveDir: path.resolve(here, ".."),
          loader: "ts"
        },
        bundle: true,
        format: "iife",
        platform: "neutral",
        write: false,
        logLevel: "silent"
      })
      const context = vm.createContext({ URL }, { codeGeneration: { strings: false, wasm: false } })
      // the context forbids it: eval throws there
      assert.throws(() => vm.runInContext("eval('1')", context))
      vm.runInContext(built.outputFiles[0]!.text, context)
      const result = (context as { result?: unknown }).result
      assert.isArray(result, String(result))
      const [ok, bad] = result as [unknown, unknown]
      assert.isUndefined(ok)
      assert.include(String(bad), "/n")
    }))
})

/** A tool whose output schema is `outputSchema`, answering `structuredContent`. */
const toolWith = (outputSchema: { readonly type: "object"; readonly [key: string]: unknown }, structuredContent: { readonly [key: string]: unknown }): McpServer.Tool => ({
  _tag: "Tool",
  name: "shaped",
  definition: { name: "shaped", inputSchema: { type: "object" }, outputSchema },
  call: () => Effect.succeed({ content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent })
})

describe("McpClient: output schemas the validator refuses", () => {
  it.live("a call of a tool whose output schema cannot be compiled fails with InvalidResult saying why", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(toolWith({ type: "object", properties: { n: { $ref: "#/$defs/gone" } } }, { n: 1 })))
      const { client, pair } = yield* connect(server)
      yield* client.listToolsAll()
      const error = yield* Effect.flip(client.callTool("shaped"))
      assert.instanceOf(error, ProtocolError)
      assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
      assert.include(error.message, "shaped")
      assert.include(error.message, "cannot be used to check")
      assert.include(error.message, "#/$defs/gone")
      // turned off, the result is taken unchecked
      const lax = yield* connect(server, { client: { validateStructuredContent: false } })
      yield* lax.client.listToolsAll()
      assert.deepStrictEqual((yield* lax.client.callTool("shaped")).structuredContent, { n: 1 })
      assertWireValid(pair.wire)
    }))

  it.live("a mismatch says where: the instance location and the keyword's complaint", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(
        McpServer.register(toolWith({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }, { n: "one" }))
      )
      const { client } = yield* connect(server)
      yield* client.listToolsAll()
      const error = yield* Effect.flip(client.callTool("shaped"))
      assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
      assert.include(error.message, "does not match its output schema")
      assert.include(error.message, "#/n")
    }))

  it.live("a format the value does not keep to passes (format is an annotation)", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(
        McpServer.register(toolWith({ type: "object", properties: { at: { type: "string", format: "date-time" } } }, { at: "soon" }))
      )
      const { client } = yield* connect(server)
      yield* client.listToolsAll()
      assert.deepStrictEqual((yield* client.callTool("shaped")).structuredContent, { at: "soon" })
    }))
})
