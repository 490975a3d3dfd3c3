import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as Effect from "effect/Effect"

const importAll = (files: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const ctx = yield* HandlerContext
    for (const [i, file] of files.entries()) {
      yield* ctx.progress(i, { total: files.length, message: `importing ${file}` })
      // … import the file
    }
  })
export {}
