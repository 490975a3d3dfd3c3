/**
 * `logging/setLevel`: the threshold of the session's `notifications/message`
 * (see `ServerSession.log`).
 */
import * as Effect from "effect/Effect"
import type * as McpSchema from "../../McpSchema.js"
import type { Handlers } from "./request.js"

export const handlers: Handlers = {
  "logging/setLevel": (params: McpSchema.SetLevelRequestParams, { session }) =>
    Effect.sync(() => {
      session.logLevel = params.level
      return {}
    })
}
