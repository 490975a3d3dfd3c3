import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as Effect from "effect/Effect"

const warnSlow = (ms: number) =>
  Effect.flatMap(HandlerContext, (ctx) => ctx.log("warning", { slowQueryMs: ms }, "database"))
export {}
