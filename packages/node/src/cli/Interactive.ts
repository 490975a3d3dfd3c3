/**
 * Asking the user on the terminal when the server sends sampling or
 * elicitation requests and no answer was given on the command line. Loaded
 * only when stdin and stderr are terminals: it brings `@effect/cli`'s prompts
 * and the Node terminal. Prompts are drawn on stderr, so that stdout keeps
 * only the result.
 *
 * @since 0.1.0
 */
import * as Prompt from "@effect/cli/Prompt"
import type * as PlatformError from "@effect/platform/Error"
import * as Terminal from "@effect/platform/Terminal"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { McpError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Effect from "effect/Effect"
import type { OutputShape } from "./Output.js"
import { renderContent } from "./Render.js"

type PromptEnv = Prompt.Prompt.Environment

const writeTo = (stream: NodeJS.WriteStream, text: string): Effect.Effect<void> =>
  text === "" ? Effect.void : Effect.async<void>((resume) => {
    stream.write(text, () => resume(Effect.void))
  })

/** The terminal with prompts drawn on stderr, so that stdout keeps only the result. */
const stderrTerminal = Effect.map(Terminal.Terminal, (t) =>
  Terminal.Terminal.of({
    ...t,
    columns: Effect.sync(() => process.stderr.columns || 80),
    rows: Effect.sync(() => process.stderr.rows || 24),
    display: (text: string): Effect.Effect<void, PlatformError.PlatformError> => writeTo(process.stderr, text)
  }))


const runPrompt = <A>(prompt: Prompt.Prompt<A>): Effect.Effect<A, Terminal.QuitException, PromptEnv> =>
  Effect.flatMap(stderrTerminal, (terminal) => Effect.provideService(Prompt.run(prompt), Terminal.Terminal, terminal))

const describeSamplingContent = (content: unknown): string =>
  (Array.isArray(content) ? content : [content]).map((c) => renderContent(c)).join("\n")

export const samplingInteractive = (
  params: McpSchema.CreateMessageRequestParams,
  err: OutputShape
): Effect.Effect<McpSchema.CreateMessageResult, McpError, PromptEnv> =>
  Effect.gen(function*() {
    const lines = ["", "── the server asks for an LLM completion (sampling/createMessage) ──"]
    if (params.systemPrompt !== undefined) lines.push(`system: ${params.systemPrompt}`)
    for (const m of params.messages) lines.push(`[${m.role}] ${describeSamplingContent(m.content)}`)
    lines.push(`(maxTokens ${params.maxTokens})`)
    err.line(lines.join("\n"))
    const action = yield* runPrompt(Prompt.select({
      message: "Answer?",
      choices: [
        { title: "reply", value: "reply" as const },
        { title: "reject", value: "reject" as const }
      ]
    }))
    if (action === "reject") return yield* new McpError({ code: -1, message: "The user rejected the sampling request" })
    const text = yield* runPrompt(Prompt.text({ message: "Reply" }))
    return { role: "assistant" as const, content: { type: "text" as const, text }, model: "emcp-user", stopReason: "endTurn" }
  }).pipe(
    Effect.catchTag("QuitException", () => Effect.fail(new McpError({ code: -1, message: "The user cancelled the sampling request" })))
  )

/** Prompts for one field of an elicitation form; `undefined` leaves it out. */
const promptField = (
  name: string,
  schema: McpSchema.PrimitiveSchemaDefinition,
  required: boolean
): Effect.Effect<unknown, Terminal.QuitException, PromptEnv> => {
  const s = schema as { readonly [key: string]: unknown }
  const label = `${typeof s.title === "string" ? s.title : name}${typeof s.description === "string" ? ` (${s.description})` : ""}${required ? "" : " [optional]"}`
  const skip = { title: "(leave empty)", value: undefined as string | undefined }
  if (s.type === "array") {
    const items = (s.items ?? {}) as { readonly enum?: ReadonlyArray<string>; readonly anyOf?: ReadonlyArray<{ const: string; title: string }> }
    const choices = items.anyOf !== undefined
      ? items.anyOf.map((o) => ({ title: o.title, value: o.const }))
      : (items.enum ?? []).map((v) => ({ title: v, value: v }))
    const defaults = new Set(Array.isArray(s.default) ? (s.default as ReadonlyArray<string>) : [])
    return runPrompt(Prompt.multiSelect({
      message: label,
      choices: choices.map((c) => ({ ...c, selected: defaults.has(c.value) })),
      ...(typeof s.minItems === "number" ? { min: s.minItems } : {}),
      ...(typeof s.maxItems === "number" ? { max: s.maxItems } : {})
    }))
  }
  if (s.type === "string" && (Array.isArray(s.enum) || Array.isArray(s.oneOf))) {
    const choices: Array<{ title: string; value: string | undefined }> = Array.isArray(s.oneOf)
      ? (s.oneOf as ReadonlyArray<{ const: string; title: string }>).map((o) => ({ title: o.title, value: o.const }))
      : (s.enum as ReadonlyArray<string>).map((v, i) => ({
        title: Array.isArray(s.enumNames) && typeof s.enumNames[i] === "string" ? `${s.enumNames[i]} (${v})` : v,
        value: v
      }))
    if (typeof s.default === "string") {
      const at = choices.findIndex((c) => c.value === s.default)
      if (at > 0) choices.unshift(...choices.splice(at, 1))
    }
    if (!required) choices.push(skip)
    return runPrompt(Prompt.select({ message: label, choices }))
  }
  if (s.type === "boolean") {
    return runPrompt(Prompt.confirm({ message: label, initial: s.default === true }))
  }
  const numeric = s.type === "number" || s.type === "integer"
  return Effect.map(
    runPrompt(Prompt.text({
      message: label,
      ...(s.default !== undefined ? { default: String(s.default) } : {}),
      validate: (value) => {
        if (value === "") return required && s.default === undefined ? Effect.fail("required") : Effect.succeed(value)
        if (numeric) {
          const n = Number(value)
          if (!Number.isFinite(n)) return Effect.fail("not a number")
          if (s.type === "integer" && !Number.isInteger(n)) return Effect.fail("not an integer")
        }
        return Effect.succeed(value)
      }
    })),
    (value) => (value === "" ? undefined : numeric ? Number(value) : value)
  )
}

export const elicitFormInteractive = (
  params: McpSchema.ElicitRequestFormParams,
  err: OutputShape
): Effect.Effect<McpSchema.ElicitResult, never, PromptEnv> =>
  Effect.gen(function*() {
    err.line(`\n── the server asks for input (elicitation/create) ──\n${params.message}`)
    const action = yield* runPrompt(Prompt.select({
      message: "Respond?",
      choices: [
        { title: "accept (fill in the form)", value: "accept" as const },
        { title: "decline", value: "decline" as const },
        { title: "cancel", value: "cancel" as const }
      ]
    }))
    if (action !== "accept") return { action }
    const required = new Set(params.requestedSchema.required ?? [])
    const content: Record<string, unknown> = {}
    for (const [name, schema] of Object.entries(params.requestedSchema.properties)) {
      const value = yield* promptField(name, schema, required.has(name))
      if (value !== undefined) content[name] = value
    }
    return { action: "accept" as const, content: content as NonNullable<McpSchema.ElicitResult["content"]> }
  }).pipe(Effect.catchTag("QuitException", () => Effect.succeed({ action: "cancel" as const })))

export const elicitUrlInteractive = (
  params: McpSchema.ElicitRequestURLParams,
  err: OutputShape
): Effect.Effect<McpSchema.ElicitResult, never, PromptEnv> =>
  Effect.gen(function*() {
    err.line(`\n── the server asks you to open a URL (elicitation/create) ──\n${params.message}\n${params.url}`)
    const ok = yield* runPrompt(Prompt.confirm({ message: "Did you complete it?", initial: true }))
    return { action: ok ? "accept" as const : "decline" as const }
  }).pipe(Effect.catchTag("QuitException", () => Effect.succeed({ action: "cancel" as const })))


/** Runs a prompting effect with the Node terminal, file system and path. */
export const onTerminal = <A, E>(effect: Effect.Effect<A, E, PromptEnv>): Effect.Effect<A, E> =>
  Effect.provide(effect, NodeContext.layer)
