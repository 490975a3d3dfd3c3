/**
 * The client's check of `structuredContent` against the `outputSchema` of a
 * listed tool (a tool never listed is not checked). A tool error is not
 * checked: it need not carry structured content.
 *
 * The schema is compiled by `internal/jsonSchemaValidator.ts` (no `eval`: it
 * works under a strict Content-Security-Policy). A schema that cannot be
 * compiled is never skipped: every call of that tool fails with
 * `InvalidResult`, saying why (turn `validateStructuredContent` off to take
 * such a tool's results unchecked).
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { ProtocolError } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import * as JsonSchemaValidator from "../jsonSchemaValidator.js"

export interface OutputValidation {
  /** Remembers (or forgets) the output schemas of listed tools. */
  readonly remember: (tools: ReadonlyArray<McpSchema.Tool>) => void
  /** The result, or `InvalidResult` when it does not keep to the tool's output schema. */
  readonly check: (
    name: string,
    result: McpSchema.CallToolResult
  ) => Effect.Effect<McpSchema.CallToolResult, ProtocolError>
  /** `check`, as a value (for a check made where the response is read). */
  readonly checkEither: (
    name: string,
    result: McpSchema.CallToolResult
  ) => Result.Result<McpSchema.CallToolResult, ProtocolError>
}

const invalid = (message: string) => new ProtocolError({ reason: "InvalidResult", method: "tools/call", message })

export const make = (): OutputValidation => {
  // by tool name: the message a result fails with, or undefined when it keeps to the schema
  const validators = new Map<string, (structuredContent: unknown) => string | undefined>()
  const checkEither: OutputValidation["checkEither"] = (name, result) => {
    const validate = validators.get(name)
    if (validate === undefined || result.isError === true) return Result.succeed(result)
    if (result.structuredContent === undefined) {
      return Result.fail(invalid(`Tool ${name} has an output schema but returned no structuredContent`))
    }
    const failure = validate(result.structuredContent)
    return failure === undefined ? Result.succeed(result) : Result.fail(invalid(`Tool ${name} ${failure}`))
  }
  return {
    remember: (tools) => {
      for (const t of tools) {
        if (t.outputSchema === undefined) {
          validators.delete(t.name)
          continue
        }
        const compiled = JsonSchemaValidator.compile(t.outputSchema)
        if (compiled._tag === "Invalid") {
          const failure = `has an output schema that cannot be used to check its result: ${compiled.reason}`
          validators.set(t.name, () => failure)
          continue
        }
        const validate = compiled.validate
        validators.set(t.name, (structuredContent) => {
          const failure = validate(structuredContent)
          return failure === undefined ? undefined : `returned structuredContent that does not match its output schema (${failure})`
        })
      }
    },
    check: (name, result) => {
      const checked = checkEither(name, result)
      return Result.isSuccess(checked) ? Effect.succeed(checked.success) : Effect.fail(checked.failure)
    },
    checkEither
  }
}
