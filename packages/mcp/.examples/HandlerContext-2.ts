import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as Effect from "effect/Effect"

const summary = (text: string) =>
  Effect.gen(function*() {
    const ctx = yield* HandlerContext
    const result = yield* ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: `Summarize:\n${text}` } }],
      systemPrompt: "You write one-sentence summaries.",
      maxTokens: 100
    })
    const content = Array.isArray(result.content) ? result.content[0] : result.content
    return content?.type === "text" ? content.text : ""
  })
export {}
