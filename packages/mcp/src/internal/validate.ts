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
import * as Formatter from "effect/Formatter"
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
  const decode = SchemaParser.decodeUnknownResult(schema, { errors: "all", reportInput: true })
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

/** Effect 3's rendering of a value in a message (`"a"`, `1`, `{"a":1}`): Effect 4's `Formatter.format` is the same on JSON values. */
const formatActual = (issue: SchemaIssue.Issue): string | undefined =>
  SchemaIssue.hasInput(issue) ? Formatter.format(issue.input) : undefined

/** `Expected <expected>, actual <value>` (Effect 3), or `Expected <expected>` when the parser did not report the input. */
const expectedMessage = (expected: string, issue: SchemaIssue.Issue): string => {
  const actual = formatActual(issue)
  return actual === undefined ? `Expected ${expected}` : `Expected ${expected}, actual ${actual}`
}

type Annotations = { readonly [key: string]: unknown } | undefined

const stringAnnotation = (annotations: Annotations, key: string): string | undefined => {
  const value = annotations?.[key]
  return typeof value === "string" ? value : undefined
}

/** The annotations a node carries last: those of its last check when it has checks (where `.annotate` puts them). */
const lastAnnotations = (ast: AST.AST): Annotations =>
  ast.checks !== undefined && ast.checks.length > 0 ? ast.checks[ast.checks.length - 1]!.annotations : ast.annotations

/**
 * Effect 3's description and title of its built-in filter of the same meaning (`between(1, 10)`:
 * `a number between 1 and 10`), from the check's persisted identity; `isMinLength` and friends
 * are Effect 3's string or array filters after the value they rejected.
 */
const v3Filter = (check: AST.Check<unknown>, input: unknown): { readonly title?: string; readonly description: string } | undefined => {
  const representation = check.annotations?.representation as { readonly id?: unknown; readonly payload?: unknown } | undefined
  if (representation === undefined || typeof representation.id !== "string") return undefined
  const p = (typeof representation.payload === "object" && representation.payload !== null ? representation.payload : {}) as {
    readonly [key: string]: unknown
  }
  const array = Array.isArray(input)
  const quoted = (key: string) => JSON.stringify(p[key])
  switch (representation.id) {
    case "effect/schema/isGreaterThan":
      return {
        title: `greaterThan(${p.exclusiveMinimum})`,
        description: p.exclusiveMinimum === 0 ? "a positive number" : `a number greater than ${p.exclusiveMinimum}`
      }
    case "effect/schema/isGreaterThanOrEqualTo":
      return {
        title: `greaterThanOrEqualTo(${p.minimum})`,
        description: p.minimum === 0 ? "a non-negative number" : `a number greater than or equal to ${p.minimum}`
      }
    case "effect/schema/isLessThan":
      return {
        title: `lessThan(${p.exclusiveMaximum})`,
        description: p.exclusiveMaximum === 0 ? "a negative number" : `a number less than ${p.exclusiveMaximum}`
      }
    case "effect/schema/isLessThanOrEqualTo":
      return {
        title: `lessThanOrEqualTo(${p.maximum})`,
        description: p.maximum === 0 ? "a non-positive number" : `a number less than or equal to ${p.maximum}`
      }
    case "effect/schema/isBetween":
      return p.exclusiveMinimum === true || p.exclusiveMaximum === true ?
        undefined :
        { title: `between(${p.minimum}, ${p.maximum})`, description: `a number between ${p.minimum} and ${p.maximum}` }
    case "effect/schema/isMultipleOf":
      return { title: `multipleOf(${p.divisor})`, description: `a number divisible by ${p.divisor}` }
    case "effect/schema/isInt":
      return { title: "int", description: "an integer" }
    case "effect/schema/isFinite":
      return { title: "finite", description: "a finite number" }
    case "effect/schema/isMinLength":
      return array ?
        { title: `minItems(${p.minLength})`, description: `an array of at least ${p.minLength} item(s)` } :
        p.minLength === 1 ?
        // isNonEmpty and isMinLength(1) are one check on Effect 4: named as Schema.NonEmptyString was
        { title: "nonEmptyString", description: "a non empty string" } :
        { title: `minLength(${p.minLength})`, description: `a string at least ${p.minLength} character(s) long` }
    case "effect/schema/isMaxLength":
      return array ?
        { title: `maxItems(${p.maxLength})`, description: `an array of at most ${p.maxLength} item(s)` } :
        { title: `maxLength(${p.maxLength})`, description: `a string at most ${p.maxLength} character(s) long` }
    case "effect/schema/isBetweenLength":
      if (array) {
        return p.minimum === p.maximum ?
          { title: `itemsCount(${p.minimum})`, description: `an array of exactly ${p.minimum} item(s)` } :
          undefined
      }
      return p.minimum === p.maximum ?
        { title: `length(${p.minimum})`, description: `a string ${p.minimum} character(s) long` } :
        {
          title: `length({ min: ${p.minimum}, max: ${p.maximum})`,
          description: `a string at least ${p.minimum} character(s) and at most ${p.maximum} character(s) long`
        }
    case "effect/schema/isPattern":
      return { description: `a string matching the pattern ${p.source}` }
    case "effect/schema/isStartingWith":
      return { title: `startsWith(${quoted("startsWith")})`, description: `a string starting with ${quoted("startsWith")}` }
    case "effect/schema/isEndingWith":
      return { title: `endsWith(${quoted("endsWith")})`, description: `a string ending with ${quoted("endsWith")}` }
    case "effect/schema/isIncluding":
      return { title: `includes(${quoted("includes")})`, description: `a string including ${quoted("includes")}` }
    case "effect/schema/isTrimmed":
      return { title: "trimmed", description: "a string with no leading or trailing whitespace" }
    case "effect/schema/isLowercased":
      return { title: "lowercased", description: "a lowercase string" }
    case "effect/schema/isUppercased":
      return { title: "uppercased", description: "an uppercase string" }
    case "effect/schema/isUUID":
      return p.version === null || p.version === undefined ? { description: "a Universally Unique Identifier" } : undefined
    default:
      return undefined
  }
}

/** Effect 3's keyword names. */
const KEYWORD_NAMES: { readonly [tag: string]: string } = {
  Null: "null",
  Undefined: "undefined",
  Void: "void",
  Never: "never",
  Unknown: "unknown",
  Any: "any",
  String: "string",
  Number: "number",
  Boolean: "boolean",
  BigInt: "bigint",
  Symbol: "symbol",
  ObjectKeyword: "object"
}

/**
 * A schema named as Effect 3's `String(ast)` named it: its identifier, else its structure
 * (`boolean`, `{ readonly a: string; readonly b?: number | undefined }`, `ReadonlyArray<string>`,
 * `"a" | "b"`). `withChecks`: a node with checks is named after its last check, as Effect 3
 * named a refinement (`between(1, 10)`, `{ number | filter }`). A `title` or `description` is
 * never the name: it is the label a form or a model reads (`title: "Delete it?"`), not a type,
 * and `Expected Delete it?, actual "yes"` would hide what was expected (Effect 3 named by them).
 */
const astName = (ast: AST.AST, withChecks: boolean, seen: Set<AST.AST> = new Set()): string => {
  if (withChecks && ast.checks !== undefined && ast.checks.length > 0) {
    const check = ast.checks[ast.checks.length - 1]!
    const annotations = check.annotations as Annotations
    const named = stringAnnotation(annotations, "identifier") ?? v3Filter(check, undefined)?.title ??
      stringAnnotation(annotations, "expected")
    return named ?? `{ ${astName(ast, false, seen)} | filter }`
  }
  const annotations = ast.annotations as Annotations
  const identifier = stringAnnotation(annotations, "identifier")
  if (identifier !== undefined) return identifier
  const keyword = KEYWORD_NAMES[ast._tag]
  if (keyword !== undefined) return keyword
  if (seen.has(ast)) return "<suspended schema>"
  const inner = (a: AST.AST) => astName(a, true, new Set(seen).add(ast))
  switch (ast._tag) {
    case "Literal":
      return Formatter.format(ast.literal)
    case "UniqueSymbol":
      return Formatter.format(ast.symbol)
    case "Union":
      return ast.types.map(inner).join(" | ")
    case "Objects": {
      const readonly = (a: AST.AST) => (a.context?.isMutable === true ? "" : "readonly ")
      const members = [
        ...ast.propertySignatures.map((ps) =>
          `${readonly(ps.type)}${String(ps.name)}${AST.isOptional(ps.type) ? "?" : ""}: ${inner(ps.type)}`
        ),
        ...ast.indexSignatures.map((is) => `${readonly(is.type)}[x: ${inner(is.parameter)}]: ${inner(is.type)}`)
      ]
      return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`
    }
    case "Arrays": {
      const elements = ast.elements.map((e) => inner(e) + (AST.isOptional(e) ? "?" : ""))
      const [head, ...tail] = ast.rest
      if (head === undefined) return `readonly [${elements.join(", ")}]`
      const h = inner(head)
      const wrapped = h.includes(" | ") ? `(${h})` : h
      const after = tail.length > 0 ? `, ${tail.map(inner).join(", ")}` : ""
      if (elements.length === 0 && tail.length === 0) return `ReadonlyArray<${h}>`
      return `readonly [${elements.length > 0 ? `${elements.join(", ")}, ` : ""}...${wrapped}[]${after}]`
    }
    case "Suspend": {
      const target = ast.thunk()
      const name = stringAnnotation(target.annotations as Annotations, "identifier") ??
        stringAnnotation(lastAnnotations(target), "identifier")
      return name ?? "<suspended schema>"
    }
    case "Declaration":
      return "<declaration schema>"
    default:
      return ast._tag
  }
}

/** The message of a failed filter (`undefined`: its inner issue speaks for itself), Effect 3's wording. */
const filterMessage = (issue: SchemaIssue.Filter): string | undefined => {
  const annotations = issue.filter.annotations as Annotations
  const message = stringAnnotation(annotations, "message") ?? ownMessage(issue.issue)
  if (message !== undefined || issue.issue._tag !== "InvalidValue") return message
  const input = SchemaIssue.hasInput(issue.issue) ? issue.issue.input : SchemaIssue.hasInput(issue) ? issue.input : undefined
  const inner = issue.issue.annotations as Annotations
  // a built-in check says what it expects first: a title or description on the field (`.annotate`
  // puts them on its last check) labels the field, it does not say what the check wants
  const expected = v3Filter(issue.filter, input)?.description ?? stringAnnotation(inner, "expected") ??
    stringAnnotation(annotations, "expected") ?? stringAnnotation(annotations, "description") ??
    stringAnnotation(annotations, "title") ?? "<filter>"
  return expectedMessage(expected, SchemaIssue.hasInput(issue.issue) ? issue.issue : issue)
}

/** A message annotation on the issue itself (`message`, `messageMissingKey`, `messageUnexpectedKey`). */
const ownMessage = (issue: SchemaIssue.Issue): string | undefined => {
  switch (issue._tag) {
    case "Pointer":
    case "Composite":
      return undefined
    case "Encoding":
      return ownMessage(issue.issue)
    case "Filter":
      return stringAnnotation(issue.filter.annotations as Annotations, "message")
    case "InvalidValue":
    case "Forbidden":
      return stringAnnotation(issue.annotations as Annotations, "message")
    case "MissingKey":
      return stringAnnotation(issue.annotations as Annotations, "messageMissingKey")
    case "UnexpectedKey":
      return stringAnnotation(issue.ast.annotations as Annotations, "messageUnexpectedKey")
    default:
      return stringAnnotation(issue.ast.annotations as Annotations, "message")
  }
}

/** The keys (or indexes) a struct or tuple expects, as Effect 3 listed them after `is unexpected, expected:`. */
const expectedKeys = (ast: AST.AST): string | undefined => {
  if (ast._tag === "Objects") {
    const keys = [
      ...ast.propertySignatures.map((ps) => (typeof ps.name === "string" ? JSON.stringify(ps.name) : String(ps.name))),
      ...ast.indexSignatures.map((is) => astName(is.parameter, true))
    ]
    return keys.length > 0 ? keys.join(" | ") : "never"
  }
  if (ast._tag === "Arrays") return ast.elements.length > 0 ? ast.elements.map((_, i) => String(i)).join(" | ") : "never"
  return undefined
}

type Line = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

/** The runtime type a value is tried against, as Effect's union candidates see it. */
const runtimeType = (u: unknown): string => (u === null ? "null" : Array.isArray(u) ? "array" : typeof u)

/** A struct member of a union discriminated by a literal field (Effect 3 and 4 only try it when that field matches). */
const discriminators = (ast: AST.AST): Array<PropertyKey> =>
  ast._tag === "Objects" ?
    ast.propertySignatures.filter((ps) => ps.type._tag === "Literal" && !AST.isOptional(ps.type)).map((ps) => ps.name) :
    []

/**
 * Whether Effect 4 skipped a union member for this input because of its runtime type (it tried the
 * others and reported their issues); `undefined` when that cannot be told cheaply.
 */
const skipped = (ast: AST.AST, input: unknown): boolean | undefined => {
  if (ast.encoding !== undefined) return undefined
  const type = runtimeType(input)
  switch (ast._tag) {
    case "Null":
    case "Undefined":
    case "String":
    case "Number":
    case "Boolean":
    case "BigInt":
    case "Symbol":
      return KEYWORD_NAMES[ast._tag] !== type
    case "Literal":
      return ast.literal !== input
    case "Arrays":
      return type !== "array"
    case "Objects":
      return ast.propertySignatures.length + ast.indexSignatures.length > 0 ? type !== "object" : undefined
    case "Union": {
      const inner = ast.types.map((m) => skipped(m, input))
      return inner.every((v) => v === true) ? true : inner.some((v) => v === undefined) ? undefined : false
    }
    default:
      return undefined
  }
}

/** The lines of a member skipped by runtime type: one per member of a nested union, as Effect 3 flattened them. */
const skippedLines = (ast: AST.AST, input: unknown, path: ReadonlyArray<PropertyKey>): Array<Line> =>
  ast._tag === "Union" && ast.checks === undefined && ast.annotations === undefined ?
    ast.types.flatMap((m) => skippedLines(m, input, path)) :
    [{ path, message: `Expected ${astName(ast, true)}, actual ${Formatter.format(input)}` }]

/**
 * A union's failure as Effect 3's parser reported it: every member it tried (all but the struct
 * members whose discriminator did not match) gives its own line, `Expected <member>, actual <value>`
 * for one the value's type ruled out; a value whose discriminator matches no member gets
 * `<key>: Expected "a" | "b", actual <its value>`. Effect 4 reports only the members it tried by
 * runtime type: the others' lines are made here, in member order.
 */
const unionLines = (issue: SchemaIssue.AnyOf, path: ReadonlyArray<PropertyKey>): Array<Line> => {
  const members = issue.ast.types
  if (!SchemaIssue.hasInput(issue)) {
    if (issue.issues.length > 0) return issue.issues.flatMap((i) => lines(i, path, undefined))
    return [{ path, message: expectedMessage(astName(issue.ast, false), issue) }]
  }
  const input = issue.input
  const keyed = members.map((m) => discriminators(m).length > 0)
  const out: Array<Line> = []
  if (issue.issues.length === 0 && keyed.some(Boolean) && runtimeType(input) === "object") {
    // no member's discriminator matched: Effect 3 named the literals of the first key they share
    const key = discriminators(members[keyed.indexOf(true)]!).find((k) =>
      members.every((m, i) => !keyed[i] || discriminators(m).includes(k))
    )
    const value = key !== undefined ? (input as { readonly [k: PropertyKey]: unknown })[key] : undefined
    if (key !== undefined && value !== undefined) {
      const literals = members.flatMap((m) => {
        if (m._tag !== "Objects") return []
        const ps = m.propertySignatures.find((p) => p.name === key)
        return ps === undefined ? [] : [astName(ps.type, true)]
      })
      out.push({ path: [...path, key], message: `Expected ${literals.join(" | ")}, actual ${Formatter.format(value)}` })
    }
  }
  const verdicts = members.map((m, i) => (keyed[i] ? undefined : skipped(m, input)))
  const tried = verdicts.filter((v) => v === false).length
  const exact = verdicts.every((v) => v !== undefined) && tried === issue.issues.length
  if (!exact) {
    out.push(...issue.issues.flatMap((i) => lines(i, path, undefined)))
    members.forEach((m, i) => {
      if (verdicts[i] === true) out.push(...skippedLines(m, input, path))
    })
    return out.length > 0 ? out : [{ path, message: expectedMessage(astName(issue.ast, false), issue) }]
  }
  let next = 0
  members.forEach((m, i) => {
    if (verdicts[i] === true) out.push(...skippedLines(m, input, path))
    else out.push(...lines(issue.issues[next++]!, path, undefined))
  })
  return out
}

const lines = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, override: string | undefined): Array<Line> => {
  switch (issue._tag) {
    case "Filter":
      return lines(issue.issue, path, override ?? filterMessage(issue))
    case "Encoding":
      return lines(issue.issue, path, override)
    case "Pointer":
      return lines(issue.issue, [...path, ...issue.path], override)
    case "Composite":
      return issue.issues.flatMap((i) => lines(i, path, override))
    case "AnyOf": {
      const message = override ?? ownMessage(issue)
      if (message !== undefined) return [{ path, message }]
      return unionLines(issue, path)
    }
    case "InvalidType":
      return [{ path, message: override ?? ownMessage(issue) ?? expectedMessage(astName(issue.ast, false), issue) }]
    case "MissingKey":
      return [{ path, message: override ?? ownMessage(issue) ?? "is missing" }]
    case "UnexpectedKey": {
      const keys = expectedKeys(issue.ast)
      return [{
        path,
        message: override ?? ownMessage(issue) ?? (keys === undefined ? "is unexpected" : `is unexpected, expected: ${keys}`)
      }]
    }
    case "Forbidden":
      return [{ path, message: override ?? ownMessage(issue) ?? "is forbidden" }]
    default:
      // InvalidValue outside a filter, OneOf: Effect 4's own wording (Effect 3 had no such issue)
      return [{ path, message: override ?? SchemaIssue.defaultLeafHook(issue) }]
  }
}

/**
 * A schema issue as one line, in Effect 3's `ArrayFormatter` wording (what went on the wire in
 * `-32602` texts before): `path: message` per failure (path segments joined with `.`), joined with
 * `; `. `Expected string, actual 1` (the `actual` part when the parser reported the input, as
 * {@link validator} has it), `is missing`, `is unexpected, expected: "a" | "b"`, a failed filter
 * as `Expected <its description>, actual <value>` with Effect 3's descriptions of its built-in
 * filters (`a number between 1 and 10`, `a string at least 2 character(s) long`, ...), a filter's
 * own `message` as is.
 */
export const formatIssue = (issue: SchemaIssue.Issue): string =>
  lines(issue, [], undefined)
    .map((line) => {
      const path = line.path.map((key) => String(key))
      return path.length > 0 ? `${path.join(".")}: ${line.message}` : line.message
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
