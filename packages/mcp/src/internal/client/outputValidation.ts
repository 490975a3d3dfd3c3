/**
 * The client's check of `structuredContent` against the `outputSchema` of a
 * listed tool (a tool never listed is not checked). A tool error is not
 * checked: it need not carry structured content. Any JSON Schema object is
 * compiled, so a 2026-07-28 tool's non-object schema (`{ "type": "string" }`)
 * checks a non-object value the same way.
 *
 * The schema is compiled by `internal/jsonSchemaValidator.ts` (no `eval`: it
 * works under a strict Content-Security-Policy), loaded by a dynamic `import()`
 * when the first output schema is listed, so that a client (a browser bundle)
 * that never sees one does not carry it; `ready` waits for it, and the listing
 * calls end with it. A schema that cannot be compiled, or a validator that
 * could not be loaded, is never skipped: every call of that tool fails with
 * `InvalidResult`, saying why (turn `validateStructuredContent` off to take
 * such a tool's results unchecked).
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { ProtocolError } from "../../McpError.js"
import type { CallToolResult, Tool } from "../../McpClient.js"
import type * as JsonSchemaValidator from "../jsonSchemaValidator.js"

export interface OutputValidation {
  /** Remembers (or forgets) the output schemas of listed tools. */
  readonly remember: (tools: ReadonlyArray<Tool>) => void
  /** Waits until the schemas remembered so far are compiled (at once when they are). */
  readonly ready: Effect.Effect<void>
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

type Engine = typeof JsonSchemaValidator

/** The validator's module, loaded once for every client (`import()` on first need). */
let engine: Engine | undefined
let loading: Promise<Engine> | undefined
const load = (): Promise<Engine> =>
  loading ??= import("../jsonSchemaValidator.js").then((module) => (engine = module), (error: unknown) => {
    loading = undefined
    throw error
  })

/** A tool's check: the message a result fails with, or undefined when it keeps to the schema. */
type Check = (structuredContent: unknown) => string | undefined

const compiled = (module: Engine, schema: unknown): Check => {
  const compiled = module.compile(schema)
  if (compiled._tag === "Invalid") {
    const failure = `has an output schema that cannot be used to check its result: ${compiled.reason}`
    return () => failure
  }
  const validate = compiled.validate
  return (structuredContent) => {
    const failure = validate(structuredContent)
    return failure === undefined ? undefined : `returned structuredContent that does not match its output schema (${failure})`
  }
}

const stillLoading: Check = () =>
  "has an output schema whose validator was still loading when its result arrived (wait for the tools' listing before calling)"

export const make = (): OutputValidation => {
  const validators = new Map<string, Check>()
  // output schemas listed before the validator's module was loaded
  const pending = new Map<string, unknown>()
  const checkEither: OutputValidation["checkEither"] = (name, result) => {
    const validate = validators.get(name)
    if (validate === undefined || result.isError === true) return Result.succeed(result)
    if (result.structuredContent === undefined) {
      return Result.fail(invalid(`Tool ${name} has an output schema but returned no structuredContent`))
    }
    const failure = validate(result.structuredContent)
    return failure === undefined ? Result.succeed(result) : Result.fail(invalid(`Tool ${name} ${failure}`))
  }
  const compilePending = (module: Engine) => {
    for (const [name, schema] of pending) validators.set(name, compiled(module, schema))
    pending.clear()
  }
  const ready: Effect.Effect<void> = Effect.suspend(() =>
    pending.size === 0 ? Effect.void : Effect.tryPromise(load).pipe(
      Effect.match({
        onSuccess: compilePending,
        onFailure: (error) => {
          const failure = `has an output schema, and the validator could not be loaded: ${String(error.cause)}`
          for (const name of pending.keys()) validators.set(name, () => failure)
          pending.clear()
        }
      })
    )
  )
  return {
    remember: (tools) => {
      for (const t of tools) {
        if (t.outputSchema === undefined) {
          validators.delete(t.name)
          pending.delete(t.name)
        } else if (engine !== undefined) {
          pending.delete(t.name)
          validators.set(t.name, compiled(engine, t.outputSchema))
        } else {
          pending.set(t.name, t.outputSchema)
          validators.set(t.name, stillLoading)
        }
      }
    },
    ready,
    check: (name, result) => {
      const checked = checkEither(name, result)
      return Result.isSuccess(checked) ? Effect.succeed(checked.success) : Effect.fail(checked.failure)
    },
    checkEither
  }
}
