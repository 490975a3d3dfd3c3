/**
 * The JSON Schemas we publish (tool `inputSchema`/`outputSchema`, prompt
 * arguments) are made self-contained and typed: clients that read a
 * property's `type` to type what a user typed (the MCP Inspector, `emcp`)
 * never follow a `$ref`, so every reference to a `$defs` entry is inlined,
 * unless the entry is recursive (then the `$ref` and its `$defs` stay, still
 * correct).
 *
 * On Effect 4 the schema is compiled by `SchemaRepresentation` (the encoded
 * side, checks kept) and the output is brought back to what Effect 3's
 * `JSONSchema.make` published, which is what peers have seen so far:
 * - structs are closed (`additionalProperties: false`) and always carry
 *   `required` and `properties` (records too: `required: []`, `properties: {}`);
 * - `undefined` is not a JSON value: a union member `undefined` (an optional
 *   field written `Schema.optional(X)`) is left out, not published as `null`;
 * - a number is `{ type: "number" }` (Effect 4 adds `"NaN"`/`"Infinity"` strings
 *   for its JSON codec, which tool arguments do not go through), an integer
 *   carries no safe-integer bounds;
 * - `unknown` (and `any`) is `{}`, also as the `additionalProperties` of a
 *   record of unknowns, and a union with such a member is that member
 *   (Effect 3 published `{ $id: "/schemas/unknown", title: "unknown" }`: a
 *   title the author never wrote, read by models as the field's label);
 *   adjacent literals of a union make one `enum`;
 * - a tuple is `prefixItems` with `items: false`, a non-empty array is
 *   `minItems` with `items`;
 * - keywords in Effect 3's order (`type`, `required`, `properties`, ...; the
 *   annotations `description`, `title`, `default`, `examples` last).
 *
 * What is published carries only the annotations the author wrote: Effect 4's
 * built-in schemas and checks (`Schema.Int`, `isMinLength`, `isBetween`, ...)
 * add no `title` or `description`, and none is made up here.
 */
import type * as Schema from "effect/Schema"
import * as SchemaRepresentation from "effect/SchemaRepresentation"

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

/** Effect 4's Number in JSON: the finite number, or one of the strings its JSON codec writes for the others. */
const NON_FINITE = ["Infinity", "-Infinity", "NaN"]

const isNonFiniteStrings = (u: unknown): boolean =>
  isObject(u) && u.type === "string" && Array.isArray(u.enum) && u.enum.length === NON_FINITE.length &&
  NON_FINITE.every((x) => (u.enum as Array<unknown>).includes(x)) && Object.keys(u).length === 2

const isPlainObject = (u: unknown): u is { [key: string]: unknown } =>
  typeof u === "object" && u !== null && Object.getPrototypeOf(u) === Object.prototype

/** The annotation that marks an `unknown` / `any` node through the compiler, so that it is published as `{}`. */
const KEYWORD_MARK = "x-effect-mcp-keyword"

/** The `unknown` and `any` schemas: any JSON value, with nothing the author did not write. */
const KEYWORDS: { readonly [mark: string]: JsonSchemaObject } = { unknown: {}, any: {} }

/** A schema every value satisfies: no keyword but annotations (`{}`, `{ description }`). */
const acceptsAll = (u: unknown): boolean => isObject(u) && Object.keys(u).every((key) => ANNOTATIONS.has(key))

type CheckFragment = { readonly [key: string]: unknown }
type CheckOutput = CheckFragment | readonly [CheckFragment, true]
type CheckCallback = (context: { readonly type?: unknown; readonly schemas: ReadonlyArray<unknown> }) => CheckOutput

/**
 * The constraint Effect 3 published for a check whose Effect 4 output is
 * looser, by the check's persisted identity (`representation.id`) and payload:
 * Effect 4 halves a string's `minLength` (it counts code points where the
 * check counts UTF-16 units) and publishes a `pattern` only for a RegExp with
 * the `u` flag; Effect 3 published the check's own bound and the RegExp's
 * source, which is what peers validate against. `isEndingWith` / `isIncluding`
 * get Effect 3's `^.*x$` / `.*x.*`. Only a keyword the check's own callback
 * gives is corrected (a user's `toJsonSchema` that leaves it out stays so),
 * except a missing `pattern`, which is what the RegExp asks for.
 */
const exactConstraint = (
  id: string,
  payload: { readonly [key: string]: unknown },
  type: unknown,
  fragment: CheckFragment
): CheckFragment | undefined => {
  switch (id) {
    case "effect/schema/isMinLength":
      return type === "string" && "minLength" in fragment && typeof payload.minLength === "number" ?
        { ...fragment, minLength: payload.minLength } :
        undefined
    case "effect/schema/isMaxLength":
      return type === "string" && "maxLength" in fragment && typeof payload.maxLength === "number" ?
        { ...fragment, maxLength: payload.maxLength } :
        undefined
    case "effect/schema/isBetweenLength":
      return type === "string" && "minLength" in fragment && typeof payload.minimum === "number" ?
        { ...fragment, minLength: payload.minimum } :
        undefined
    case "effect/schema/isPattern": {
      if (type !== "string" && type !== undefined) return undefined
      if ("pattern" in fragment || typeof payload.source !== "string") return undefined
      return { ...fragment, pattern: payload.source }
    }
    case "effect/schema/isEndingWith":
      return typeof fragment.pattern === "string" && !fragment.pattern.startsWith("^") && fragment.pattern.endsWith("$") ?
        { ...fragment, pattern: `^.*${fragment.pattern}` } :
        undefined
    case "effect/schema/isIncluding":
      return typeof fragment.pattern === "string" && !fragment.pattern.startsWith(".*") ?
        { ...fragment, pattern: `.*${fragment.pattern}.*` } :
        undefined
    default:
      return undefined
  }
}

/** A check of the representation whose `toJsonSchema` publishes what Effect 3 did (see {@link exactConstraint}). */
const withExactConstraint = (check: { [key: string]: unknown }): { [key: string]: unknown } => {
  const representation = check.representation
  const annotations = check.annotations
  if (!isPlainObject(representation) || typeof representation.id !== "string" || !isPlainObject(annotations)) return check
  const callback = annotations.toJsonSchema
  if (typeof callback !== "function") return check
  const id = representation.id
  const payload = isPlainObject(representation.payload) ? representation.payload : {}
  const toJsonSchema = (context: Parameters<CheckCallback>[0]): CheckOutput => {
    const output = (callback as CheckCallback)(context)
    const fragment = Array.isArray(output) ? output[0] as CheckFragment : output as CheckFragment
    const exact = exactConstraint(id, payload, context.type, fragment)
    return exact ?? output
  }
  return { ...check, annotations: { ...annotations, toJsonSchema } }
}

/**
 * The representation prepared for publishing: without `undefined` union members (a union left with
 * one member and no checks of its own becomes that member, with the union's annotations), and its
 * `unknown` / `any` nodes marked.
 */
const prepared = (u: unknown): unknown => {
  if (Array.isArray(u)) return u.map(prepared)
  if (!isPlainObject(u)) return u
  const out: { [key: string]: unknown } = {}
  for (const [key, value] of Object.entries(u)) out[key] = prepared(value)
  if (out._tag === "Filter") return withExactConstraint(out)
  if ((out._tag === "Unknown" || out._tag === "Any") && !(Array.isArray(out.checks) && out.checks.length > 0)) {
    const mark = out._tag === "Unknown" ? "unknown" : "any"
    return { ...out, annotations: { ...(isPlainObject(out.annotations) ? out.annotations : {}), [KEYWORD_MARK]: mark } }
  }
  if (out._tag === "Union" && Array.isArray(out.types)) {
    const types = out.types.filter((t) => !(isPlainObject(t) && t._tag === "Undefined"))
    if (types.length === out.types.length) return out
    const checks = Array.isArray(out.checks) ? out.checks : []
    if (types.length === 1 && checks.length === 0 && isPlainObject(types[0])) {
      const member = types[0]
      const annotations = isPlainObject(out.annotations) ?
        { ...(isPlainObject(member.annotations) ? member.annotations : {}), ...out.annotations } :
        member.annotations
      return annotations === undefined ? member : { ...member, annotations }
    }
    if (types.length > 0) out.types = types
  }
  return out
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER

const isCompactableLiteral = (u: unknown): u is { readonly type: unknown; readonly enum: ReadonlyArray<unknown> } =>
  isObject(u) && Array.isArray(u.enum) && u.type !== undefined && Object.keys(u).length === 2

/**
 * Union members as Effect 3 published them: the non-finite strings of Effect 4's Number left out
 * beside a number member, adjacent literals of one type made one `enum`, and a union with a
 * member every value satisfies (`unknown`, `any`) that member alone.
 */
const compactUnion = (members: ReadonlyArray<unknown>): Array<unknown> => {
  const hasNumber = members.some((m) => isObject(m) && m.type === "number")
  const out: Array<unknown> = []
  for (const m of members) {
    if (hasNumber && isNonFiniteStrings(m)) continue
    if (acceptsAll(m)) return [m]
    const last = out[out.length - 1]
    if (isCompactableLiteral(m) && isCompactableLiteral(last) && last.type === m.type) {
      out[out.length - 1] = { type: last.type, enum: [...last.enum, ...m.enum] }
      continue
    }
    out.push(m)
  }
  return out
}

/** One node of the compiled schema brought back to Effect 3's published shape (see the module header). */
const asPublished = (schema: JsonSchemaObject): JsonSchemaObject => {
  let out = mapSubschemas(schema, (s) => (isObject(s) ? asPublished(s) : s))
  const mark = out[KEYWORD_MARK]
  if (typeof mark === "string" && KEYWORDS[mark] !== undefined) {
    const { [KEYWORD_MARK]: _mark, ...rest } = out
    out = { ...KEYWORDS[mark], ...rest }
  }
  if (Array.isArray(out.anyOf)) {
    const members = compactUnion(out.anyOf)
    if (members.length === 1 && isObject(members[0])) {
      // a union of one (Effect 4's Number is `anyOf: [{ type: "number" }, { type: "string", enum: [...] }]`)
      const { anyOf: _anyOf, ...siblings } = out
      out = { ...members[0], ...siblings }
    } else {
      out = { ...out, anyOf: members }
    }
  }
  if (out.type === "integer") {
    if (out.minimum === -MAX_SAFE) delete out.minimum
    if (out.maximum === MAX_SAFE) delete out.maximum
  }
  // a struct with an index signature (`Schema.StructWithRest`) comes as the struct `allOf` the record
  if (out.type === "object" && out.additionalProperties === undefined && Array.isArray(out.allOf) && out.allOf.length === 1) {
    const rest = out.allOf[0]
    if (
      isObject(rest) && Object.keys(rest).length === 4 && rest.type === "object" && equal(rest.required, []) &&
      equal(rest.properties, {}) && rest.additionalProperties !== undefined
    ) {
      const { allOf: _allOf, ...struct } = out
      out = { ...struct, additionalProperties: rest.additionalProperties }
    }
  }
  if (out.type === "object" && out.$ref === undefined && out.anyOf === undefined && out.oneOf === undefined) {
    const { type, required, properties, ...rest } = out
    out = { type, required: required ?? [], properties: properties ?? {}, ...rest }
  }
  if (out.type === "array" && Array.isArray(out.prefixItems)) {
    const prefix = out.prefixItems
    if (out.items === undefined && out.maxItems === prefix.length) {
      // a tuple
      const { type, minItems, prefixItems, maxItems: _max, ...rest } = out
      out = { type, ...(minItems !== undefined ? { minItems } : {}), prefixItems, items: false, ...rest }
    } else if (out.items !== undefined && prefix.every((p) => equal(p, out.items))) {
      // a non-empty array
      const { type, minItems, prefixItems: _prefix, items, ...rest } = out
      out = { type, ...(minItems !== undefined ? { minItems } : {}), items, ...rest }
    }
  }
  // annotations last, in Effect 3's order
  if (PUBLISHED_ANNOTATIONS.some((key) => key in out)) {
    const annotations: JsonSchemaObject = {}
    for (const key of PUBLISHED_ANNOTATIONS) {
      if (key in out) {
        annotations[key] = out[key]
        delete out[key]
      }
    }
    out = { ...out, ...annotations }
  }
  return out
}

/** The annotations Effect 3 published, in its order (after the schema's own keywords). */
const PUBLISHED_ANNOTATIONS = ["description", "title", "default", "examples"]

/**
 * The JSON Schema (2020-12) we publish for a schema: self-contained, typed,
 * with no `$schema` (2020-12 is MCP's default dialect, and peers that compile
 * schemas with a draft-07 validator, as the official TypeScript SDK client
 * does for `outputSchema`, reject its URI) and no `$id`.
 */
export const make = (schema: Schema.Top): JsonSchemaObject => {
  const document = SchemaRepresentation.toRepresentation(schema.ast)
  const representation = {
    representation: prepared(document.representation),
    references: prepared(document.references)
  } as SchemaRepresentation.Document
  const compiled = SchemaRepresentation.toJsonSchemaDocument(representation, {
    onExcessProperty: "error",
    includeAnnotationKey: (key) => key === KEYWORD_MARK
  })
  const root = compiled.schema as JsonSchemaObject
  const definitions = compiled.definitions as { readonly [name: string]: JsonSchemaObject }
  const defs = Object.fromEntries(Object.entries(definitions).map(([name, def]) => [name, asPublished(def)]))
  const { $id: _id, $schema: _schema, ...json } = asPublished(root)
  return selfContained(Object.keys(defs).length > 0 ? { ...json, $defs: defs } : json)
}
