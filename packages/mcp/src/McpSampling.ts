/**
 * A client's `sampling` handler backed by an effect/ai `LanguageModel`: a
 * server's `sampling/createMessage` becomes a `LanguageModel.generateText`.
 *
 * Mapped: the system prompt and the messages (text; images and audio as
 * files; `tool_use` as tool calls, `tool_result` as tool results), `tools`
 * (as tools the model may call and the server executes: the calls come back
 * as `tool_use` blocks, stop reason `"toolUse"`) and `toolChoice`
 * (`auto`/`required`/`none`). effect/ai's `LanguageModel` has no generic
 * setting for `maxTokens`, `temperature`, `stopSequences` or a model choice:
 * those are provider config (`OpenAiLanguageModel.withConfigOverride`, a
 * `Model` layer), so the handler gives them to `configure`, which wraps the
 * model call with them.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpSampling from "@effect-mcp/mcp/McpSampling"
 *
 * // Layer<McpClient, ClientError, Transport | LanguageModel>: the host's model answers the servers' sampling
 * const ClientLive = McpClient.layer({ name: "host", version: "1.0.0", sampling: McpSampling.handler() })
 * ```
 * @since 0.1.0
 */
import type * as AiError from "effect/ai/AiError"
import * as LanguageModel from "effect/ai/LanguageModel"
import { ModelName } from "effect/ai/Model"
import type * as Prompt from "effect/ai/Prompt"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Toolkit from "effect/ai/Toolkit"
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import type * as JsonSchema from "effect/JsonSchema"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Lifecycle from "./Lifecycle.js"
import type * as McpClient from "./McpClient.js"
import { ErrorResponse } from "./McpError.js"
import type * as McpSchema from "./McpSchema.js"

/**
 * What a `sampling/createMessage` asks of the generation, besides its
 * messages and tools: what `configure` applies.
 *
 * @example
 * ```ts
 * import type * as McpSampling from "@effect-mcp/mcp/McpSampling"
 *
 * const describe = (generation: McpSampling.Generation) =>
 *   `${generation.maxTokens} tokens at temperature ${generation.temperature ?? "default"}`
 * ```
 * @since 0.1.0
 * @category models
 */
export interface Generation {
  readonly maxTokens: number
  readonly temperature?: number | undefined
  readonly stopSequences?: ReadonlyArray<string> | undefined
  readonly modelPreferences?: McpSchema.ModelPreferences | undefined
  /** The request's provider-specific `metadata`. */
  readonly metadata?: { readonly [key: string]: unknown } | undefined
}

/**
 * Options of `handler`.
 *
 * @example
 * ```ts
 * import * as McpSampling from "@effect-mcp/mcp/McpSampling"
 *
 * const options: McpSampling.Options = { model: "my-model" }
 * const sampling = McpSampling.handler(options)
 * ```
 * @since 0.1.0
 * @category models
 */
export interface Options<R = never> {
  /**
   * Wraps each model call with the request's generation settings (a provider's
   * config override, a model chosen by the preferences). Default: none applied.
   */
  readonly configure?:
    | ((generation: Generation) => <A, E, R2>(generate: Effect.Effect<A, E, R2>) => Effect.Effect<A, E, R2 | R>)
    | undefined
  /** The `model` of the results (default: effect/ai's `Model.ModelName` in context, else `"effect-ai"`). */
  readonly model?: string | undefined
}

/**
 * The `sampling` handler of `McpClient.layer`, answering with the
 * `LanguageModel` in context (a requirement of the client's Layer). Declares
 * `sampling.tools`. A model failure is answered -32603: the protocol sends
 * it as "Internal error" without details (a provider's message may hold
 * internals) and logs the AiError, message included, on the client.
 *
 * A `tool_use` block in a user message is not sent to the model (effect/ai's
 * user messages hold text and files; a tool call is the assistant's); a
 * `tool_result` in any message is a tool message. A file the model writes
 * that is neither `image/` nor `audio/` has no sampling block: it is left out
 * of the answer, with a warning logged.
 *
 * The answer's shape follows the connection's protocol version. From
 * 2025-11-25 it is all the model's blocks (an array when there are several),
 * with `tool_use` blocks and stop reason `"toolUse"`. Before 2025-11-25 an
 * answer is one block. It is then the model's text parts joined (as
 * `response.text` joins them), or its first image or audio when it wrote no
 * text. A tool call is left out, and the stop reason is the model's, `endTurn`
 * for a tool call. What was left out is logged as a warning.
 *
 * `includeContext` is not acted on, which the spec allows a client. The
 * handler adds no context for `"thisServer"` or `"allServers"`: it sees one
 * request and the model, not the host's other sessions. (2025-11-25
 * soft-deprecates those two values.) A host that keeps such context can read
 * `params.includeContext` in its own handler and add it to the messages.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpSampling from "@effect-mcp/mcp/McpSampling"
 * import * as Effect from "effect/Effect"
 * import * as Context from "effect/Context"
 *
 * // a provider's config, as OpenAiLanguageModel.Config is
 * const MaxTokens = Context.Reference<number | undefined>("MaxTokens", { defaultValue: () => undefined })
 *
 * const ClientLive = McpClient.layer({
 *   name: "host",
 *   version: "1.0.0",
 *   sampling: McpSampling.handler({
 *     configure: (generation) => (generate) => Effect.provideService(generate, MaxTokens, generation.maxTokens)
 *   })
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const handler = <R = never>(options: Options<R> = {}): {
  readonly createMessage: (
    params: McpSchema.CreateMessageRequestParams,
    request: McpClient.SamplingRequest
  ) => Effect.Effect<McpSchema.CreateMessageResult, McpClient.HandlerError, LanguageModel.LanguageModel | R>
  readonly tools: true
} => ({
  tools: true,
  createMessage: (params, request) =>
    Effect.gen(function*() {
      const configure = options.configure?.(generationOf(params)) ?? (<A, E, R2>(self: Effect.Effect<A, E, R2>) => self)
      const response = yield* configure(generateFor(params)).pipe(
        Effect.mapError((error) => new ErrorResponse({ code: -32603, message: error.message }))
      )
      const model = options.model ?? Option.getOrElse(yield* Effect.serviceOption(ModelName), () => "effect-ai")
      return yield* resultOf(response.content, response.finishReason, model, request.protocolVersion)
    })
})

/** What the answer is made of. */
interface Generated {
  readonly content: ReadonlyArray<Response.AnyPart>
  readonly finishReason: Response.FinishReason
}

/** The model call of a request: its prompt, and its tools (called, not run: the server runs them). */
const generateFor = (
  params: McpSchema.CreateMessageRequestParams
): Effect.Effect<Generated, AiError.AiError, LanguageModel.LanguageModel> => {
  const prompt = promptOf(params)
  const tools = (params.tools ?? []).map((tool) =>
    Tool.dynamic(tool.name, {
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.inputSchema as JsonSchema.JsonSchema
    })
  )
  if (tools.length === 0) return LanguageModel.generateText({ prompt })
  // the calls are returned, not resolved, so the toolkit needs no handlers: typed as one of tools known at run time only
  const toolkit = Toolkit.make(...tools) as unknown as Effect.Effect<Toolkit.WithHandler<Record<string, Tool.Any>>>
  return LanguageModel.generateText({
    prompt,
    toolkit,
    toolChoice: params.toolChoice?.mode ?? "auto",
    disableToolCallResolution: true
  }) as Effect.Effect<Generated, AiError.AiError, LanguageModel.LanguageModel> // JSON Schema tools need no services
}

const generationOf = (params: McpSchema.CreateMessageRequestParams): Generation => ({
  maxTokens: params.maxTokens,
  ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
  ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
  ...(params.modelPreferences !== undefined ? { modelPreferences: params.modelPreferences } : {}),
  ...(params.metadata !== undefined ? { metadata: params.metadata } : {})
})

type Block = McpSchema.SamplingMessage["content"] extends infer C ? C extends ReadonlyArray<infer B> ? B : C : never

const bytesOf = (data: string): Uint8Array | string => {
  const bytes = Base64.decode(data)
  return Result.isSuccess(bytes) ? bytes.success : data
}

/** A message's blocks as prompt parts, its tool results apart (the tool names from earlier `tool_use` blocks). */
const partsOf = (blocks: ReadonlyArray<Block>, names: Map<string, string>) => {
  const parts: Array<Prompt.AssistantMessagePartEncoded> = []
  const results: Array<Prompt.ToolResultPartEncoded> = []
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push({ type: "text", text: block.text })
        break
      case "image":
      case "audio":
        parts.push({ type: "file", mediaType: block.mimeType, data: bytesOf(block.data) })
        break
      case "tool_use":
        names.set(block.id, block.name)
        parts.push({ type: "tool-call", id: block.id, name: block.name, params: block.input, providerExecuted: false })
        break
      case "tool_result":
        results.push({
          type: "tool-result",
          id: block.toolUseId,
          name: names.get(block.toolUseId) ?? "",
          isFailure: block.isError === true,
          result: block.structuredContent ?? block.content
        })
        break
    }
  }
  return { parts, results }
}

/** The prompt of a request: its system prompt, then its messages (tool results as tool messages). */
const promptOf = (params: McpSchema.CreateMessageRequestParams): Array<Prompt.MessageEncoded> => {
  const messages: Array<Prompt.MessageEncoded> = []
  if (params.systemPrompt !== undefined) messages.push({ role: "system", content: params.systemPrompt })
  const names = new Map<string, string>()
  for (const message of params.messages) {
    const blocks: ReadonlyArray<Block> = Array.isArray(message.content) ? message.content : [message.content as Block]
    const { parts, results } = partsOf(blocks, names)
    if (results.length > 0) messages.push({ role: "tool", content: results })
    if (parts.length === 0) continue
    if (message.role === "assistant") messages.push({ role: "assistant", content: parts })
    else {
      messages.push({
        role: "user",
        content: parts.filter((part): part is Prompt.UserMessagePartEncoded => part.type === "text" || part.type === "file")
      })
    }
  }
  return messages
}

/**
 * MCP's stop reasons: the spec's four (`"endTurn" | "stopSequence" | "maxTokens" | "toolUse"`) and, as the
 * spec allows provider-specific ones, the finish reasons effect/ai has no MCP name for (`"contentFilter"`, and
 * `"error"`, `"pause"`, `"other"`, `"unknown"` as they are).
 */
type StopReason = "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | "contentFilter" | "error" | "pause" | "other" | "unknown"

const STOP_REASONS: { readonly [R in Response.FinishReason]: StopReason } = {
  stop: "endTurn",
  length: "maxTokens",
  "tool-calls": "toolUse",
  "content-filter": "contentFilter",
  error: "error",
  pause: "pause",
  other: "other",
  unknown: "unknown"
}

type AnswerBlock = McpSchema.SamplingMessageContentBlock

/**
 * The response's text, files (images, audio) and tool calls as content blocks;
 * `files` names the media types of the files MCP has no block for (a PDF).
 */
const blocksOf = (
  parts: ReadonlyArray<Response.AnyPart>
): { readonly content: Array<AnswerBlock>; readonly files: ReadonlyArray<string> } => {
  const content: Array<AnswerBlock> = []
  const files: Array<string> = []
  for (const part of parts) {
    switch (part.type) {
      case "text":
        if (part.text.length > 0) content.push({ type: "text", text: part.text })
        break
      case "file": {
        const data = Base64.encode(part.data)
        if (part.mediaType.startsWith("image/")) content.push({ type: "image", data, mimeType: part.mediaType })
        else if (part.mediaType.startsWith("audio/")) content.push({ type: "audio", data, mimeType: part.mediaType })
        else files.push(part.mediaType)
        break
      }
      case "tool-call":
        content.push({
          type: "tool_use",
          id: part.id,
          name: part.name,
          input: (typeof part.params === "object" && part.params !== null ? part.params : {}) as { [key: string]: unknown }
        })
        break
    }
  }
  return { content, files }
}

/**
 * The one block an answer is before 2025-11-25: its text blocks joined (as
 * effect/ai's `response.text` joins them), else its first image or audio;
 * `dropped` names the blocks left out (`tool_use` never exists then).
 */
const singleBlockOf = (
  content: ReadonlyArray<AnswerBlock>
): { readonly block: AnswerBlock; readonly dropped: ReadonlyArray<string> } => {
  const texts = content.filter((block): block is Extract<AnswerBlock, { readonly type: "text" }> => block.type === "text")
  const block: AnswerBlock = texts.length > 0
    ? { type: "text", text: texts.map((text) => text.text).join("") }
    : content.find((block) => block.type === "image" || block.type === "audio") ?? { type: "text", text: "" }
  const kept: ReadonlyArray<AnswerBlock> = texts.length > 0 ? texts : [block]
  const dropped = content.filter((b) => !kept.includes(b)).map((b) => b.type)
  return { block, dropped }
}

/**
 * The answer, shaped for the protocol version: from 2025-11-25 its blocks
 * (one block as itself, several as an array), stop reason `toolUse` when the
 * model called a tool; before, one block (`singleBlockOf`, what was dropped
 * logged as a warning) and the model's own stop reason.
 */
const resultOf = (
  parts: ReadonlyArray<Response.AnyPart>,
  finishReason: Response.FinishReason,
  model: string,
  protocolVersion: string
): Effect.Effect<McpSchema.CreateMessageResult> => {
  const { content, files } = blocksOf(parts)
  const stop: StopReason = STOP_REASONS[finishReason]
  const warnFiles = files.length === 0 ? Effect.void : Effect.logWarning(
    `McpSampling: a sampling answer has image and audio blocks only; left out the model's files: ${files.join(", ")}`
  )
  if (!Lifecycle.allowsSamplingContentArrays(protocolVersion)) {
    const { block, dropped } = singleBlockOf(content)
    const result = { role: "assistant", content: block, model, stopReason: stop === "toolUse" ? "endTurn" : stop } as const
    return Effect.as(
      Effect.andThen(
        warnFiles,
        dropped.length === 0 ? Effect.void : Effect.logWarning(
          `McpSampling: protocol ${protocolVersion} allows one content block; left out: ${dropped.join(", ")}`
        )
      ),
      result
    )
  }
  const toolUse = content.some((block) => block.type === "tool_use")
  return Effect.as(warnFiles, {
    role: "assistant",
    content: content.length === 1 ? content[0]! : content.length === 0 ? { type: "text", text: "" } : content,
    model,
    stopReason: toolUse ? "toolUse" : stop
  })
}
