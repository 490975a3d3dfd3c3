/**
 * Where a 2026-07-28 request's reverse calls go: on a request that may answer
 * `InputRequiredResult` (`tools/call`, `prompts/get`, `resources/read`), the
 * server puts a round on the request before its handler runs
 * (`internal/server/inputRequired`), and the request's `HandlerContext`
 * asks the round for sampling, elicitation and roots the client declared;
 * everything else takes the fallback (the 2026 path's −32021 or refusal).
 */
import type * as Effect from "effect/Effect"
import type { ReverseCall } from "../../HandlerContext.js"
import type * as JsonRpc from "../../JsonRpc.js"
import * as Lifecycle from "../../Lifecycle.js"
import type { McpError, ProtocolError } from "../../McpError.js"
import type { Result } from "../../Protocol.js"

/** Asks for one input: the known answer, or the handler waits until the round ends and is interrupted. */
export type Ask = (
  method: string,
  params: JsonRpc.Params | undefined,
  inputKey: string | undefined
) => Effect.Effect<Result, McpError | ProtocolError>

const rounds = new WeakMap<object, Ask>()

/** Puts `ask` on a request (once, before its handler runs). */
export const install = (incoming: object, ask: Ask): void => {
  rounds.set(incoming, ask)
}

const INPUT_METHODS: ReadonlySet<string> = new Set(["sampling/createMessage", "elicitation/create", "roots/list"])

/**
 * The reverse calls of a 2026 request's context: the request's round, for an
 * input request of a capability the client declared; `fallback` otherwise.
 */
export const reverseCall = (
  incoming: object,
  capabilities: () => { readonly [key: string]: unknown } | undefined,
  fallback: ReverseCall
): ReverseCall =>
(method, params, options) => {
  const ask = rounds.get(incoming)
  return ask !== undefined && INPUT_METHODS.has(method) && Lifecycle.clientSupports(capabilities(), method, params)
    ? ask(method, params, options?.inputKey)
    : fallback(method, params, options)
}
