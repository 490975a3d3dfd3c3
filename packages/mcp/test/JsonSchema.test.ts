/**
 * The JSON Schemas we publish are self-contained and typed: `$ref`s to
 * `$defs` inlined (but for recursive ones), `allOf`s folded, unions typed.
 * Checked twice: against exact expected shapes, and against the schema
 * Effect's compiler produced (`SchemaRepresentation`), with a real 2020-12
 * validator, on sample values (the transformation must accept and reject
 * exactly what the original does).
 *
 * Effect 4: the expected shapes are Effect 3's published ones but for the
 * titles and descriptions Effect 3's built-in schemas carried as annotations
 * (`Schema.Int`: `title: "int"`, `description: "an integer"`;
 * `between(1, 10)`: `title: "between(1, 10)"`, ...): Effect 4's have none;
 * and `unknown`, which Effect 3 published as `{ $id: "/schemas/unknown",
 * title: "unknown" }`, is `{}`: a published schema carries only what its
 * author wrote.
 */
import { assert, describe, it } from "@effect/vitest"
import Ajv2020Module from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaRepresentation from "effect/SchemaRepresentation"
import * as JsonSchema from "../src/internal/jsonSchema.js"

const ajv = new Ajv2020Module.default({ strict: false, allErrors: true })
addFormatsModule.default(ajv)

/** Effect's JSON Schema of the schema as it is (structs closed, as published), definitions as `$defs`. */
const original = (schema: Schema.Top) => {
  const document = SchemaRepresentation.toJsonSchemaDocument(SchemaRepresentation.toRepresentation(schema.ast), {
    onExcessProperty: "error"
  })
  const json = document.schema as { [key: string]: unknown }
  return Object.keys(document.definitions).length > 0 ? { ...json, $defs: document.definitions } : json
}

/** The published schema accepts and rejects exactly what the original does, on every sample. */
const assertSameVerdicts = (schema: Schema.Top, samples: ReadonlyArray<unknown>) => {
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
  /** Effect 3's `Schema.NonNegativeInt` (Effect 4 has none). */
  const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
  const Int = { type: "integer" }
  const NonEmptyString = { type: "string", minLength: 1 }

  it("Schema.Int with bounds is an integer with minimum and maximum; NonEmptyString a string with minLength", () => {
    const schema = Schema.Struct({
      n: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })),
      steps: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10 })).annotate({ description: "how many" }),
      name: Schema.NonEmptyString
    })
    assert.deepStrictEqual(JsonSchema.make(schema), {
      type: "object",
      required: ["n", "steps", "name"],
      properties: {
        n: { type: "integer", minimum: 1, maximum: 1000 },
        steps: { type: "integer", description: "how many", minimum: 1, maximum: 10 },
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
      a: Schema.optional(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3 }))).annotate({
        description: "optional count"
      }),
      b: Schema.optional(Schema.NonEmptyString),
      c: Schema.NullOr(Schema.Int),
      mode: Schema.Literals(["fast", "slow"]),
      one: Schema.Literal(1),
      id: Schema.Int.pipe(Schema.brand("UserId")),
      small: NonNegativeInt.check(Schema.isLessThan(5)),
      big: NonNegativeInt.check(Schema.isGreaterThanOrEqualTo(5))
    })
    assert.deepStrictEqual(JsonSchema.make(schema), {
      type: "object",
      required: ["c", "mode", "one", "id", "small", "big"],
      properties: {
        a: { type: "integer", description: "optional count", minimum: 1, maximum: 3 },
        b: NonEmptyString,
        c: { type: ["integer", "null"], anyOf: [Int, { type: "null" }] },
        mode: { type: "string", enum: ["fast", "slow"] },
        one: { type: "number", enum: [1] },
        id: Int,
        small: { type: "integer", minimum: 0, exclusiveMaximum: 5 },
        big: { type: "integer", minimum: 5 }
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
    const schema = Schema.Struct({ n: Schema.Int.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(1))) })
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
        Schema.TaggedStruct("circle", { r: Schema.Number.check(Schema.isGreaterThan(0)) }),
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
              r: { type: "number", exclusiveMinimum: 0 }
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
    const Tree: Schema.Codec<Tree> = Schema.Struct({
      value: Schema.Int,
      children: Schema.Array(Schema.suspend((): Schema.Codec<Tree> => Tree))
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

  it("publishes, byte for byte, what Effect 3 published for schemas without built-in annotations, but for unknown", () => {
    // the right-hand sides are Effect 3's output (JSON.stringify of the v3 `make`) for the same schemas written in v3,
    // but for `unknown`: Effect 3's `{}` is `{}` (a title nobody wrote)
    const cases: ReadonlyArray<readonly [Schema.Top, string]> = [
      [
        Schema.Struct({
          text: Schema.String,
          times: Schema.optional(Schema.Number),
          mode: Schema.Literals(["a", "b"]),
          list: Schema.Array(Schema.String),
          rec: Schema.Record(Schema.String, Schema.Boolean),
          pair: Schema.Tuple([Schema.String, Schema.Number]),
          ne: Schema.NonEmptyArray(Schema.String),
          n: Schema.NullOr(Schema.String),
          u: Schema.Union([Schema.Struct({ a: Schema.String }), Schema.Struct({ b: Schema.Number })])
        }).annotate({ description: "args" }),
        `{"type":"object","required":["text","mode","list","rec","pair","ne","n","u"],"properties":{"text":{"type":"string"},"times":{"type":"number"},"mode":{"type":"string","enum":["a","b"]},"list":{"type":"array","items":{"type":"string"}},"rec":{"type":"object","required":[],"properties":{},"additionalProperties":{"type":"boolean"}},"pair":{"type":"array","minItems":2,"prefixItems":[{"type":"string"},{"type":"number"}],"items":false},"ne":{"type":"array","minItems":1,"items":{"type":"string"}},"n":{"type":["string","null"],"anyOf":[{"type":"string"},{"type":"null"}]},"u":{"type":"object","anyOf":[{"type":"object","required":["a"],"properties":{"a":{"type":"string"}},"additionalProperties":false},{"type":"object","required":["b"],"properties":{"b":{"type":"number"}},"additionalProperties":false}]}},"additionalProperties":false,"description":"args"}`
      ],
      [
        Schema.Struct({
          q: Schema.String.annotate({ description: "query", title: "Q" }),
          o: Schema.optional(Schema.String).annotate({ description: "opt" })
        }),
        `{"type":"object","required":["q"],"properties":{"q":{"type":"string","description":"query","title":"Q"},"o":{"type":"string","description":"opt"}},"additionalProperties":false}`
      ],
      [
        Schema.Struct({
          s: Schema.String.annotate({ examples: ["a"], default: "x", description: "d" }),
          b: Schema.Boolean,
          u: Schema.Unknown,
          j: Schema.Record(Schema.String, Schema.Unknown),
          arr: Schema.Array(Schema.Struct({ k: Schema.optional(Schema.Literal("x")) })),
          mix: Schema.Literals(["a", 1, true]),
          nested: Schema.optional(Schema.Struct({ deep: Schema.NullOr(Schema.Number) }))
        }),
        `{"type":"object","required":["s","b","u","j","arr","mix"],"properties":{"s":{"type":"string","description":"d","default":"x","examples":["a"]},"b":{"type":"boolean"},"u":{},"j":{"type":"object","required":[],"properties":{},"additionalProperties":{}},"arr":{"type":"array","items":{"type":"object","required":[],"properties":{"k":{"type":"string","enum":["x"]}},"additionalProperties":false}},"mix":{"type":["string","number","boolean"],"anyOf":[{"type":"string","enum":["a"]},{"type":"number","enum":[1]},{"type":"boolean","enum":[true]}]},"nested":{"type":"object","required":["deep"],"properties":{"deep":{"type":["number","null"],"anyOf":[{"type":"number"},{"type":"null"}]}},"additionalProperties":false}},"additionalProperties":false}`
      ],
      [
        Schema.Union([Schema.Struct({ a: Schema.String }), Schema.String]),
        `{"anyOf":[{"type":"object","required":["a"],"properties":{"a":{"type":"string"}},"additionalProperties":false},{"type":"string"}]}`
      ],
      [
        Schema.Struct({
          e: Schema.Literal("only"),
          ul: Schema.Union([Schema.Literal("a"), Schema.Literal("b"), Schema.Null])
        }),
        `{"type":"object","required":["e","ul"],"properties":{"e":{"type":"string","enum":["only"]},"ul":{"type":["string","null"],"anyOf":[{"type":"string","enum":["a","b"]},{"type":"null"}]}},"additionalProperties":false}`
      ],
      [
        Schema.StructWithRest(Schema.Struct({ a: Schema.String }), [Schema.Record(Schema.String, Schema.Unknown)]),
        `{"type":"object","required":["a"],"properties":{"a":{"type":"string"}},"additionalProperties":{}}`
      ],
      [
        Schema.StructWithRest(Schema.Struct({ a: Schema.String }), [Schema.Record(Schema.String, Schema.String)]),
        `{"type":"object","required":["a"],"properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}`
      ],
      [
        Schema.Struct({
          n: Schema.NullOr(Schema.Unknown),
          d: Schema.Unknown.annotate({ description: "any json" }),
          arr: Schema.Array(Schema.Unknown)
        }),
        `{"type":"object","required":["n","d","arr"],"properties":{"n":{},"d":{"description":"any json"},"arr":{"type":"array","items":{}}},"additionalProperties":false}`
      ]
    ]
    for (const [schema, v3] of cases) assert.strictEqual(JSON.stringify(JsonSchema.make(schema)), v3)
  })

  /**
   * One check at a time: the constraint published is Effect 3's (computed by running the Effect 3
   * tree's `JsonSchema.make` on `Schema.Struct({ x })` with the v3 filter of the same meaning), pinned
   * here literally. Effect 3 also published each built-in filter's title and description (e.g.
   * `title: "minLength(2)", description: "a string at least 2 character(s) long"`); Effect 4's checks
   * carry none, so those two keys are absent (see the next test). The strings a check's own regex
   * accepts / rejects are run through a 2020-12 validator against the published schema too.
   */
  const checks: ReadonlyArray<
    readonly [name: string, schema: Schema.Top, v3: { readonly [key: string]: unknown }, accepts: ReadonlyArray<unknown>, rejects: ReadonlyArray<unknown>]
  > = [
    ["isMinLength(2)", Schema.String.check(Schema.isMinLength(2)), { type: "string", minLength: 2 }, ["ab"], ["a"]],
    ["isMinLength(1)", Schema.String.check(Schema.isMinLength(1)), { type: "string", minLength: 1 }, ["a"], [""]],
    ["isNonEmpty", Schema.String.check(Schema.isNonEmpty()), { type: "string", minLength: 1 }, ["a"], [""]],
    ["isMaxLength(5)", Schema.String.check(Schema.isMaxLength(5)), { type: "string", maxLength: 5 }, ["abcde"], ["abcdef"]],
    ["isBetweenLength(3, 3)", Schema.String.check(Schema.isBetweenLength(3, 3)), { type: "string", minLength: 3, maxLength: 3 }, ["abc"], ["ab", "abcd"]],
    ["isBetweenLength(2, 4)", Schema.String.check(Schema.isBetweenLength(2, 4)), { type: "string", minLength: 2, maxLength: 4 }, ["ab", "abcd"], ["a", "abcde"]],
    [
      "isMinLength(2) + isMaxLength(5)",
      Schema.String.check(Schema.isMinLength(2), Schema.isMaxLength(5)),
      { type: "string", minLength: 2, maxLength: 5 },
      ["ab"],
      ["a", "abcdef"]
    ],
    ["isPattern(/^a+$/)", Schema.String.check(Schema.isPattern(/^a+$/)), { type: "string", pattern: "^a+$" }, ["aa"], ["ab"]],
    ["isPattern(/^a+$/u)", Schema.String.check(Schema.isPattern(/^a+$/u)), { type: "string", pattern: "^a+$" }, ["aa"], ["ab"]],
    ["isStartingWith", Schema.String.check(Schema.isStartingWith("ab")), { type: "string", pattern: "^ab" }, ["abc"], ["cab"]],
    ["isEndingWith", Schema.String.check(Schema.isEndingWith("ab")), { type: "string", pattern: "^.*ab$" }, ["cab"], ["abc"]],
    ["isIncluding", Schema.String.check(Schema.isIncluding("ab")), { type: "string", pattern: ".*ab.*" }, ["cabc"], ["acb"]],
    ["isTrimmed", Schema.String.check(Schema.isTrimmed()), { type: "string", pattern: "^\\S[\\s\\S]*\\S$|^\\S$|^$" }, ["a b"], [" a"]],
    ["isLowercased", Schema.String.check(Schema.isLowercased()), { type: "string", pattern: "^[^A-Z]*$" }, ["ab"], ["aB"]],
    ["isUppercased", Schema.String.check(Schema.isUppercased()), { type: "string", pattern: "^[^a-z]*$" }, ["AB"], ["Ab"]],
    ["isBetween", Schema.Number.check(Schema.isBetween({ minimum: 1, maximum: 10 })), { type: "number", minimum: 1, maximum: 10 }, [1, 10], [0, 11]],
    ["isGreaterThan", Schema.Number.check(Schema.isGreaterThan(0)), { type: "number", exclusiveMinimum: 0 }, [0.5], [0]],
    ["isGreaterThanOrEqualTo", Schema.Number.check(Schema.isGreaterThanOrEqualTo(0)), { type: "number", minimum: 0 }, [0], [-1]],
    ["isLessThan", Schema.Number.check(Schema.isLessThan(5)), { type: "number", exclusiveMaximum: 5 }, [4.5], [5]],
    ["isLessThanOrEqualTo", Schema.Number.check(Schema.isLessThanOrEqualTo(5)), { type: "number", maximum: 5 }, [5], [6]],
    ["isInt", Schema.Number.check(Schema.isInt()), { type: "integer" }, [1], [1.5]],
    ["Int + isBetween", Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10 })), { type: "integer", minimum: 1, maximum: 10 }, [1], [1.5, 11]],
    ["isMultipleOf", Schema.Number.check(Schema.isMultipleOf(3)), { type: "number", multipleOf: 3 }, [6], [7]],
    ["isFinite", Schema.Number.check(Schema.isFinite()), { type: "number" }, [1], ["1"]],
    ["array isMinLength (minItems)", Schema.Array(Schema.String).check(Schema.isMinLength(2)), { type: "array", items: { type: "string" }, minItems: 2 }, [["a", "b"]], [["a"]]],
    ["array isMaxLength (maxItems)", Schema.Array(Schema.String).check(Schema.isMaxLength(3)), { type: "array", items: { type: "string" }, maxItems: 3 }, [["a"]], [["a", "b", "c", "d"]]],
    [
      "array isBetweenLength (itemsCount)",
      Schema.Array(Schema.String).check(Schema.isBetweenLength(2, 2)),
      { type: "array", items: { type: "string" }, minItems: 2, maxItems: 2 },
      [["a", "b"]],
      [["a"], ["a", "b", "c"]]
    ]
  ]
  for (const [name, schema, v3, accepts, rejects] of checks) {
    it(`${name} publishes Effect 3's constraint`, () => {
      const json = JsonSchema.make(Schema.Struct({ x: schema }))
      assert.deepStrictEqual(json, { type: "object", required: ["x"], properties: { x: v3 }, additionalProperties: false })
      const validate = ajv.compile(json)
      for (const x of accepts) assert.isTrue(validate({ x }), `accepts ${JSON.stringify(x)}`)
      for (const x of rejects) assert.isFalse(validate({ x }), `rejects ${JSON.stringify(x)}`)
    })
  }

  it("isUUID publishes Effect 4's (stricter) UUID pattern, the one the check runs, with format uuid", () => {
    // Effect 3's Schema.UUID published `format: "uuid"` and its own looser pattern
    // `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$` (any version digit);
    // Effect 4's isUUID accepts versions 1-8, nil and max only, and publishes that pattern.
    const json = JsonSchema.make(Schema.Struct({ x: Schema.String.check(Schema.isUUID()) }))
    assert.deepStrictEqual(json.properties, {
      x: {
        type: "string",
        pattern:
          "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$",
        format: "uuid"
      }
    })
  })

  it("Effect 4's built-in checks publish no title or description (Effect 3's did); a user's still are", () => {
    // Effect 3: `Schema.Int.pipe(Schema.between(1, 10))` published
    // `{"type":"integer","description":"a number between 1 and 10","title":"between(1, 10)","minimum":1,"maximum":10}`
    // and `Schema.Int` alone `{"type":"integer","description":"an integer","title":"int"}`.
    assert.strictEqual(
      JSON.stringify(JsonSchema.make(Schema.Struct({ n: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10 })), i: Schema.Int }))),
      `{"type":"object","required":["n","i"],"properties":{"n":{"type":"integer","minimum":1,"maximum":10},"i":{"type":"integer"}},"additionalProperties":false}`
    )
    assert.strictEqual(
      JSON.stringify(
        JsonSchema.make(Schema.Struct({ s: Schema.String.check(Schema.isMinLength(2, { title: "T", description: "D" })) }))
      ),
      `{"type":"object","required":["s"],"properties":{"s":{"type":"string","minLength":2,"description":"D","title":"T"}},"additionalProperties":false}`
    )
  })

  it("publishes no $schema and no $id", () => {
    const json = JsonSchema.make(Schema.Struct({ a: Schema.String }).annotate({ identifier: "A" }))
    assert.isUndefined(json.$schema)
    assert.isUndefined(json.$id)
  })
})
