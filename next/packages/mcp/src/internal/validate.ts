/**
 * Validation for the wire schemas of `McpSchema`, whose decoded type is the
 * wire shape itself: a value that already is one is used as it is (no copy),
 * and only a value that is not gets the full decoder, for its error.
 *
 * The check is `Schema.is`, compiled by hand for the shapes wire schemas are
 * made of (structs, records, arrays, unions, literals, keywords). Effect 4's
 * `Schema.is` runs its interpreted parser (an `Exit` per node) unless the
 * opt-in JIT compiler (`effect/schema/SchemaJITCompiler`, unstable, `new
 * Function`) is enabled: measured on a `tools/call` params value it takes
 * longer than decoding (1.3 µs against 0.9 µs), on a `CallToolResult` 1.7 µs.
 * A node of any other kind, or one with checks (a filter, a recursive or
 * declared schema, a tuple with elements) is checked by `Schema.is` of that
 * node, so the answer is `Schema.is`'s everywhere (Validate.test compares
 * them on every wire schema).
 */
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"

type Guard = (u: unknown) => boolean

const isRecord = (u: unknown): u is Record<PropertyKey, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const hasOwn = (o: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, key)

/** Fields named after `Object.prototype` members must be own properties (as Effect's parser has it); others may be inherited. */
const objectPrototypeKeys = new Set<PropertyKey>(Reflect.ownKeys(Object.prototype)).add("__proto__")

/** `Schema.is` of one node, for the kinds `compile` does not take apart. */
const fallback = (ast: AST.AST): Guard => SchemaParser.is(Schema.make<Schema.Schema<unknown>>(ast))

const compileObjects = (ast: AST.Objects, memo: Map<AST.AST, Guard>): Guard => {
  const { indexSignatures, propertySignatures } = ast
  // `Schema.Struct({})`: anything but null and undefined, as `Schema.is` has it
  if (propertySignatures.length === 0 && indexSignatures.length === 0) return (u) => u !== null && u !== undefined
  if (propertySignatures.some((ps) => typeof ps.name !== "string")) return fallback(ast)
  if (indexSignatures.some((is) => is.parameter._tag !== "String" || is.parameter.checks !== undefined)) return fallback(ast)
  const names = propertySignatures.map((ps) => ps.name as string)
  const ownOnly = names.map((name) => objectPrototypeKeys.has(name))
  const optional = propertySignatures.map((ps) => AST.isOptional(ps.type))
  const types = propertySignatures.map((ps) => compile(ps.type, memo))
  const values = indexSignatures.map((is) =>
    is.type._tag === "Unknown" && is.type.checks === undefined ? undefined : compile(is.type, memo)
  )
  const checkValues = values.filter((v): v is Guard => v !== undefined)
  return (u) => {
    if (!isRecord(u)) return false
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      // `Schema.is` is exact: a required key must be there, an optional one may be absent
      if (!(ownOnly[i] ? hasOwn(u, name) : name in u)) {
        if (optional[i]) continue
        return false
      }
      if (!types[i]!(u[name])) return false
    }
    if (checkValues.length > 0) {
      // a string index signature holds for every own enumerable string key, declared ones too
      for (const key of Object.keys(u)) {
        for (const check of checkValues) if (!check(u[key])) return false
      }
    }
    return true
  }
}

const compileUnion = (ast: AST.Union, memo: Map<AST.AST, Guard>): Guard => {
  if (ast.options?.mode === "oneOf") return fallback(ast)
  const members = ast.types.map((t) => compile(t, memo))
  return (u) => {
    for (const member of members) if (member(u)) return true
    return false
  }
}

const compileArrays = (ast: AST.Arrays, memo: Map<AST.AST, Guard>): Guard => {
  // an array (`Schema.Array`): no fixed elements, one rest element
  if (ast.elements.length > 0 || ast.rest.length !== 1) return fallback(ast)
  const element = ast.rest[0]!
  if ((element._tag === "Unknown" || element._tag === "Any") && element.checks === undefined) return Array.isArray
  const check = compile(element, memo)
  return (u) => {
    if (!Array.isArray(u)) return false
    for (let i = 0; i < u.length; i++) if (!check(u[i])) return false
    return true
  }
}

/** The guard of a type-side node (`AST.toType` applied). */
const compile = (ast: AST.AST, memo: Map<AST.AST, Guard>): Guard => {
  const known = memo.get(ast)
  if (known !== undefined) return known
  let guard: Guard
  if (ast.checks !== undefined || ast.encoding !== undefined) {
    guard = fallback(ast)
  } else {
    switch (ast._tag) {
      case "String":
        guard = (u) => typeof u === "string"
        break
      case "Number":
        guard = (u) => typeof u === "number"
        break
      case "Boolean":
        guard = (u) => typeof u === "boolean"
        break
      case "Unknown":
      case "Any":
        guard = () => true
        break
      case "Undefined":
        guard = (u) => u === undefined
        break
      case "Null":
        guard = (u) => u === null
        break
      case "Literal": {
        const literal = ast.literal
        // `0` and `-0`: left to `Schema.is`
        guard = typeof literal === "number" && literal === 0 ? fallback(ast) : (u) => u === literal
        break
      }
      case "Objects":
        guard = compileObjects(ast, memo)
        break
      case "Union":
        guard = compileUnion(ast, memo)
        break
      case "Arrays":
        guard = compileArrays(ast, memo)
        break
      default:
        guard = fallback(ast)
    }
  }
  memo.set(ast, guard)
  return guard
}

const guards = new WeakMap<Schema.Constraint, Guard>()

/**
 * `Schema.is(schema)`, compiled (the same answer for every input, without running the parser),
 * made once per schema: a session that made its validators itself would pay for compiling them all.
 */
export const guard = <A, I>(schema: Schema.Codec<A, I>): (u: unknown) => u is A => {
  let known = guards.get(schema)
  if (known === undefined) {
    known = compile(AST.toType(schema.ast), new Map())
    guards.set(schema, known)
  }
  return known as (u: unknown) => u is A
}

const validators = new WeakMap<Schema.Constraint, (u: unknown) => Result.Result<unknown, SchemaIssue.Issue>>()

/**
 * A value that `Schema.is` accepts is its own success (no copy); any other is decoded (all errors
 * collected) for its issue, or for the decoded value when decoding can still make one of it.
 */
export const validator = <A, I>(
  schema: Schema.Codec<A, I>
): (u: unknown) => Result.Result<A, SchemaIssue.Issue> => {
  const known = validators.get(schema)
  if (known !== undefined) return known as (u: unknown) => Result.Result<A, SchemaIssue.Issue>
  const is = guard(schema)
  const decode = SchemaParser.decodeUnknownResult(schema, { errors: "all" })
  const validate = (u: unknown): Result.Result<A, SchemaIssue.Issue> => (is(u) ? Result.succeed(u) : decode(u))
  validators.set(schema, validate)
  return validate
}

/**
 * `validator` with its failure mapped: a value that already is one is its own `Success` (one `Result`
 * per call, not `validator`'s and a copy of it).
 */
export const validatorOr = <A, I, E>(
  schema: Schema.Codec<A, I>,
  onIssue: (issue: SchemaIssue.Issue) => E
): (u: unknown) => Result.Result<A, E> => {
  const is = guard(schema)
  const decode = validator(schema)
  return (u) => {
    if (is(u)) return Result.succeed(u)
    const result = decode(u)
    return Result.isSuccess(result) ? Result.succeed(result.success) : Result.fail(onIssue(result.failure))
  }
}

const standard = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * A schema issue as one line: `path: message` per failure (path segments joined with `.`), joined
 * with `; `. The messages are Effect 4's (`Expected string, got 1`, `Missing key`).
 */
export const formatIssue = (issue: SchemaIssue.Issue): string =>
  standard(issue).issues
    .map((e) => {
      const path = (e.path ?? []).map((key) => String(typeof key === "object" ? key.key : key))
      return path.length > 0 ? `${path.join(".")}: ${e.message}` : e.message
    })
    .join("; ")

/** A field whose decoded value is the input itself: a keyword, a literal, or a union of them, with no check nor encoding. */
const isPlainField = (ast: AST.AST): boolean => {
  if (ast.checks !== undefined || ast.encoding !== undefined) return false
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "Unknown":
    case "Any":
    case "Undefined":
    case "Null":
    case "Literal":
      return true
    case "Union":
      return ast.types.every(isPlainField)
    default:
      return false
  }
}

/**
 * For a struct of plain fields (keywords, literals, unions of them) with no transformation or
 * filter: a check that a value's decoding (excess properties ignored) would be a copy of it, key
 * for key and in the same order, so that the value can be used as it is. It holds for a plain
 * object that `Schema.is` accepts and whose enumerable keys are declared ones in their declared
 * order.
 * Undefined for any other schema.
 */
export const decodesToItself = <A, I>(schema: Schema.Codec<A, I>): ((u: unknown) => u is A) | undefined => {
  const ast = schema.ast
  if (
    ast._tag !== "Objects" || ast.encoding !== undefined || ast.checks !== undefined || ast.indexSignatures.length > 0
  ) {
    return undefined
  }
  const fields = ast.propertySignatures
  if (!fields.every((ps) => typeof ps.name === "string" && isPlainField(ps.type))) return undefined
  const names = fields.map((ps) => ps.name)
  const is = guard(schema)
  return (u): u is A => {
    if (!isRecord(u) || Object.getPrototypeOf(u) !== Object.prototype) return false
    let at = 0
    // `for…in`, not `Reflect.ownKeys` (an array per call, ~8× slower): the keys that matter are
    // the enumerable string ones (what JSON has; an inherited enumerable one falls to decoding)
    for (const key in u) {
      while (at < names.length && names[at] !== key) at++
      if (at === names.length) return false
      at++
    }
    return is(u)
  }
}
