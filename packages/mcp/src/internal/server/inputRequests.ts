/**
 * The reverse calls a 2026-07-28 server asks as input requests (sampling,
 * elicitation, roots), shared by multi-round-trip requests
 * (`server/inputRequired`) and tasks (`tasks/era2026`): which methods they are,
 * their short names (the base of an input key), the wire encoding of a
 * question and the check of its answer.
 */
import type * as Result from "effect/Result"
import * as SchemaParser from "effect/SchemaParser"
import type * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as McpSchema2026 from "../schema2026/core.js"
import { validator } from "../validate.js"

export type InputMethod = keyof typeof McpSchema2026.InputRequestMethods

/** The short name of each input method: the base of its input key. */
export const SHORT: { readonly [M in InputMethod]: string } = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots"
}

export const isInputMethod = (method: string): method is InputMethod => Object.hasOwn(SHORT, method)

/** A question as it goes on the wire (`InputRequest`). */
export const encodeRequest = SchemaParser.encodeUnknownResult(McpSchema2026.InputRequest)

/** The check of an answer, per input method. */
export const answerValidators = Object.fromEntries(
  Object.entries(McpSchema2026.InputRequestMethods).map(([m, e]) => [m, validator(e.result as Schema.Codec<unknown, unknown>)])
) as { readonly [M in InputMethod]: (u: unknown) => Result.Result<unknown, SchemaIssue.Issue> }
