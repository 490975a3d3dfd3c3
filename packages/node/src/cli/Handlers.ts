/**
 * `emcp`'s answers to the server's requests: sampling and elicitation from
 * `--sampling-response` / `--elicit`, else from the user on a terminal, else
 * refused (sampling) or declined (elicitation); roots from `--root`.
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import type { OutputShape } from "./Output.js"
import type { Settings } from "./Settings.js"
import type { ElicitAnswer } from "./Values.js"

type Interactive = typeof import("./Interactive.js")

const fromFlag = (answer: ElicitAnswer): McpSchema.ElicitResult =>
  answer.action === "accept"
    ? { action: "accept", content: answer.content as NonNullable<McpSchema.ElicitResult["content"]> }
    : { action: answer.action }

const noSampling = new ErrorResponse({
  code: -1,
  message: "emcp cannot answer sampling/createMessage: no --sampling-response given and stdin is not a terminal"
})

/** The client's handlers for the settings: sampling, elicitation, roots (options of `McpClient.make`). */
export const clientHandlers = (
  settings: Settings,
  out: OutputShape
): Effect.Effect<Pick<McpClient.ClientOptions, "sampling" | "elicitation" | "roots">> =>
  Effect.gen(function*() {
    const prompts = yield* Semaphore.make(1)
    /** One prompt at a time, the progress bar hidden, the prompt module loaded on first use. */
    const ask = <A, E>(f: (m: Interactive) => Effect.Effect<A, E, never>) =>
      Effect.promise(() => import("./Interactive.js")).pipe(
        Effect.flatMap(f),
        (e) => out.pause(e),
        prompts.withPermits(1)
      )
    const interactive = out.streams.interactive

    const sampling: McpClient.SamplingHandler = (params) => {
      if (settings.samplingResponse !== undefined) return Effect.succeed(settings.samplingResponse)
      if (interactive) return ask((m) => m.onTerminal(m.sampling(params)))
      return Effect.fail(noSampling)
    }
    const elicitation: McpClient.ElicitationHandlers = {
      form: (params) =>
        settings.elicit !== undefined
          ? Effect.succeed(fromFlag(settings.elicit))
          : interactive
          ? ask((m) => m.onTerminal(m.elicitForm(params)))
          : Effect.succeed({ action: "decline" as const }),
      url: (params) =>
        settings.elicit !== undefined
          ? Effect.succeed(settings.elicit.action === "accept" ? { action: "accept" as const } : fromFlag(settings.elicit))
          : interactive
          ? ask((m) => m.onTerminal(m.elicitUrl(params)))
          : Effect.succeed({ action: "decline" as const })
    }
    // roots only when roots were given (the client declares what it is given)
    return { sampling, elicitation, ...(settings.roots.length > 0 ? { roots: settings.roots } : {}) }
  })
