/**
 * RFC 6570 URI Templates (levels 1–3, plus the simple parts of level 4).
 *
 * - `parse` turns a template string into a {@link UriTemplate}. It **throws** a
 *   {@link UriTemplateError} (an `Error` carrying the template, the offending
 *   position and a reason) when the template is malformed: unclosed `{`, stray
 *   `}`, nested `{`, empty expression, reserved operator (`= , ! @ |`), invalid
 *   variable name or invalid modifier.
 * - `expand` implements the RFC 6570 expansion algorithm for every operator
 *   (`{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`, `{;var}`, `{?var}`,
 *   `{&var}`), several variables per expression, and the level-4 prefix (`:n`)
 *   and explode (`*`) modifiers for string and list values (associative
 *   values are not supported).
 * - `match` is the inverse of `expand`: each template is compiled once (lazily,
 *   cached per template object) to an anchored `RegExp` whose literals are
 *   regex-escaped. Values are percent-decoded; lists come back as the
 *   comma-joined string.
 *
 * Matching rules (per expression type):
 * - `{var}` never crosses `/`, `?` or `#` (and, in a multi-variable expression,
 *   `,` separates the variables). The first variable of a `{var}` / `{+var}`
 *   expression is always reported (possibly as `""`); later ones only when
 *   present.
 * - `{+var}` / `{#var}` may contain anything (`/`, `?`, `#`, …).
 * - `{var}`, `{+var}` and `{#var}` match lazily (shortest first), so that a
 *   following expression gets its part: `{id}{.ext}` on `42.json` gives
 *   `id=42, ext=json`, `{+base}{?q}` on `http://x/y?q=1` gives `q=1`.
 * - `{.var}` / `{/var}` values never contain `/`, `?`, `#` nor their own
 *   separator; an exploded `{/list*}` matches several segments and is reported
 *   comma-joined.
 * - `{;x,y}`, `{?x,y}` and `{&x}` (adjacent `{?…}{&…}` / `{;…}{;…}`
 *   expressions are treated as one parameter list) accept any subset of
 *   their declared parameters in any order; unknown parameters do not match.
 *   A repeated parameter (`?l=a&l=b`, i.e. an exploded list) is reported
 *   comma-joined. `+` in a query is *not* treated as a space (RFC 6570 emits
 *   `%20`).
 * - The whole URI must be consumed; a variable used twice must match the same
 *   value both times; malformed percent-encoding does not match.
 *
 * Some templates are inherently ambiguous (`{x,y}` with `x` undefined,
 * `{a}{b}`, dotted values in `{.var}`…); `match` then returns *a* binding whose
 * expansion reproduces the URI whenever it returns one. Directly adjacent
 * value expressions (`{a}{b}{c}`) backtrack polynomially on long non-matching
 * URIs; separate them with literals when matching untrusted input.
 *
 * @example
 * ```ts
 * import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 *
 * const template = UriTemplate.parse("users://{id}{.format}")
 * UriTemplate.expand(template, { id: "42", format: "json" }) // "users://42.json"
 * UriTemplate.match(template, "users://42.json") // Option.some({ id: "42", format: "json" })
 * ```
 * @since 0.1.0
 */
import * as Option from "effect/Option"

// ---------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------

/**
 * An RFC 6570 expression operator (`""` is simple string expansion).
 * @since 0.1.0
 * @category models
 */
export type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&"

/**
 * A variable specification inside an expression, e.g. `var`, `list*`, `var:3`.
 * @since 0.1.0
 * @category models
 */
export interface VarSpec {
  readonly name: string
  readonly explode: boolean
  /** Level-4 prefix modifier (`:n`), `undefined` when absent. */
  readonly prefix: number | undefined
}

/**
 * Literal text between expressions, kept as written.
 * @since 0.1.0
 * @category models
 */
export interface Literal {
  readonly _tag: "Literal"
  readonly value: string
}

/**
 * A `{…}` expression: its operator and its variables.
 * @since 0.1.0
 * @category models
 */
export interface Expression {
  readonly _tag: "Expression"
  readonly operator: Operator
  readonly variables: ReadonlyArray<VarSpec>
}

/**
 * A piece of a parsed template.
 * @since 0.1.0
 * @category models
 */
export type Part = Literal | Expression

/**
 * A parsed template: the text it came from, its parts and its variable names.
 * @since 0.1.0
 * @category models
 */
export interface UriTemplate {
  readonly template: string
  /** Unique variable names, in order of first appearance. */
  readonly variableNames: ReadonlyArray<string>
  readonly parts: ReadonlyArray<Part>
}

/**
 * A value for `expand`: a string, a list of strings, or `undefined` (skipped).
 * @since 0.1.0
 * @category models
 */
export type Value = string | ReadonlyArray<string> | undefined

// ---------------------------------------------------------------------------
// Variables, typed from a template literal
// ---------------------------------------------------------------------------

type OperatorChar = Exclude<Operator, "">

/** The text of every `{…}` expression of a template. */
type ExpressionsOf<T extends string> = T extends `${string}{${infer E}}${infer Rest}` ? E | ExpressionsOf<Rest> : never

/** A variable's name without its modifier (`list*`, `var:3`). */
type VarNameOf<S extends string> = S extends `${infer N}*` ? N : S extends `${infer N}:${string}` ? N : S

type VarListOf<E extends string> = E extends `${OperatorChar}${infer List}` ? List : E

/** Every variable name of a comma-separated list. */
type NamesOf<L extends string> = L extends `${infer H},${infer T}` ? VarNameOf<H> | NamesOf<T> : VarNameOf<L>

/**
 * The variables `match` always reports for an expression: the first of a `{var}` or `{+var}`
 * expression (possibly `""`); every other one may be absent (a later `{a,b}`, every `{#…}`,
 * `{.…}`, `{/…}`, `{;…}`, `{?…}`, `{&…}`).
 */
type AlwaysOf<E extends string> = E extends `${Exclude<OperatorChar, "+">}${string}` ? never
  : VarListOf<E> extends `${infer H},${string}` ? VarNameOf<H>
  : VarNameOf<VarListOf<E>>

type Simplify<A> = { readonly [K in keyof A]: A[K] } & {}

/**
 * The variables `match` gives for a URI of template `T`, typed from the
 * template's text: a variable that is always matched is a `string`, one that
 * may be absent (query and path-segment expressions, the later variables of a
 * `{a,b}` expression) is optional. A template that is not a literal type is
 * `{ readonly [name: string]: string }`.
 *
 * @example
 * ```ts
 * import type * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 *
 * type Note = UriTemplate.Variables<"notes://{id}/{+path}{?rev}">
 * // { readonly id: string; readonly path: string; readonly rev?: string }
 * const note: Note = { id: "1", path: "a/b.md" }
 * ```
 * @since 0.1.0
 * @category type-level
 */
export type Variables<T extends string> = string extends T ? { readonly [name: string]: string }
  : Simplify<
    & { readonly [K in AlwaysOf<ExpressionsOf<T>>]: string }
    & { readonly [K in Exclude<NamesOf<VarListOf<ExpressionsOf<T>>>, AlwaysOf<ExpressionsOf<T>>>]?: string }
  >

/**
 * Thrown by {@link parse} for malformed templates.
 *
 * @example
 * ```ts
 * import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 *
 * try {
 *   UriTemplate.parse("users://{id")
 * } catch (error) {
 *   if (error instanceof UriTemplate.UriTemplateError) console.log(error.position, error.reason)
 * }
 * ```
 * @since 0.1.0
 * @category errors
 */
export class UriTemplateError extends Error {
  readonly _tag = "UriTemplateError" as const
  readonly template: string
  readonly position: number
  readonly reason: string
  constructor(template: string, position: number, reason: string) {
    super(`Invalid URI template ${JSON.stringify(template)} at position ${position}: ${reason}`)
    this.name = "UriTemplateError"
    this.template = template
    this.position = position
    this.reason = reason
  }
}

// ---------------------------------------------------------------------------
// Operators (RFC 6570 appendix A)
// ---------------------------------------------------------------------------

interface OperatorSpec {
  readonly first: string
  readonly sep: string
  readonly named: boolean
  readonly ifemp: string
  readonly reserved: boolean
}

const OPERATORS: { readonly [K in Operator]: OperatorSpec } = {
  "": { first: "", sep: ",", named: false, ifemp: "", reserved: false },
  "+": { first: "", sep: ",", named: false, ifemp: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, ifemp: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, ifemp: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, ifemp: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, ifemp: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifemp: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifemp: "=", reserved: false }
}

const OPERATOR_CHARS = "+#./;?&"
const RESERVED_OPERATOR_CHARS = "=,!@|"

const VARSPEC =
  /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*)(?:(\*)|:([0-9]+))?$/

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

/**
 * Parses an RFC 6570 template.
 *
 * @throws {UriTemplateError} when the template is malformed.
 * @example
 * ```ts
 * import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 *
 * const t = UriTemplate.parse("files://{+path}{?rev}")
 * t.variableNames // ["path", "rev"]
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const parse = (template: string): UriTemplate => {
  const parts: Array<Part> = []
  const names: Array<string> = []
  let literalStart = 0
  let i = 0
  const fail = (position: number, reason: string): never => {
    throw new UriTemplateError(template, position, reason)
  }
  const pushLiteral = (end: number) => {
    if (end > literalStart) parts.push({ _tag: "Literal", value: template.slice(literalStart, end) })
  }
  while (i < template.length) {
    const ch = template[i]
    if (ch === "}") fail(i, "unexpected '}' outside of an expression")
    if (ch !== "{") {
      i++
      continue
    }
    const end = template.indexOf("}", i + 1)
    if (end === -1) fail(i, "unclosed expression: '{' has no matching '}'")
    const nested = template.indexOf("{", i + 1)
    if (nested !== -1 && nested < end) fail(nested, "unexpected '{' inside an expression")
    pushLiteral(i)
    const expression = parseExpression(template, i + 1, end, fail)
    for (const v of expression.variables) if (!names.includes(v.name)) names.push(v.name)
    parts.push(expression)
    i = end + 1
    literalStart = i
  }
  pushLiteral(template.length)
  return { template, variableNames: names, parts }
}

const parseExpression = (
  template: string,
  start: number,
  end: number,
  fail: (position: number, reason: string) => never
): Expression => {
  let pos = start
  let operator: Operator = ""
  const c = template.charAt(start)
  if (OPERATOR_CHARS.includes(c)) {
    operator = c as Operator
    pos++
  } else if (RESERVED_OPERATOR_CHARS.includes(c)) {
    fail(start, `operator '${c}' is reserved for future extensions`)
  }
  if (pos === end) fail(start - 1, "empty expression")
  const variables: Array<VarSpec> = []
  for (const raw of template.slice(pos, end).split(",")) {
    const m = VARSPEC.exec(raw)
    if (m === null) fail(pos, `invalid variable specification ${JSON.stringify(raw)}`)
    const [, name, star, prefix] = m as RegExpExecArray
    let n: number | undefined = undefined
    if (prefix !== undefined) {
      n = Number(prefix)
      if (prefix.startsWith("0") || n < 1 || n > 9999) {
        fail(pos, `invalid prefix modifier in ${JSON.stringify(raw)} (expected :1 to :9999)`)
      }
    }
    variables.push({ name: name!, explode: star !== undefined, prefix: n })
    pos += raw.length + 1
  }
  return { _tag: "Expression", operator, variables }
}

/**
 * `true` when `s` contains at least one `{…}` expression (no validation: use {@link parse}).
 *
 * @example
 * ```ts
 * import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 *
 * UriTemplate.isTemplate("users://{id}") // true
 * UriTemplate.isTemplate("docs://readme") // false
 * ```
 * @since 0.1.0
 * @category guards
 */
export const isTemplate = (s: string): boolean => /\{[^{}]+\}/.test(s)

// ---------------------------------------------------------------------------
// Expansion
// ---------------------------------------------------------------------------

const textEncoder = new TextEncoder()

const isUnreserved = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ||
  c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e

const RESERVED_CHARS = ":/?#[]@!$&'()*+,;="

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c)

const pctEncode = (ch: string): string => {
  let out = ""
  for (const b of textEncoder.encode(ch)) out += "%" + b.toString(16).toUpperCase().padStart(2, "0")
  return out
}

/** Encodes everything outside `unreserved` (and `reserved` + pct-triplets when `allowReserved`). */
const encode = (s: string, allowReserved: boolean): string => {
  let out = ""
  let i = 0
  while (i < s.length) {
    const cp = s.codePointAt(i)!
    const ch = String.fromCodePoint(cp)
    i += ch.length
    if (isUnreserved(cp)) {
      out += ch
    } else if (allowReserved && RESERVED_CHARS.includes(ch)) {
      out += ch
    } else if (allowReserved && ch === "%" && isHex(s[i]) && isHex(s[i + 1])) {
      out += s.slice(i - 1, i + 2)
      i += 2
    } else {
      out += pctEncode(ch)
    }
  }
  return out
}

const lookup = (vars: Readonly<Record<string, Value>>, name: string): Value =>
  Object.hasOwn(vars, name) ? vars[name] : undefined

const prefixOf = (s: string, n: number): string => Array.from(s).slice(0, n).join("")

const expandExpression = (e: Expression, vars: Readonly<Record<string, Value>>): string => {
  const op = OPERATORS[e.operator]
  const enc = (s: string) => encode(s, op.reserved)
  const named = (name: string, encoded: string) => encoded === "" ? name + op.ifemp : `${name}=${encoded}`
  const pieces: Array<string> = []
  for (const v of e.variables) {
    const value = lookup(vars, v.name)
    if (value === undefined) continue
    if (typeof value === "string") {
      const encoded = enc(v.prefix === undefined ? value : prefixOf(value, v.prefix))
      pieces.push(op.named ? named(v.name, encoded) : encoded)
    } else {
      // Lists: an empty list is undefined; the prefix modifier does not apply.
      if (value.length === 0) continue
      if (v.explode) {
        pieces.push(value.map((item) => op.named ? named(v.name, enc(item)) : enc(item)).join(op.sep))
      } else {
        const joined = value.map(enc).join(",")
        pieces.push(op.named ? named(v.name, joined) : joined)
      }
    }
  }
  return pieces.length === 0 ? "" : op.first + pieces.join(op.sep)
}

/**
 * Expands a template (RFC 6570 §3). `undefined` values and empty lists are
 * skipped; lookups only consider own properties of `vars`.
 *
 * @example
 * ```ts
 * import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 *
 * const t = UriTemplate.parse("search://{?q,tags*}")
 * UriTemplate.expand(t, { q: "fibers and scopes", tags: ["effect", "mcp"] })
 * // "search://?q=fibers%20and%20scopes&tags=effect&tags=mcp"
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const expand = (t: UriTemplate, vars: Readonly<Record<string, Value>>): string => {
  let out = ""
  for (const part of t.parts) {
    out += part._tag === "Literal" ? encode(part.value, true) : expandExpression(part, vars)
  }
  return out
}

// ---------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------

type Capture =
  | { readonly _tag: "Value"; readonly name: string; readonly split: string | undefined }
  | { readonly _tag: "Params"; readonly sep: string; readonly names: ReadonlyArray<string> }

interface Matcher {
  readonly regex: RegExp
  readonly captures: ReadonlyArray<Capture>
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")

const compile = (t: UriTemplate): Matcher => {
  let source = "^"
  const captures: Array<Capture> = []
  const parts = t.parts
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]
    if (part._tag === "Literal") {
      const encoded = encode(part.value, true)
      source += encoded === part.value
        ? escapeRegExp(part.value)
        : `(?:${escapeRegExp(encoded)}|${escapeRegExp(part.value)})`
      continue
    }
    const op = part.operator
    switch (op) {
      case ";":
      case "?":
      case "&": {
        // Adjacent `{?a}{&b}` / `{;a}{;b}` form one parameter list.
        const continuation: Operator = op === ";" ? ";" : "&"
        const names = part.variables.map((v) => v.name)
        while (i + 1 < parts.length) {
          const next = parts[i + 1]
          if (next._tag !== "Expression" || next.operator !== continuation) break
          names.push(...next.variables.map((v) => v.name))
          i++
        }
        const unique = Array.from(new Set(names))
        const alternation = [...unique].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|")
        const sep = OPERATORS[op].sep
        const pair = op === ";"
          ? `(?:${alternation})(?:=[^;/?#]*)?`
          : `(?:${alternation})(?:=[^&#]*|(?=[&#]|$))`
        source += `((?:${escapeRegExp(op)}${pair}(?:${escapeRegExp(sep)}${pair})*)?)`
        captures.push({ _tag: "Params", sep, names: unique })
        break
      }
      case ".":
      case "/": {
        const cls = op === "." ? "[^/?#.]*" : "[^/?#]*"
        const sep = escapeRegExp(op)
        for (const v of part.variables) {
          source += `(?:${sep}(${v.explode ? `${cls}(?:${sep}${cls})*` : cls}))?`
          captures.push({ _tag: "Value", name: v.name, split: v.explode ? op : undefined })
        }
        break
      }
      case "":
      case "+":
      case "#": {
        const reserved = OPERATORS[op].reserved
        const single = part.variables.length === 1
        const cls = reserved ? "[\\s\\S]*?" : single ? "[^/?#]*?" : "[^/?#,]*?"
        let body = ""
        part.variables.forEach((v, k) => {
          const value = v.explode && !reserved && !single ? `${cls}(?:,${cls})*` : cls
          body += k === 0 ? `(${value})` : `(?:,(${value}))?`
          captures.push({ _tag: "Value", name: v.name, split: undefined })
        })
        source += op === "#" ? `(?:#${body})?` : body
        break
      }
    }
  }
  return { regex: new RegExp(source + "$"), captures }
}

const matchers = new WeakMap<UriTemplate, Matcher>()

const matcherFor = (t: UriTemplate): Matcher => {
  let m = matchers.get(t)
  if (m === undefined) {
    m = compile(t)
    matchers.set(t, m)
  }
  return m
}

const decode = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s)
  } catch {
    return undefined
  }
}

/** Binds `name`; a variable seen twice must have the same value. */
const assign = (result: Record<string, string>, name: string, value: string): boolean => {
  if (Object.hasOwn(result, name)) return result[name] === value
  Object.defineProperty(result, name, { value, enumerable: true, writable: true, configurable: true })
  return true
}

/**
 * URIs longer than this never match a template (64 Ki characters).
 * @since 0.1.0
 * @category constants
 */
export const MAX_MATCH_LENGTH = 65_536

/**
 * Matches a URI against a template (the inverse of {@link expand} for levels
 * 1–3). Returns the percent-decoded values of the variables present in the
 * URI, or `None` when the URI does not match.
 *
 * @example
 * ```ts
 * import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
 * import * as Option from "effect/Option"
 *
 * const t = UriTemplate.parse("users://{id}/posts{/post}")
 * UriTemplate.match(t, "users://42/posts/7") // Option.some({ id: "42", post: "7" })
 * Option.isNone(UriTemplate.match(t, "users://42/comments")) // true
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const match = (t: UriTemplate, uri: string): Option.Option<Record<string, string>> => {
  // URIs come from peers: adjacent expressions (`{a}{b}`) backtrack badly on long input
  if (uri.length > MAX_MATCH_LENGTH) return Option.none()
  const { captures, regex } = matcherFor(t)
  const m = regex.exec(uri)
  if (m === null) return Option.none()
  const result: Record<string, string> = {}
  for (let k = 0; k < captures.length; k++) {
    const raw: string | undefined = m[k + 1]
    if (raw === undefined) continue
    const capture = captures[k]
    if (capture._tag === "Value") {
      let value: string | undefined
      if (capture.split === undefined) {
        value = decode(raw)
      } else {
        const items = raw.split(capture.split).map(decode)
        value = items.some((item) => item === undefined) ? undefined : items.join(",")
      }
      if (value === undefined || !assign(result, capture.name, value)) return Option.none()
      continue
    }
    if (raw === "") continue
    const params = new Map<string, Array<string>>()
    for (const pair of raw.slice(1).split(capture.sep)) {
      const eq = pair.indexOf("=")
      const key = eq === -1 ? pair : pair.slice(0, eq)
      const value = decode(eq === -1 ? "" : pair.slice(eq + 1))
      if (value === undefined || !capture.names.includes(key)) return Option.none()
      const values = params.get(key)
      if (values === undefined) params.set(key, [value])
      else values.push(value)
    }
    for (const [key, values] of params) {
      if (!assign(result, key, values.join(","))) return Option.none()
    }
  }
  return Option.some(result)
}
