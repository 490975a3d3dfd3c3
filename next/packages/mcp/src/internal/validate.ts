/**
 * Validation for the wire schemas of `McpSchema`, whose decoded type is the
 * wire shape itself: a value that already is one is used as it is (no copy),
 * and only a value that is not gets the full decoder, for its error.
 *
 * The check is `Schema.is`, compiled by hand for the shapes wire schemas are
 * made of (structs, records, arrays, unions, literals, keywords): `Schema.is`
 * runs the schema's decoder and builds its output (objects, arrays, an
 * `Either` per node) only to throw it away, which on a `tools/call` costs as
 * much as parsing the message's JSON. A node of any other kind (a filter, a
 * recursive or declared schema, a tuple with elements) is checked by
 * `Schema.is` of that node, so the answer is `Schema.is`'s everywhere.
 */
import * as Result from "effect/Result"
import * as ParseResult from "effect/ParseResult"
import type * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

type Guard = (u: unknown) => boolean

const isRecord = (u: unknown): u is Record<PropertyKey, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const hasOwn = (o: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, key)

/** `Schema.is` of one node, for the kinds `compile` does not take apart. */
const fallback = (ast: AST.AST): Guard => ParseResult.is({ ast } as Schema.Schema<unknown>)

const compileTypeLiteral = (ast: AST.TypeLiteral, memo: Map<AST.AST, Guard>): Guard => {
  const { indexSignatures, propertySignatures } = ast
  // `Schema.Struct({})`: anything but null and undefined, as `Schema.is` has it
  if (propertySignatures.length === 0 && indexSignatures.length === 0) return (u) => u !== null && u !== undefined
  if (propertySignatures.some((ps) => typeof ps.name !== "string")) return fallback(ast)
  if (indexSignatures.some((is) => is.parameter._tag !== "StringKeyword")) return fallback(ast)
  const names = propertySignatures.map((ps) => ps.name as string)
  const optional = propertySignatures.map((ps) => ps.isOptional)
  const types = propertySignatures.map((ps) => compile(ps.type, memo))
  const values = indexSignatures.map((is) => (is.type._tag === "UnknownKeyword" ? undefined : compile(is.type, memo)))
  const checkValues = values.filter((v): v is Guard => v !== undefined)
  return (u) => {
    if (!isRecord(u)) return false
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      // `Schema.is` is exact: a required key must be there, an optional one may be absent
      if (!hasOwn(u, name)) {
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
  const members = ast.types.map((t) => compile(t, memo))
  return (u) => {
    for (const member of members) if (member(u)) return true
    return false
  }
}

const compileTuple = (ast: AST.TupleType, memo: Map<AST.AST, Guard>): Guard => {
  // an array (`Schema.Array`): no fixed elements, one rest element
  if (ast.elements.length > 0 || ast.rest.length !== 1) return fallback(ast)
  const element = ast.rest[0]!.type
  if (element._tag === "UnknownKeyword" || element._tag === "AnyKeyword") return Array.isArray
  const check = compile(element, memo)
  return (u) => {
    if (!Array.isArray(u)) return false
    for (let i = 0; i < u.length; i++) if (!check(u[i])) return false
    return true
  }
}

/** The guard of a type-side node (`AST.typeAST` applied). */
const compile = (ast: AST.AST, memo: Map<AST.AST, Guard>): Guard => {
  const known = memo.get(ast)
  if (known !== undefined) return known
  let guard: Guard
  switch (ast._tag) {
    case "StringKeyword":
      guard = (u) => typeof u === "string"
      break
    case "NumberKeyword":
      guard = (u) => typeof u === "number"
      break
    case "BooleanKeyword":
      guard = (u) => typeof u === "boolean"
      break
    case "UnknownKeyword":
    case "AnyKeyword":
      guard = () => true
      break
    case "UndefinedKeyword":
      guard = (u) => u === undefined
      break
    case "Literal": {
      const literal = ast.literal
      guard = (u) => u === literal
      break
    }
    case "TypeLiteral":
      guard = compileTypeLiteral(ast, memo)
      break
    case "Union":
      guard = compileUnion(ast, memo)
      break
    case "TupleType":
      guard = compileTuple(ast, memo)
      break
    default:
      guard = fallback(ast)
  }
  memo.set(ast, guard)
  return guard
}

/**
 * `Schema.is(schema)`, compiled: the same answer for every input, without
 * building a decoded copy of it.
 */
export const guard = <A, I>(schema: Schema.Schema<A, I>): (u: unknown) => u is A =>
  compile(AST.typeAST(schema.ast), new Map()) as (u: unknown) => u is A

/**
 * Made once per schema: a session that made its validators itself would pay
 * for compiling them all (~30 KB per session, client side).
 */
const validators = new WeakMap<Schema.Schema.Any, (u: unknown) => Result.Result<unknown, ParseResult.ParseIssue>>()

export const validator = <A, I>(
  schema: Schema.Schema<A, I>
): (u: unknown) => Result.Result<A, ParseResult.ParseIssue> => {
  const known = validators.get(schema as Schema.Schema.Any)
  if (known !== undefined) return known as (u: unknown) => Result.Result<A, ParseResult.ParseIssue>
  const is = guardOf(schema)
  const decode = ParseResult.decodeUnknownEither(schema, { errors: "all" })
  const validate = (u: unknown): Result.Result<A, ParseResult.ParseIssue> => (is(u) ? Result.succeed(u as A) : decode(u))
  validators.set(schema as Schema.Schema.Any, validate)
  return validate
}

const guards = new WeakMap<Schema.Schema.Any, Guard>()

/** `guard`, made once per schema (as `validator` is). */
const guardOf = <A, I>(schema: Schema.Schema<A, I>): (u: unknown) => u is A => {
  let known = guards.get(schema as Schema.Schema.Any)
  if (known === undefined) {
    known = guard(schema)
    guards.set(schema as Schema.Schema.Any, known)
  }
  return known as (u: unknown) => u is A
}

/**
 * `validator` with its failure mapped: a value that already is one is its own `Right` (one `Either`
 * per call, not `validator`'s and a copy of it).
 */
export const validatorOr = <A, I, E>(
  schema: Schema.Schema<A, I>,
  onIssue: (issue: ParseResult.ParseIssue) => E
): (u: unknown) => Result.Result<A, E> => {
  const is = guardOf(schema)
  const decode = validator(schema)
  return (u) => {
    if (is(u)) return Result.succeed(u)
    const result = decode(u)
    return Result.isSuccess(result) ? Result.succeed(result.right) : Result.fail(onIssue(result.left))
  }
}

/** A parse issue as one line: `path: message` per failure, joined with `; `. */
export const formatIssue = (issue: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(issue)
    .map((e) => (e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message))
    .join("; ")

/** A field whose decoded value is the input itself: a keyword, a literal, or a union of them. */
const isPlainField = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UnknownKeyword":
    case "AnyKeyword":
    case "UndefinedKeyword":
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
export const decodesToItself = <A, I>(schema: Schema.Schema<A, I>): ((u: unknown) => u is A) | undefined => {
  const ast = AST.typeAST(schema.ast)
  if (ast !== AST.encodedAST(schema.ast) || ast._tag !== "TypeLiteral" || ast.indexSignatures.length > 0) {
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
