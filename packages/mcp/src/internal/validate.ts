/**
 * Validation for the wire schemas of `McpSchema`, whose decoded type is the
 * wire shape itself: a value that already is one is used as it is (no copy),
 * and only a value that is not gets the full decoder, for its error.
 * @internal
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

export const validator = <A, I>(
  schema: Schema.Schema<A, I>
): (u: unknown) => Either.Either<A, ParseResult.ParseIssue> => {
  const is = Schema.is(schema)
  const decode = ParseResult.decodeUnknownEither(schema, { errors: "all" })
  return (u) => (is(u) ? Either.right(u as A) : decode(u))
}

/** A parse issue as one line: `path: message` per failure, joined with `; `. */
export const formatIssue = (issue: ParseResult.ParseIssue): string =>
  ParseResult.ArrayFormatter.formatIssueSync(issue)
    .map((e) => (e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message))
    .join("; ")
