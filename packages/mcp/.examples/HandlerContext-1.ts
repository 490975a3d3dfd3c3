import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as Effect from "effect/Effect"

const handler = Effect.gen(function*() {
  const ctx = yield* HandlerContext
  yield* ctx.progress(1, { total: 2, message: "asking the model" })
  const answer = yield* ctx.sample({
    messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
    maxTokens: 50
  })
  return answer.content
})
export {}
