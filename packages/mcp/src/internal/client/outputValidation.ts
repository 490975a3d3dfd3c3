/**
 * The client's check of `structuredContent` against the `outputSchema` of a
 * listed tool (a tool never listed is not checked). A tool error is not
 * checked: it need not carry structured content. Any JSON Schema object is
 * compiled, so a 2026-07-28 tool's non-object schema (`{ "type": "string" }`)
 * checks a non-object value the same way.
 */
import Ajv2020 from "ajv/dist/2020.js"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { ProtocolError } from "../../McpError.js"
import type { CallToolResult, Tool } from "../../McpClient.js"

export interface OutputValidation {
  /** Remembers (or forgets) the output schemas of listed tools. */
  readonly remember: (tools: ReadonlyArray<Tool>) => void
  /** The result, or `InvalidResult` when it does not keep to the tool's output schema. */
  readonly check: (
    name: string,
    result: CallToolResult
  ) => Effect.Effect<CallToolResult, ProtocolError>
  /** `check`, as a value (for a check made where the response is read). */
  readonly checkEither: (
    name: string,
    result: CallToolResult
  ) => Result.Result<CallToolResult, ProtocolError>
}

const invalid = (message: string) => new ProtocolError({ reason: "InvalidResult", method: "tools/call", message })

export const make = (): OutputValidation => {
  // made when the first output schema is seen: building one costs more than a session's handshake
  let ajv: InstanceType<typeof Ajv2020.default> | undefined
  const validators = new Map<string, (u: unknown) => boolean>()
  const checkEither: OutputValidation["checkEither"] = (name, result) => {
    const validate = validators.get(name)
    if (validate === undefined || result.isError === true) return Result.succeed(result)
    if (result.structuredContent === undefined) {
      return Result.fail(invalid(`Tool ${name} has an output schema but returned no structuredContent`))
    }
    return validate(result.structuredContent)
      ? Result.succeed(result)
      : Result.fail(invalid(`Tool ${name} returned structuredContent that does not match its output schema`))
  }
  return {
    remember: (tools) => {
      for (const t of tools) {
        if (t.outputSchema === undefined) {
          validators.delete(t.name)
          continue
        }
        try {
          // a top-level `$id` would make a second compile (the tool listed again) throw
          const { $id: _id, ...schema } = t.outputSchema as { readonly [key: string]: unknown }
          ajv ??= new Ajv2020.default({ strict: false, allErrors: true })
          const validate = ajv.compile(schema)
          validators.set(t.name, (u) => validate(u) as boolean)
        } catch {
          validators.delete(t.name)
        }
      }
    },
    check: (name, result) => {
      const checked = checkEither(name, result)
      return Result.isSuccess(checked) ? Effect.succeed(checked.success) : Effect.fail(checked.failure)
    },
    checkEither
  }
}
