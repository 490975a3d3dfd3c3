/**
 * The JSON Schemas we publish are self-contained and typed: `$ref`s to
 * `$defs` inlined (but for recursive ones), `allOf`s folded, unions typed.
 * Checked twice: against exact expected shapes, and against the schema
 * `JSONSchema.make` produced, with a real 2020-12 validator, on sample values
 * (the transformation must accept and reject exactly what the original does).
 */
import { assert, describe, it } from "@effect/vitest"
import Ajv2020Module from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as JSONSchema from "effect/JsonSchema"
import * as Schema from "effect/Schema"
import * as JsonSchema from "../src/internal/jsonSchema.js"

const ajv = new Ajv2020Module.default({ strict: false, allErrors: true })
addFormatsModule.default(ajv)

/** `JSONSchema.make` as it is, without the `$schema` (ajv's 2020 class knows the dialect). */
const original = (schema: Schema.Schema.Any) => {
  const { $schema: _schema, ...json } = JSONSchema.make(schema, { target: "jsonSchema2020-12" }) as unknown as { [key: string]: unknown }
  return json
}

/** The published schema accepts and rejects exactly what the original does, on every sample. */
const assertSameVerdicts = (schema: Schema.Schema.Any, samples: ReadonlyArray<unknown>) => {
  const before = ajv.compile(original(schema))
  const after = ajv.compile(JsonSchema.make(schema))
  for (const sample of samples) {
    assert.strictEqual(after(sample), before(sample), `verdicts differ on ${JSON.stringify(sample)}`)
  }
}

const refsIn = (json: unknown): Array<string> => JSON.stringify(json).match(/"\$ref":"[^"]*"/g) ?? []

describe("JsonSchema.selfContained", () => {
  it("inlines a $ref with siblings: the siblings' annotations win, the bounds of both hold", () => {
    const out = JsonSchema.selfContained({
      $defs: { NonNegativeInt: { type: "integer", title: "int", description: "an integer", minimum: 0 } },
      type: "object",
      properties: {
        n: { $ref: "#/$defs/NonNegativeInt", title: "lessThan(5)", exclusiveMaximum: 5 },
        m: { $ref: "#/$defs/NonNegativeInt", minimum: -3 }
      }
    })
    assert.deepStrictEqual(out, {
      type: "object",
      properties: {
        n: { type: "integer", title: "lessThan(5)", description: "an integer", minimum: 0, exclusiveMaximum: 5 },
        // both schemas apply: the stricter lower bound
        m: { type: "integer", title: "int", description: "an integer", minimum: 0 }
      }
    })
  })

  it("folds an allOf into the schema that holds it, the outer annotations winning", () => {
    const out = JsonSchema.selfContained({
      $defs: { Int: { type: "integer", description: "an integer" } },
      type: "object",
      properties: { n: { allOf: [{ $ref: "#/$defs/Int", minimum: 1, maximum: 3 }], description: "count" } }
    })
    assert.deepStrictEqual(out.properties, { n: { type: "integer", description: "count", minimum: 1, maximum: 3 } })
  })

  it("keeps a conflicting assertion in allOf beside the merged type, and the tighter of two bounds", () => {
    const out = JsonSchema.selfContained({
      $defs: { Code: { type: "string", pattern: "^[A-Z]+$", maxLength: 10 } },
      $ref: "#/$defs/Code",
      pattern: "^A",
      maxLength: 4
    })
    assert.deepStrictEqual(out, { type: "string", pattern: "^[A-Z]+$", maxLength: 4, allOf: [{ pattern: "^A" }] })
  })

  it("does not merge object keywords that read their siblings: two different property sets stay an allOf", () => {
    const a = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false }
    const b = { type: "object", properties: { b: { type: "string" } }, additionalProperties: false }
    assert.deepStrictEqual(JsonSchema.selfContained({ allOf: [a, b] }), { type: "object", allOf: [a, b] })
  })

  it("integer within number is integer", () => {
    assert.deepStrictEqual(JsonSchema.selfContained({ type: "number", allOf: [{ type: "integer" }] }), { type: "integer" })
  })

  it("keeps recursive definitions (and only the reachable ones), inlines the rest, also inside them", () => {
    const out = JsonSchema.selfContained({
      $defs: {
        Int: { type: "integer" },
        Unused: { type: "string" },
        Tree: { type: "object", properties: { v: { $ref: "#/$defs/Int" }, kids: { type: "array", items: { $ref: "#/$defs/Tree" } } } },
        Forest: { type: "array", items: { $ref: "#/$defs/Tree" } }
      },
      type: "object",
      properties: { t: { $ref: "#/$defs/Tree" }, f: { $ref: "#/$defs/Forest" } }
    })
    assert.deepStrictEqual(out, {
      type: "object",
      properties: { t: { $ref: "#/$defs/Tree" }, f: { type: "array", items: { $ref: "#/$defs/Tree" } } },
      $defs: {
        Tree: { type: "object", properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/Tree" } } } }
      }
    })
  })

  it("keeps both definitions of a mutual recursion", () => {
    const defs = {
      A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
      B: { type: "object", properties: { a: { $ref: "#/$defs/A" } } }
    }
    assert.deepStrictEqual(JsonSchema.selfContained({ $defs: defs, type: "object", properties: { a: { $ref: "#/$defs/A" } } }), {
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      $defs: defs
    })
  })

  it("expands a root $ref once: to a plain definition entirely, to a recursive one keeping its $defs", () => {
    assert.deepStrictEqual(
      JsonSchema.selfContained({ $defs: { P: { type: "object", properties: { a: { type: "string" } } } }, $ref: "#/$defs/P" }),
      { type: "object", properties: { a: { type: "string" } } }
    )
    const list = { type: "object", properties: { next: { $ref: "#/$defs/List" } } }
    assert.deepStrictEqual(JsonSchema.selfContained({ $defs: { List: list }, $ref: "#/$defs/List" }), { ...list, $defs: { List: list } })
  })

  it("reads escaped definition names (JSON Pointer ~0 and ~1)", () => {
    assert.deepStrictEqual(
      JsonSchema.selfContained({ $defs: { "a/b~c": { type: "boolean" } }, type: "object", properties: { x: { $ref: "#/$defs/a~1b~0c" } } }),
      { type: "object", properties: { x: { type: "boolean" } } }
    )
  })

  it("leaves data alone: $ref-shaped values in enum, const, default and examples are not schemas", () => {
    const data = { $ref: "#/$defs/Int" }
    const out = JsonSchema.selfContained({
      $defs: { Int: { type: "integer" } },
      type: "object",
      properties: { d: { type: "object", enum: [data], const: data, default: data, examples: [data] } }
    })
    assert.deepStrictEqual(out, { type: "object", properties: { d: { type: "object", enum: [data], const: data, default: data, examples: [data] } } })
  })

  it("types a union whose branches all have a type; not one with an untyped branch, nor a root union", () => {
    const out = JsonSchema.selfContained({
      type: "object",
      properties: {
        nullable: { anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] },
        numeric: { anyOf: [{ type: "integer" }, { type: "number" }] },
        objects: { oneOf: [{ type: "object" }, { type: "object", required: ["a"] }] },
        untyped: { anyOf: [{ type: "string" }, { not: { type: "string" } }] }
      }
    })
    assert.deepStrictEqual(out.properties, {
      nullable: { type: ["integer", "null"], anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] },
      numeric: { type: "number", anyOf: [{ type: "integer" }, { type: "number" }] },
      objects: { type: "object", oneOf: [{ type: "object" }, { type: "object", required: ["a"] }] },
      untyped: { anyOf: [{ type: "string" }, { not: { type: "string" } }] }
    })
    const root = { anyOf: [{ type: "object" }, { type: "object", required: ["a"] }] }
    assert.deepStrictEqual(JsonSchema.selfContained(root), root)
    // nor a root that is a reference to one: a tool wraps a union output as `{ result }`, which needs no root type
    assert.deepStrictEqual(JsonSchema.selfContained({ $defs: { U: root }, $ref: "#/$defs/U" }), root)
  })
})

describe("JsonSchema.make (from effect/Schema)", () => {
  const Int = { type: "integer", description: "an integer", title: "int" }
  const NonEmptyString = { type: "string", description: "a non empty string", title: "nonEmptyString", minLength: 1 }

  it("Schema.Int with bounds is an integer with minimum and maximum; NonEmptyString a string with minLength", () => {
    const schema = Schema.Struct({
      n: Schema.Int.pipe(Schema.between(1, 1000)),
      steps: Schema.Int.pipe(Schema.between(1, 10)).annotate({ description: "how many" }),
      name: Schema.NonEmptyString
    })
    assert.deepStrictEqual(JsonSchema.make(schema), {
      type: "object",
      required: ["n", "steps", "name"],
      properties: {
        n: { type: "integer", description: "a number between 1 and 1000", title: "between(1, 1000)", minimum: 1, maximum: 1000 },
        steps: { type: "integer", description: "how many", title: "between(1, 10)", minimum: 1, maximum: 10 },
        name: NonEmptyString
      },
      additionalProperties: false
    })
    assertSameVerdicts(schema, [
      { n: 3, steps: 2, name: "a" },
      { n: "3", steps: 2, name: "a" },
      { n: 3.5, steps: 2, name: "a" },
      { n: 0, steps: 2, name: "a" },
      { n: 1001, steps: 2, name: "a" },
      { n: 3, steps: 11, name: "a" },
      { n: 3, steps: 2, name: "" },
      { n: 3, steps: 2 }
    ])
  })

  it("optional fields (with a description on the optional), nullable, literals, branded and refined-again numbers", () => {
    const schema = Schema.Struct({
      a: Schema.optional(Schema.Int.pipe(Schema.between(1, 3))).annotate({ description: "optional count" }),
      b: Schema.optional(Schema.NonEmptyString),
      c: Schema.NullOr(Schema.Int),
      mode: Schema.Literals(["fast", "slow"]),
      one: Schema.Literal(1),
      id: Schema.Int.pipe(Schema.brand("UserId")),
      small: Schema.NonNegativeInt.pipe(Schema.lessThan(5)),
      big: Schema.NonNegativeInt.pipe(Schema.greaterThanOrEqualTo(5))
    })
    assert.deepStrictEqual(JsonSchema.make(schema), {
      type: "object",
      required: ["c", "mode", "one", "id", "small", "big"],
      properties: {
        a: { type: "integer", description: "optional count", title: "between(1, 3)", minimum: 1, maximum: 3 },
        b: NonEmptyString,
        c: { type: ["integer", "null"], anyOf: [Int, { type: "null" }] },
        mode: { type: "string", enum: ["fast", "slow"] },
        one: { type: "number", enum: [1] },
        id: Int,
        small: { type: "integer", description: "a number less than 5", title: "lessThan(5)", minimum: 0, exclusiveMaximum: 5 },
        big: { type: "integer", description: "a number greater than or equal to 5", title: "greaterThanOrEqualTo(5)", minimum: 5 }
      },
      additionalProperties: false
    })
    const valid = { c: null, mode: "fast", one: 1, id: 7, small: 4, big: 5 }
    assertSameVerdicts(schema, [
      valid,
      { ...valid, a: 2, b: "y", c: 3 },
      { ...valid, a: 4 },
      { ...valid, b: "" },
      { ...valid, c: "3" },
      { ...valid, mode: "medium" },
      { ...valid, small: 5 },
      { ...valid, small: -1 },
      { ...valid, big: 4 },
      { ...valid, extra: true }
    ])
  })

  it("a field with a default is optional on the wire", () => {
    const schema = Schema.Struct({ n: Schema.optionalWith(Schema.Int, { default: () => 1 }) })
    assert.deepStrictEqual(JsonSchema.make(schema), {
      type: "object",
      required: [],
      properties: { n: Int },
      additionalProperties: false
    })
    assertSameVerdicts(schema, [{}, { n: 2 }, { n: 2.5 }, { n: "2" }])
  })

  it("nested structs, classes used twice, arrays, non-empty arrays, tuples, records and tagged unions carry no $ref", () => {
    class Point extends Schema.Class<Point>("Point")({ x: Schema.Int, y: Schema.Int }) {}
    const schema = Schema.Struct({
      inner: Schema.Struct({ x: Schema.Int, label: Schema.optional(Schema.NonEmptyString) }),
      from: Point,
      to: Point,
      tags: Schema.Array(Schema.NonEmptyString),
      some: Schema.NonEmptyArray(Schema.Int),
      pair: Schema.Tuple([Schema.Int, Schema.String]),
      counts: Schema.Record(Schema.String, Schema.Int),
      shape: Schema.Union([
        Schema.TaggedStruct("circle", { r: Schema.Positive }),
        Schema.TaggedStruct("square", { side: Schema.Int })
      ])
    })
    const json = JsonSchema.make(schema)
    assert.deepStrictEqual(refsIn(json), [])
    assert.isUndefined(json.$defs)
    const properties = json.properties as { [key: string]: unknown }
    const point = { type: "object", required: ["x", "y"], properties: { x: Int, y: Int }, additionalProperties: false }
    assert.deepStrictEqual(properties, {
      inner: { type: "object", required: ["x"], properties: { x: Int, label: NonEmptyString }, additionalProperties: false },
      from: point,
      to: point,
      tags: { type: "array", items: NonEmptyString },
      some: { type: "array", minItems: 1, items: Int },
      pair: { type: "array", minItems: 2, prefixItems: [Int, { type: "string" }], items: false },
      counts: { type: "object", required: [], properties: {}, additionalProperties: Int },
      shape: {
        type: "object",
        anyOf: [
          {
            type: "object",
            required: ["_tag", "r"],
            properties: {
              _tag: { type: "string", enum: ["circle"] },
              r: { type: "number", description: "a positive number", title: "positive", exclusiveMinimum: 0 }
            },
            additionalProperties: false
          },
          {
            type: "object",
            required: ["_tag", "side"],
            properties: { _tag: { type: "string", enum: ["square"] }, side: Int },
            additionalProperties: false
          }
        ]
      }
    })
    const valid = {
      inner: { x: 1 },
      from: { x: 1, y: 2 },
      to: { x: 3, y: 4 },
      tags: ["a"],
      some: [1],
      pair: [1, "a"],
      counts: { a: 1 },
      shape: { _tag: "circle", r: 1.5 }
    }
    assertSameVerdicts(schema, [
      valid,
      { ...valid, inner: { x: 1, label: "" } },
      { ...valid, from: { x: 1.5, y: 2 } },
      { ...valid, tags: [""] },
      { ...valid, some: [] },
      { ...valid, pair: [1, "a", 2] },
      { ...valid, counts: { a: "1" } },
      { ...valid, shape: { _tag: "square", side: 2.5 } },
      { ...valid, shape: { _tag: "circle", r: 0 } }
    ])
  })

  it("a recursive schema keeps its $defs and stays correct; a root class is inlined", () => {
    interface Tree {
      readonly value: number
      readonly children: ReadonlyArray<Tree>
    }
    const Tree: Schema.Schema<Tree> = Schema.Struct({
      value: Schema.Int,
      children: Schema.Array(Schema.suspend((): Schema.Schema<Tree> => Tree))
    }).annotate({ identifier: "Tree" })
    const tree = {
      type: "object",
      required: ["value", "children"],
      properties: { value: Int, children: { type: "array", items: { $ref: "#/$defs/Tree" } } },
      additionalProperties: false
    }
    const schema = Schema.Struct({ root: Tree, size: Schema.Int })
    assert.deepStrictEqual(JsonSchema.make(schema), {
      type: "object",
      required: ["root", "size"],
      properties: { root: { $ref: "#/$defs/Tree" }, size: Int },
      additionalProperties: false,
      $defs: { Tree: tree }
    })
    assert.deepStrictEqual(JsonSchema.make(Tree), { ...tree, $defs: { Tree: tree } })
    const leaf = { value: 1, children: [] }
    assertSameVerdicts(schema, [
      { root: { value: 1, children: [leaf, { value: 2, children: [leaf] }] }, size: 3 },
      { root: { value: 1, children: [{ value: 2.5, children: [] }] }, size: 3 },
      { root: { value: 1, children: [{ value: 2 }] }, size: 3 }
    ])
    assertSameVerdicts(Tree, [leaf, { value: 1, children: [{ value: "2", children: [] }] }])
    class Query extends Schema.Class<Query>("Query")({ q: Schema.NonEmptyString }) {}
    assert.deepStrictEqual(JsonSchema.make(Query), {
      type: "object",
      required: ["q"],
      properties: { q: NonEmptyString },
      additionalProperties: false
    })
  })

  it("publishes no $schema and no $id", () => {
    const json = JsonSchema.make(Schema.Struct({ a: Schema.String }).annotate({ identifier: "A" }))
    assert.isUndefined(json.$schema)
    assert.isUndefined(json.$id)
  })
})
