/**
 * The JSON Schemas we publish (tool `inputSchema`/`outputSchema`, prompt
 * arguments) are made self-contained and typed: clients that read a
 * property's `type` to type what a user typed (the MCP Inspector, `emcp`)
 * never follow a `$ref`, so every reference to a `$defs` entry is inlined,
 * unless the entry is recursive (then the `$ref` and its `$defs` stay, still
 * correct). `Schema.Int.pipe(Schema.between(1, 10))` comes out of
 * `JSONSchema.make` as `{ $ref: "#/$defs/Int", minimum: 1, maximum: 10 }` and
 * is published as `{ type: "integer", minimum: 1, maximum: 10, ... }`.
 */
import * as JSONSchema from "effect/JsonSchema"
import type * as Schema from "effect/Schema"

export type JsonSchemaObject = { [key: string]: unknown }

const DEFS_PREFIX = "#/$defs/"

/** Keywords whose value is a schema, an array of schemas, or a map of schemas (JSON Schema 2020-12). */
const SCHEMA_KEYWORDS = new Set([
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "contentSchema"
])
const SCHEMA_ARRAY_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"])
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "dependentSchemas"])

/** Keywords that only describe: when two schemas meet, the outer (more specific) one's value is kept. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"])
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"])
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"])
/** Keywords that read their siblings (`additionalProperties` depends on `properties`...): never merged piecemeal. */
const OBJECT_GROUP = ["properties", "patternProperties", "additionalProperties", "unevaluatedProperties"]
const ARRAY_GROUP = ["items", "prefixItems", "unevaluatedItems", "contains"]

const isObject = (u: unknown): u is JsonSchemaObject => typeof u === "object" && u !== null && !Array.isArray(u)

const equal = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** Applies `f` to every direct subschema of `schema` (not to `$defs`, nor to data such as `enum` or `default`). */
const mapSubschemas = (schema: JsonSchemaObject, f: (s: unknown) => unknown): JsonSchemaObject => {
  const out: JsonSchemaObject = {}
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.has(key)) out[key] = isObject(value) ? f(value) : value
    else if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) out[key] = value.map(f)
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, f(v)]))
    } else out[key] = value
  }
  return out
}

/** The `$defs` names a schema refers to, anywhere inside it. */
const refsOf = (schema: unknown, into: Set<string> = new Set()): Set<string> => {
  if (!isObject(schema)) return into
  const ref = schema.$ref
  if (typeof ref === "string" && ref.startsWith(DEFS_PREFIX)) into.add(defName(ref))
  mapSubschemas(schema, (s) => refsOf(s, into))
  return into
}

/** `#/$defs/a~1b` → `a/b` (a JSON Pointer token). */
const defName = (ref: string): string => ref.slice(DEFS_PREFIX.length).replace(/~1/g, "/").replace(/~0/g, "~")

/** The `$defs` entries that can reach themselves: those must stay references. */
const recursiveDefs = (defs: { readonly [name: string]: unknown }): Set<string> => {
  const edges = new Map(Object.entries(defs).map(([name, def]) => [name, refsOf(def)]))
  const reaches = (from: string, target: string, seen: Set<string>): boolean => {
    for (const next of edges.get(from) ?? []) {
      if (next === target) return true
      if (!seen.has(next)) {
        seen.add(next)
        if (reaches(next, target, seen)) return true
      }
    }
    return false
  }
  return new Set([...edges.keys()].filter((name) => reaches(name, name, new Set())))
}

const mergeType = (inner: unknown, outer: unknown): unknown | undefined =>
  (inner === "integer" && outer === "number") || (inner === "number" && outer === "integer") ? "integer" : undefined

/** A schema valid where both `inner` and `outer` are (an `allOf` of the two, flattened); `outer`'s annotations win. */
const intersect = (inner: JsonSchemaObject, outer: JsonSchemaObject): JsonSchemaObject => {
  for (const group of [OBJECT_GROUP, ARRAY_GROUP]) {
    const pick = (s: JsonSchemaObject) => group.filter((k) => k in s).map((k) => [k, s[k]])
    const a = pick(inner)
    const b = pick(outer)
    if (a.length > 0 && b.length > 0 && !equal(a, b)) {
      const type = inner.type ?? outer.type
      return { ...(type !== undefined ? { type } : {}), allOf: [inner, outer] }
    }
  }
  const out: JsonSchemaObject = { ...inner }
  const conflicts: Array<JsonSchemaObject> = []
  for (const [key, value] of Object.entries(outer)) {
    const current = out[key]
    if (!(key in out) || ANNOTATIONS.has(key)) out[key] = value
    else if (equal(current, value)) continue
    else if (LOWER_BOUNDS.has(key) && typeof current === "number" && typeof value === "number") out[key] = Math.max(current, value)
    else if (UPPER_BOUNDS.has(key) && typeof current === "number" && typeof value === "number") out[key] = Math.min(current, value)
    else if (key === "required" && Array.isArray(current) && Array.isArray(value)) out[key] = [...new Set([...current, ...value])]
    else if (key === "allOf" && Array.isArray(current) && Array.isArray(value)) out[key] = [...current, ...value]
    else if (key === "type" && mergeType(current, value) !== undefined) out[key] = mergeType(current, value)
    else conflicts.push({ [key]: value })
  }
  if (conflicts.length > 0) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), ...conflicts]
  return out
}

/** An `allOf` folded into the schema that holds it (what cannot be flattened stays in a smaller `allOf`). */
const foldAllOf = (schema: JsonSchemaObject): JsonSchemaObject => {
  const { allOf, ...rest } = schema
  if (!Array.isArray(allOf) || !allOf.every(isObject)) return schema
  return allOf.reduceRight<JsonSchemaObject>((outer, member) => intersect(member, outer), rest)
}

/** `anyOf`/`oneOf` whose branches all carry a `type` gets the union of those types beside it (says no more than the branches). */
const hoistUnionType = (schema: JsonSchemaObject): JsonSchemaObject => {
  if (schema.type !== undefined) return schema
  const branches = schema.anyOf ?? schema.oneOf
  if (!Array.isArray(branches) || branches.length === 0) return schema
  const types = new Set<string>()
  for (const branch of branches) {
    const t = isObject(branch) ? branch.type : undefined
    if (typeof t === "string") types.add(t)
    else if (Array.isArray(t) && t.every((x) => typeof x === "string")) t.forEach((x) => types.add(x))
    else return schema
  }
  if (types.has("number")) types.delete("integer")
  const list = [...types]
  return { type: list.length === 1 ? list[0] : list, ...schema }
}

/**
 * Inlines every `$ref` to a non-recursive `$defs` entry, folds `allOf`s and
 * types unions, keeping `$defs` only for the recursive entries still referred
 * to. A root `$ref` is always expanded once, so that the root says what it is.
 */
export const selfContained = (input: JsonSchemaObject): JsonSchemaObject => {
  const { $defs: rawDefs, ...root } = input
  const defs = isObject(rawDefs) ? rawDefs : {}
  const recursive = recursiveDefs(defs)
  const done = new Map<string, JsonSchemaObject>()
  const resolve = (name: string): JsonSchemaObject | undefined => {
    const def = defs[name]
    if (!isObject(def)) return undefined
    let out = done.get(name)
    if (out === undefined) {
      out = inline(def)
      done.set(name, out)
    }
    return out
  }
  // the root gets no hoisted type: a root union is not an object schema (a tool wraps such an output as `{ result }`)
  const go = (schema: unknown): unknown => isObject(schema) ? hoistUnionType(inline(schema)) : schema
  const inline = (schema: JsonSchemaObject): JsonSchemaObject => {
    let out = mapSubschemas(schema, go)
    if (out.allOf !== undefined) out = foldAllOf(out)
    const ref = out.$ref
    if (typeof ref === "string" && ref.startsWith(DEFS_PREFIX) && !recursive.has(defName(ref))) {
      const target = resolve(defName(ref))
      if (target !== undefined) {
        const { $ref: _ref, ...siblings } = out
        out = intersect(target, siblings)
      }
    }
    return out
  }
  let top = inline(root)
  const rootRef = top.$ref
  if (typeof rootRef === "string" && rootRef.startsWith(DEFS_PREFIX)) {
    const target = resolve(defName(rootRef))
    if (target !== undefined) {
      const { $ref: _ref, ...siblings } = top
      top = intersect(target, siblings)
    }
  }
  // the recursive entries reachable from what is published, each made self-contained in turn
  const kept: JsonSchemaObject = {}
  const pending = [...refsOf(top)]
  while (pending.length > 0) {
    const name = pending.pop()!
    const def = name in kept ? undefined : resolve(name)
    if (def === undefined) continue
    kept[name] = hoistUnionType(def)
    pending.push(...refsOf(def))
  }
  return Object.keys(kept).length > 0 ? { ...top, $defs: kept } : top
}

/**
 * The JSON Schema (2020-12) we publish for a schema: self-contained, typed,
 * with no `$schema` (2020-12 is MCP's default dialect, and peers that compile
 * schemas with a draft-07 validator, as the official TypeScript SDK client
 * does for `outputSchema`, reject its URI) and no `$id`.
 */
export const make = (schema: Schema.Schema.Any): JsonSchemaObject => {
  const { $id: _id, $schema: _schema, ...json } = JSONSchema.make(schema, { target: "jsonSchema2020-12" }) as unknown as JsonSchemaObject
  return selfContained(json)
}
