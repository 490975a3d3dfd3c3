import { describe, expect, it } from "@effect/vitest"
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Result from "effect/Result"
import * as SchemaParser from "effect/SchemaParser"
import { decodesToItself, guard, validator } from "../src/internal/validate.js"

/** The schemas `validator` checks wire values with: each method's params and result, both eras. */
const wireSchemas = (): Array<[string, Schema.Codec<unknown, unknown>]> => {
  const tables = { McpSchema: [McpSchema.ClientRequests, McpSchema.ServerRequests], McpSchema2026: [McpSchema2026.ClientRequests, McpSchema2026.InputRequestMethods] }
  const out: Array<[string, Schema.Codec<unknown, unknown>]> = []
  for (const [module, list] of Object.entries(tables)) {
    for (const table of list) {
      for (const [method, entry] of Object.entries(table as Record<string, { params: unknown; result: unknown }>)) {
        out.push([`${module} ${method} params`, entry.params as Schema.Codec<unknown, unknown>])
        out.push([`${module} ${method} result`, entry.result as Schema.Codec<unknown, unknown>])
      }
    }
  }
  return out
}

/** Values that are nearly right: one node of a valid value removed, replaced or joined by another. */
const mutations = (value: unknown, seed: number): Array<unknown> => {
  let state = seed
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state % n
  }
  const replacements = [undefined, null, 0, -1.5, Number.NaN, "", "text", true, false, [], {}, [1], { type: "text" }]
  const mutate = (u: unknown, depth: number): unknown => {
    if (Array.isArray(u)) {
      if (u.length === 0 || next(4) === 0) return next(2) === 0 ? [...u, replacements[next(replacements.length)]] : u.slice(1)
      const i = next(u.length)
      return u.map((x, j) => (j === i ? mutate(x, depth + 1) : x))
    }
    if (typeof u === "object" && u !== null) {
      const keys = Object.keys(u)
      const copy: Record<string, unknown> = { ...u }
      const what = next(5)
      if (keys.length === 0 || what === 0) copy[["extra", "type", "_meta", "content", "name"][next(5)]!] = replacements[next(replacements.length)]
      else if (what === 1) delete copy[keys[next(keys.length)]!]
      else {
        const key = keys[next(keys.length)]!
        copy[key] = depth > 6 || next(3) === 0 ? replacements[next(replacements.length)] : mutate(copy[key], depth + 1)
      }
      return copy
    }
    return replacements[next(replacements.length)]
  }
  return Array.from({ length: 6 }, () => mutate(value, 0))
}

/**
 * `guard` answers as `Schema.is` does, and `validator` (its fast path: a value `guard` accepts is its
 * own success) gives the plain decoder's verdict.
 */
const check = (name: string, schema: Schema.Codec<unknown, unknown>, runs: number) => {
  const fast = guard(schema)
  const is = Schema.is(schema)
  const validate = validator(schema)
  const decode = SchemaParser.decodeUnknownResult(schema, { errors: "all" })
  let arbitrary: Arbitrary.Arbitrary<unknown>
  try {
    arbitrary = Arbitrary.schema(schema)
  } catch {
    return 0
  }
  const samples = Effect.runSync(Arbitrary.sampleEffect(arbitrary, { count: runs, seed: name.length * 7919 }))
  let compared = 0
  samples.forEach((value, i) => {
    for (const u of [value, ...mutations(value, i + 1)]) {
      const expected = is(u)
      if (fast(u) !== expected) {
        throw new Error(`${name}: guard says ${!expected}, Schema.is says ${expected}, for ${JSON.stringify(u)}`)
      }
      const fastResult = validate(u)
      const slowResult = decode(u)
      if (Result.isSuccess(fastResult) !== Result.isSuccess(slowResult)) {
        throw new Error(`${name}: validator and the decoder disagree on ${JSON.stringify(u)}`)
      }
      // a value the guard accepts is its own success (no copy: excess keys stay, as they did on Effect 3)
      if (expected && Result.isSuccess(fastResult) && fastResult.success !== u) {
        throw new Error(`${name}: validator copied a valid value ${JSON.stringify(u)}`)
      }
      compared++
    }
  })
  return compared
}

describe("validate.guard", () => {
  it("answers as Schema.is does for every request's params and result, on valid and nearly valid values", () => {
    let compared = 0
    let schemas = 0
    for (const [name, schema] of wireSchemas()) {
      // the hottest get more values (generating them is what costs)
      const n = check(name, schema, name.includes("tools/call") || name.includes("initialize") ? 25 : 3)
      if (n > 0) schemas++
      compared += n
    }
    // every one of them has an arbitrary: the comparison covers them all
    expect(schemas).toBe(wireSchemas().length)
    expect(compared).toBeGreaterThan(1_000)
  }, 60_000)

  it("keeps Schema.is's edge cases", () => {
    const cases: Array<[Schema.Codec<unknown, unknown>, ReadonlyArray<unknown>]> = [
      // a struct without fields (Effect 3: anything but null and undefined)
      [Schema.Struct({}), [0, "", [], {}, null, undefined]],
      // exact optional: absent is fine, present and undefined is not
      [Schema.Struct({ a: Schema.optionalKey(Schema.String) }), [{}, { a: "x" }, { a: undefined }, []]],
      [Schema.Struct({ a: Schema.optional(Schema.String) }), [{}, { a: undefined }, { a: 1 }]],
      // required and unknown: the key must be there
      [Schema.Struct({ a: Schema.Unknown }), [{}, { a: undefined }, Object.create({ a: 1 })]],
      [Schema.Record(Schema.String, Schema.Number), [{}, { a: 1 }, { a: "1" }, [], null]],
      [
        Schema.StructWithRest(Schema.Struct({ a: Schema.Number }), [Schema.Record(Schema.String, Schema.Number)]),
        [{ a: 1, b: 2 }, { a: 1, b: "2" }]
      ],
      [Schema.Array(Schema.Literals(["a", "b"])), [[], ["a", "b"], ["c"], {}, "a"]],
      [Schema.Union([Schema.Struct({ type: Schema.Literal("x") }), Schema.Null]), [null, { type: "x" }, { type: "y" }, undefined]],
      // a filter, a tuple
      [Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 })), [0, 0.5, 2, "0"]],
      [Schema.Tuple([Schema.String, Schema.Number]), [["a", 1], ["a"], ["a", 1, 2]]]
    ]
    for (const [schema, inputs] of cases) {
      const fast = guard(schema)
      const is = Schema.is(schema)
      for (const u of inputs) expect([String(schema), u, fast(u)]).toEqual([String(schema), u, is(u)])
    }
  })
})

describe("validate.decodesToItself", () => {
  it("holds only where decoding (excess properties ignored) gives an equal copy, keys in the same order", () => {
    const plain = Object.create(null) as Record<string, unknown>
    plain.text = "x"
    const cases: Array<[Schema.Codec<unknown, unknown>, ReadonlyArray<unknown>]> = [
      [Schema.Struct({ text: Schema.String }), [{ text: "x" }, { text: 1 }, {}, { text: "x", extra: 1 }, plain, [], null, "x"]],
      [
        Schema.Struct({ a: Schema.String, b: Schema.optional(Schema.Number), c: Schema.Literals(["p", "q"]) }),
        [{ a: "x", c: "p" }, { a: "x", b: 1, c: "q" }, { c: "p", a: "x" }, { a: "x", b: undefined, c: "p" }, { a: "x", c: "r" }]
      ],
      [Schema.Struct({ a: Schema.Unknown }), [{ a: { deep: [1] } }, {}, { a: undefined }]],
      [Schema.Struct({}), [{}, { a: 1 }, 0]]
    ]
    for (const [schema, inputs] of cases) {
      const same = decodesToItself(schema)
      expect(same).toBeDefined()
      const decode = SchemaParser.decodeUnknownResult(schema, { errors: "all", onExcessProperty: "ignore" })
      for (const u of inputs) {
        if (!same!(u)) continue
        const decoded = decode(u)
        expect(Result.isSuccess(decoded)).toBe(true)
        const right = Result.getOrThrow(decoded)
        expect(right).toEqual(u)
        expect(Object.keys(right as object)).toEqual(Object.keys(u as object))
      }
    }
    // what decoding does change is decoded
    expect(decodesToItself(Schema.Struct({ text: Schema.String }))!({ text: "x", extra: 1 })).toBe(false)
    expect(decodesToItself(Schema.Struct({ a: Schema.String, c: Schema.String }))!({ c: "p", a: "x" })).toBe(false)
  })

  it("is undefined for schemas that transform, filter or nest", () => {
    for (
      const schema of [
        Schema.Struct({ n: Schema.NumberFromString }),
        Schema.Struct({ text: Schema.NonEmptyString }),
        Schema.Struct({ n: Schema.Number.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(1))) }),
        Schema.Struct({ inner: Schema.Struct({ a: Schema.String }) }),
        Schema.Struct({ list: Schema.Array(Schema.String) }),
        Schema.Record(Schema.String, Schema.String),
        Schema.String
      ] as ReadonlyArray<Schema.Codec<unknown, unknown>>
    ) expect(decodesToItself(schema)).toBeUndefined()
  })
})
