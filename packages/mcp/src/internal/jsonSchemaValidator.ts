/**
 * A JSON Schema validator that needs no `eval` (it runs under a strict
 * Content-Security-Policy, in a browser or a Worker): `@cfworker/json-schema`,
 * an interpreter of drafts 4, 7, 2019-09 and 2020-12 (about 8 KiB gzipped,
 * against Ajv's code generator at ~30), behind one function, `compile`.
 *
 * What `compile` adds to the engine, so that a schema is either checked as
 * the specification says or refused with a reason (never skipped):
 * - the dialect is the one `$schema` names (none: 2020-12, MCP's default);
 *   a dialect the engine does not know is refused;
 * - the schema is copied before the engine annotates it (the caller's value
 *   is never touched), `format` is left out (an annotation in 2020-12 and
 *   2019-09, not an assertion; Ajv without `ajv-formats` did the same);
 * - what the engine would only find while validating, or not at all, is found
 *   here: a `type` that names no JSON type, a `pattern` (or
 *   `patternProperties` key) that is not a valid regular expression, a `$ref`
 *   that resolves to nothing in the schema (nothing is fetched), two different
 *   schemas under one `$id` (identical ones, as Effect's `unknown` publishes,
 *   are one);
 * - `$dynamicRef` (which the engine does not know) is resolved as the `$ref` it
 *   is equivalent to in a schema with one resource (no `$id` below its root);
 *   in a schema of several resources it is refused.
 *
 * A validator returns `undefined` for a value that keeps to the schema, else
 * the first failure (`#/path: what`).
 */
import { type Schema, type SchemaDraft, Validator } from "@cfworker/json-schema"

/** `undefined` when `value` keeps to the schema, else the first failure, `#/path: what`. */
export type Validate = (value: unknown) => string | undefined

/** The validator, or why the schema cannot be used. */
export type Compiled =
  | { readonly _tag: "Compiled"; readonly validate: Validate }
  | { readonly _tag: "Invalid"; readonly reason: string }

const DIALECTS: ReadonlyArray<readonly [SchemaDraft, ReadonlyArray<string>]> = [
  ["2020-12", ["https://json-schema.org/draft/2020-12/schema"]],
  ["2019-09", ["https://json-schema.org/draft/2019-09/schema"]],
  ["7", ["http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema"]],
  ["4", ["http://json-schema.org/draft-04/schema"]]
]

const dialectOf = (schema: unknown): SchemaDraft | string => {
  const declared = typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined
  if (declared === undefined) return "2020-12"
  if (typeof declared !== "string") return "its $schema is not a string"
  const uri = declared.replace(/#$/, "")
  for (const [draft, uris] of DIALECTS) if (uris.includes(uri)) return draft
  return `it declares a dialect this validator does not know ($schema ${JSON.stringify(declared.slice(0, 200))})`
}

/** Keywords whose value is one schema, an array of schemas, or a map of schemas. */
const ONE = new Set([
  "additionalItems",
  "unevaluatedItems",
  "items",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else"
])
const ARRAY = new Set(["prefixItems", "items", "allOf", "anyOf", "oneOf"])
const MAP = new Set(["$defs", "definitions", "properties", "patternProperties", "dependentSchemas"])
const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"])

class Refused extends Error {}

const isObject = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const checkPattern = (pattern: unknown, at: string) => {
  if (typeof pattern !== "string") throw new Refused(`${at} is not a string`)
  try {
    new RegExp(pattern, "u")
  } catch (error) {
    throw new Refused(`${at} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`)
  }
}

const checkType = (type: unknown, at: string) => {
  const names = Array.isArray(type) ? type : [type]
  for (const name of names) {
    if (typeof name !== "string" || !TYPES.has(name)) throw new Refused(`${at}/type names no JSON type (${JSON.stringify(name)})`)
  }
}

interface Copy {
  /** Objects with an `$id`, by that `$id` and their JSON text: identical ones become one object. */
  readonly byId: Map<string, { readonly text: string; readonly schema: unknown }>
  /** Objects with a `$ref` (to check that each resolves), `$dynamicRef` ones turned into `$ref`s. */
  readonly refs: Array<{ readonly schema: Schema; readonly at: string }>
  readonly dynamic: Array<string>
  resources: number
}

/** A copy of the schema at `at` as the engine reads it (see the module's comment). */
const copySchema = (schema: unknown, at: string, copy: Copy): unknown => {
  if (typeof schema === "boolean") return schema
  if (!isObject(schema)) throw new Refused(`${at} is not a schema (an object or a boolean)`)
  if (typeof schema.$id === "string" && at !== "#") {
    copy.resources++
    const text = JSON.stringify(schema)
    const seen = copy.byId.get(schema.$id)
    if (seen !== undefined) {
      if (seen.text === text) return seen.schema
      throw new Refused(`two different schemas have the $id ${JSON.stringify(schema.$id)}`)
    }
  }
  const out: { [key: string]: unknown } = {}
  for (const [key, value] of Object.entries(schema)) {
    const here = `${at}/${key}`
    if (key === "format") continue
    if (key === "type") checkType(value, at)
    if (key === "pattern") checkPattern(value, here)
    if (key === "$dynamicRef") {
      if (typeof value !== "string") throw new Refused(`${here} is not a string`)
      copy.dynamic.push(here)
      out.$ref = value
      continue
    }
    if (key === "$dynamicAnchor" && typeof value === "string" && schema.$anchor === undefined) {
      out.$anchor = value
      continue
    }
    if (key === "patternProperties" && isObject(value)) for (const p of Object.keys(value)) checkPattern(p, `${here} key ${JSON.stringify(p)}`)
    if (ARRAY.has(key) && !ONE.has(key) && !Array.isArray(value)) throw new Refused(`${here} is not an array`)
    if (ARRAY.has(key) && Array.isArray(value)) out[key] = value.map((s, i) => copySchema(s, `${here}/${i}`, copy))
    else if (ONE.has(key)) out[key] = copySchema(value, here, copy)
    else if (MAP.has(key)) {
      if (!isObject(value)) throw new Refused(`${here} is not an object`)
      out[key] = Object.fromEntries(Object.entries(value).map(([k, s]) => [k, copySchema(s, `${here}/${k}`, copy)]))
    } else out[key] = value
  }
  if (typeof out.$ref === "string") copy.refs.push({ schema: out as Schema, at })
  if (typeof schema.$id === "string" && at !== "#") copy.byId.set(schema.$id, { text: JSON.stringify(schema), schema: out })
  return out
}

/** The engine resolves each `$ref` to an absolute URI when it reads the schema (a hidden property). */
const absoluteRef = (schema: Schema): string | undefined => (schema as { readonly __absolute_ref__?: string }).__absolute_ref__

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Compiles `schema` (a JSON Schema value, e.g. a tool's `outputSchema`) into a validator, or says why it cannot. */
export const compile = (schema: unknown): Compiled => {
  const draft = dialectOf(schema)
  if (!DIALECTS.some(([d]) => d === draft)) return { _tag: "Invalid", reason: draft }
  try {
    const copy: Copy = { byId: new Map(), refs: [], dynamic: [], resources: 0 }
    const prepared = copySchema(schema, "#", copy)
    if (copy.dynamic.length > 0 && copy.resources > 0) {
      throw new Refused(`${copy.dynamic[0]}: $dynamicRef in a schema of several resources (an $id below the root) is not supported`)
    }
    const validator = new Validator(prepared as Schema | boolean, draft as SchemaDraft, true)
    const lookup = (validator as unknown as { readonly lookup: { readonly [uri: string]: unknown } }).lookup
    for (const { schema: s, at } of copy.refs) {
      const uri = absoluteRef(s) ?? String(s.$ref)
      if (lookup[uri] === undefined) {
        throw new Refused(`${at}/$ref ${JSON.stringify(s.$ref)} resolves to nothing in the schema (nothing is fetched)`)
      }
    }
    const validate: Validate = (value) => {
      try {
        const result = validator.validate(value)
        if (result.valid) return undefined
        // the innermost failure says most: the engine lists the keyword that failed first, then its subschemas'
        const first = result.errors[result.errors.length - 1]
        return first === undefined ? "does not match" : `${first.instanceLocation}: ${first.error}`
      } catch (error) {
        return `could not be checked: ${message(error)}`
      }
    }
    return { _tag: "Compiled", validate }
  } catch (error) {
    return { _tag: "Invalid", reason: message(error) }
  }
}
