/**
 * Asking the user when the server sends sampling or elicitation requests and
 * no answer was given on the command line. Loaded only when stdin and stderr
 * are terminals; the questions go to stderr (see `Dialog`), so that stdout
 * keeps only the result.
 *
 * @since 0.1.0
 */
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Dialog from "./Dialog.js"
import { renderContent } from "./Render.js"

const describeSamplingContent = (content: unknown): string =>
  (Array.isArray(content) ? content : [content]).map((c) => renderContent(c)).join("\n")

/** Shows the messages of a sampling request and asks for the reply. */
export const sampling = (
  params: McpSchema.CreateMessageRequestParams
): Effect.Effect<McpSchema.CreateMessageResult, ErrorResponse, Dialog.Dialog> =>
  Effect.gen(function*() {
    const dialog = yield* Dialog.Dialog
    const lines = ["", "── the server asks for an LLM completion (sampling/createMessage) ──"]
    if (params.systemPrompt !== undefined) lines.push(`system: ${params.systemPrompt}`)
    for (const m of params.messages) lines.push(`[${m.role}] ${describeSamplingContent(m.content)}`)
    lines.push(`(maxTokens ${params.maxTokens})`)
    yield* dialog.say(lines.join("\n"))
    const action = yield* Dialog.select("Answer?", [
      { title: "reply", value: "reply" as const },
      { title: "reject", value: "reject" as const }
    ])
    if (action === "reject") return yield* new ErrorResponse({ code: -1, message: "The user rejected the sampling request" })
    const text = yield* Dialog.text("Reply")
    return { role: "assistant" as const, content: { type: "text" as const, text }, model: "emcp-user", stopReason: "endTurn" }
  }).pipe(
    Effect.catchTag("Cancelled", () => Effect.fail(new ErrorResponse({ code: -1, message: "The user cancelled the sampling request" })))
  )

type FieldSchema = { readonly [key: string]: unknown }

const arrayField = (label: string, s: FieldSchema) => {
  const items = (s.items ?? {}) as {
    readonly enum?: ReadonlyArray<string>
    readonly anyOf?: ReadonlyArray<{ const: string; title: string }>
  }
  const choices = items.anyOf !== undefined
    ? items.anyOf.map((o) => ({ title: o.title, value: o.const }))
    : (items.enum ?? []).map((v) => ({ title: v, value: v }))
  const defaults = new Set(Array.isArray(s.default) ? (s.default as ReadonlyArray<string>) : [])
  return Dialog.multiSelect(label, choices.map((c) => ({ ...c, selected: defaults.has(c.value) })), {
    ...(typeof s.minItems === "number" ? { min: s.minItems } : {}),
    ...(typeof s.maxItems === "number" ? { max: s.maxItems } : {})
  })
}

const enumField = (label: string, s: FieldSchema, required: boolean) => {
  const choices: Array<Dialog.Choice<string | undefined>> = Array.isArray(s.oneOf)
    ? (s.oneOf as ReadonlyArray<{ const: string; title: string }>).map((o) => ({ title: o.title, value: o.const }))
    : (s.enum as ReadonlyArray<string>).map((v, i) => ({
      title: Array.isArray(s.enumNames) && typeof s.enumNames[i] === "string" ? `${s.enumNames[i]} (${v})` : v,
      value: v
    }))
  if (typeof s.default === "string") {
    const at = choices.findIndex((c) => c.value === s.default)
    if (at > 0) choices.unshift(...choices.splice(at, 1))
  }
  if (!required) choices.push({ title: "(leave empty)", value: undefined })
  return Dialog.select(label, choices)
}

/** Asks for one field of an elicitation form; `undefined` leaves it out. */
export const field = (
  name: string,
  schema: McpSchema.PrimitiveSchemaDefinition,
  required: boolean
): Effect.Effect<unknown, Dialog.Cancelled, Dialog.Dialog> => {
  const s = schema as FieldSchema
  const label = `${typeof s.title === "string" ? s.title : name}${
    typeof s.description === "string" ? ` (${s.description})` : ""
  }${required ? "" : " [optional]"}`
  if (s.type === "array") return arrayField(label, s)
  if (s.type === "string" && (Array.isArray(s.enum) || Array.isArray(s.oneOf))) return enumField(label, s, required)
  if (s.type === "boolean") return Dialog.confirm(label, s.default === true)
  const numeric = s.type === "number" || s.type === "integer"
  const check = (value: string): Result.Result<string, string> => {
    if (value === "") return required ? Result.fail("required") : Result.succeed(value)
    if (numeric) {
      const n = Number(value)
      if (!Number.isFinite(n)) return Result.fail("not a number")
      if (s.type === "integer" && !Number.isInteger(n)) return Result.fail("not an integer")
    }
    return Result.succeed(value)
  }
  return Effect.map(
    Dialog.text(label, { ...(s.default !== undefined ? { default: String(s.default) } : {}), check }),
    (value) => (value === "" ? undefined : numeric ? Number(value) : value)
  )
}

/** Shows a form elicitation and asks whether to fill it in, then for each field. */
export const elicitForm = (
  params: McpSchema.ElicitRequestFormParams
): Effect.Effect<McpSchema.ElicitResult, never, Dialog.Dialog> =>
  Effect.gen(function*() {
    const dialog = yield* Dialog.Dialog
    yield* dialog.say(`\n── the server asks for input (elicitation/create) ──\n${params.message}`)
    const action = yield* Dialog.select("Respond?", [
      { title: "accept (fill in the form)", value: "accept" as const },
      { title: "decline", value: "decline" as const },
      { title: "cancel", value: "cancel" as const }
    ])
    if (action !== "accept") return { action }
    const required = new Set(params.requestedSchema.required ?? [])
    const content: Record<string, unknown> = {}
    for (const [name, schema] of Object.entries(params.requestedSchema.properties)) {
      const value = yield* field(name, schema, required.has(name))
      if (value !== undefined) content[name] = value
    }
    return { action: "accept" as const, content: content as NonNullable<McpSchema.ElicitResult["content"]> }
  }).pipe(Effect.catchTag("Cancelled", () => Effect.succeed({ action: "cancel" as const })))

/** Shows a URL elicitation and asks whether it was completed. */
export const elicitUrl = (
  params: McpSchema.ElicitRequestURLParams
): Effect.Effect<McpSchema.ElicitResult, never, Dialog.Dialog> =>
  Effect.gen(function*() {
    const dialog = yield* Dialog.Dialog
    yield* dialog.say(`\n── the server asks you to open a URL (elicitation/create) ──\n${params.message}\n${params.url}`)
    const ok = yield* Dialog.confirm("Did you complete it?", true)
    return { action: ok ? "accept" as const : "decline" as const }
  }).pipe(Effect.catchTag("Cancelled", () => Effect.succeed({ action: "cancel" as const })))

/** Runs a dialog on this process's terminal: stdin, and stderr for the questions. */
export const onTerminal = <A, E>(effect: Effect.Effect<A, E, Dialog.Dialog>): Effect.Effect<A, E> =>
  Effect.scoped(Effect.flatMap(Dialog.make(process.stdin, process.stderr), (d) => Effect.provideService(effect, Dialog.Dialog, d)))
