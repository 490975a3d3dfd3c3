import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as Effect from "effect/Effect"

const rootUris = Effect.gen(function*() {
  const ctx = yield* HandlerContext
  const { roots } = yield* ctx.listRoots()
  return roots.map((root) => root.uri) // ["file:///home/me/project", …]
})
export {}
