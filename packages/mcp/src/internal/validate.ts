/**
 * Validation for the wire schemas of `McpSchema`, whose decoded type is the
 * wire shape itself: a value that already is one is used as it is (no copy),
 * and only a value that is not gets the full decoder, for its error.
 * @internal
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * Made once per schema: `Schema.is` derives the schema's type side anew on every call, and a
 * parser for it (which the schema's own memo does not find, the AST being new), so a session
 * that made its validators itself paid for compiling them all (~30 KB per session, client side).
 */
const validators = new WeakMap<Schema.Schema.Any, (u: unknown) => Either.Either<unknown, ParseResult.ParseIssue>>()

export const validator = <A, I>(
  schema: Schema.Schema<A, I>
): (u: unknown) => Either.Either<A, ParseResult.ParseIssue> => {
  const known = validators.get(schema as Schema.Schema.Any)
  if (known !== undefined) return known as (u: unknown) => Either.Either<A, ParseResult.ParseIssue>
  const is = Schema.is(schema)
  const decode = ParseResult.decodeUnknownEither(schema, { errors: "all" })
  const validate = (u: unknown): Either.Either<A, ParseResult.ParseIssue> => (is(u) ? Either.right(u as A) : decode(u))
  validators.set(schema as Schema.Schema.Any, validate)
  return validate
}

/** A parse issue as one line: `path: message` per failure, joined with `; `. */
export const formatIssue = (issue: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(issue)
    .map((e) => (e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message))
    .join("; ")
