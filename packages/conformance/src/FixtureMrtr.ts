/**
 * The tools and the prompt the conformance suite's multi-round-trip scenarios
 * call (`input-required-result-*`, SEP-2322, 2026-07-28), with the names, keys
 * and texts they check. They are ordinary handlers making reverse calls
 * through `HandlerContext`: on a 2025 session these are requests to the
 * client, on 2026 the server answers `InputRequiredResult` and completes the
 * call on the retry.
 *
 * @since 0.1.0
 */
import { type ElicitationFields, HandlerContext, type ReverseCallOptions } from "@effect-mcp/mcp/HandlerContext"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"

const text = (t: string): McpSchema.CallToolResult => ({ content: [{ type: "text", text: t }] })

const elicit = <A, I extends ElicitationFields>(
  message: string,
  schema: Schema.Codec<A, I>,
  options?: ReverseCallOptions
) => Effect.flatMap(HandlerContext, (ctx) => ctx.elicit({ message, schema }, options))

const sample = (question: string, maxTokens: number, inputKey: string) =>
  Effect.flatMap(HandlerContext, (ctx) =>
    ctx.sample({ messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens }, { inputKey }))

const roots = Effect.flatMap(HandlerContext, (ctx) => ctx.listRoots({ inputKey: "client_roots" }))

const sampledText = (result: McpSchema.CreateMessageResult): string => {
  const content = Array.isArray(result.content) ? result.content[0] : result.content
  return content?.type === "text" ? content.text : ""
}

const Name = Schema.Struct({ name: Schema.String })
const Confirm = Schema.Struct({ ok: Schema.Boolean })
const Color = Schema.Struct({ color: Schema.String })
const Context = Schema.Struct({ context: Schema.String })

const askName = elicit("What is your name?", Name, { inputKey: "user_name" })

const Elicitation = McpServer.tool({
  name: "test_input_required_result_elicitation",
  description: "Asks the user's name (elicitation input request user_name)",
  handler: () => Effect.map(askName, ({ name }) => text(`Hello, ${name}!`))
})

const Sampling = McpServer.tool({
  name: "test_input_required_result_sampling",
  description: "Asks the client's model a question (sampling input request capital_question)",
  handler: () =>
    Effect.map(sample("What is the capital of France?", 100, "capital_question"), (r) => text(sampledText(r)))
})

const ListRoots = McpServer.tool({
  name: "test_input_required_result_list_roots",
  description: "Lists the client's roots (roots/list input request client_roots)",
  handler: () => Effect.map(roots, (r) => text(`Roots: ${r.roots.map((root) => root.uri).join(", ")}`))
})

const RequestState = McpServer.tool({
  name: "test_input_required_result_request_state",
  description: "Asks for a confirmation; the retry's requestState is verified before the answer is used",
  handler: () =>
    Effect.map(
      elicit("Please confirm", Confirm, { inputKey: "confirm" }),
      ({ ok }) => text(`state-ok: confirmed=${ok}`)
    )
})

const MultipleInputs = McpServer.tool({
  name: "test_input_required_result_multiple_inputs",
  description: "Asks for a name, a greeting and the roots at once (three input requests in one round)",
  handler: () =>
    Effect.map(
      Effect.all([askName, sample("Generate a greeting", 50, "greeting"), roots], { concurrency: "unbounded" }),
      ([{ name }, greeting, r]) => text(`${sampledText(greeting)} ${name} (${r.roots.length} roots)`)
    )
})

const MultiRound = McpServer.tool({
  name: "test_input_required_result_multi_round",
  description: "Asks for a name, then for a colour (two rounds)",
  handler: () =>
    Effect.gen(function*() {
      const { name } = yield* elicit("Step 1: What is your name?", Name, { inputKey: "step1" })
      const { color } = yield* elicit("Step 2: What is your favorite color?", Color, { inputKey: "step2" })
      return text(`${name} likes ${color}`)
    })
})

const TamperedState = McpServer.tool({
  name: "test_input_required_result_tampered_state",
  description: "Asks for a confirmation; a tampered requestState is refused with -32602",
  handler: () => Effect.map(elicit("Please confirm", Confirm, { inputKey: "confirm" }), ({ ok }) => text(`confirmed=${ok}`))
})

const Capabilities = McpServer.tool({
  name: "test_input_required_result_capabilities",
  description: "Asks the model and, if the client declared elicitation, the user: only declared capabilities are asked",
  handler: () =>
    Effect.map(
      Effect.all([sample("Say hello", 20, "model_hello"), Effect.result(askName)], { concurrency: "unbounded" }),
      ([hello, name]) => text(`${sampledText(hello)} ${Result.isSuccess(name) ? name.success.name : "(no elicitation)"}`)
    )
})

/** The multi-round-trip tools of the 2026-07-28 scenarios. */
export const MrtrTools = McpServer.register(
  Elicitation,
  Sampling,
  ListRoots,
  RequestState,
  MultipleInputs,
  MultiRound,
  TamperedState,
  Capabilities
)

const PromptWithInput = McpServer.prompt({
  name: "test_input_required_result_prompt",
  description: "A prompt that asks the user for its context first (input request user_context)",
  content: () =>
    Effect.map(
      elicit("What context should the prompt use?", Context, { inputKey: "user_context" }),
      ({ context }) => `Use this context: ${context}`
    )
})

/** The multi-round-trip prompt of the 2026-07-28 scenarios. */
export const MrtrPrompts = McpServer.register(PromptWithInput)
