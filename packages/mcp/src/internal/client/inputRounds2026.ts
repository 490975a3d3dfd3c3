/**
 * Multi-round-trip requests on the 2026-07-28 path, the client's side. A
 * request answered with an `InputRequiredResult` has each of its input
 * requests answered by the same handlers that answer server→client requests
 * on the 2025 path (`reverseCalls.answer`), and is sent again with a new id,
 * its original params, `inputResponses` and the exact `requestState` (none
 * when the server sent none), for at most `maxRounds` rounds. Rounds belong
 * to one call: nothing of one call's rounds reaches another. Interrupting the
 * call interrupts the round in flight (and cancels its request on the wire).
 */
import * as Effect from "effect/Effect"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ErrorResponse } from "../../McpError.js"
import { ProtocolError } from "../../McpError.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import * as Telemetry from "../telemetry.js"
import { tracing } from "../tracing.js"
import type { ClientError, Send } from "./envelope2026.js"

/** Answers a server→client request with the client's handlers (`reverseCalls.answer`). */
export type Answer = (method: string, params: unknown) => Effect.Effect<Protocol.Result, ErrorResponse>

/**
 * The responses to the input requests of an answer to `method`, by key; `meta` is the answer's
 * `_meta` (the trace context of the server's round, the parent of the handlers' spans).
 */
export type Fulfil = (
  method: string,
  requests: McpSchema2026.InputRequests,
  meta?: unknown
) => Effect.Effect<Record<string, Protocol.Result>, ProtocolError>

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const inputRequestFailed = (method: string, key: string, inner: string, message: string) =>
  new ProtocolError({
    reason: "InputRequest",
    method,
    message: `The server asked for input (${inner} "${key}") and the client's handler failed: ${message}`
  })

/** Each input request answered by `answer`; a handler's failure fails them all. */
export const fulfil = (answer: Answer): Fulfil => (method, requests, meta) =>
  Effect.forEach(Object.entries(requests), ([key, inner]) =>
    Effect.map(
      Effect.mapError(traced(inner.method, inner.params, meta, answer(inner.method, inner.params)), (e) =>
        inputRequestFailed(method, key, inner.method, e.message)),
      (result) => [key, result] as const
    )).pipe(Effect.map((entries) => Object.fromEntries(entries)))

/** An input request's answer in a span of its own (the reverse call of this era), under a tracer that collects spans. */
const traced = <A, E>(method: string, params: unknown, meta: unknown, answering: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.withFiber((fiber) => tracing(fiber) ? Telemetry.answeringInput(method, params, meta, answering) : answering)

/** Why an `InputRequiredResult` cannot be answered, if it cannot: a malformed one, or one round too many. */
const refused = (method: string, result: Protocol.Result, done: number, maxRounds: number): ProtocolError | undefined => {
  const { inputRequests, requestState } = result
  if (
    (inputRequests !== undefined && !isObject(inputRequests)) ||
    (requestState !== undefined && typeof requestState !== "string") ||
    (inputRequests === undefined && requestState === undefined)
  ) {
    return new ProtocolError({
      reason: "InvalidResult",
      method,
      message: `Invalid ${method} result: an InputRequiredResult needs inputRequests (an object) or requestState (a string)`
    })
  }
  return done >= maxRounds
    ? new ProtocolError({ reason: "LimitExceeded", method, message: `${method} still asked for input after ${maxRounds} rounds` })
    : undefined
}

/** The params of the next round: the original ones, the responses, the state as the server sent it. */
const nextParams = (params: JsonRpc.Params | undefined, result: Protocol.Result, inputResponses: Record<string, unknown>) => ({
  ...params,
  ...(result.inputRequests === undefined ? {} : { inputResponses }),
  ...(result.requestState === undefined ? {} : { requestState: result.requestState })
})

/** `send`, with the rounds of the request answered until it completes. */
export const rounds = (options: { readonly send: Send; readonly fulfil: Fulfil; readonly maxRounds: number }) =>
(
  method: string,
  params: JsonRpc.Params | undefined,
  requestOptions: Protocol.RequestOptions | undefined
): Effect.Effect<Protocol.Result, ClientError> => {
  const round = (retry: JsonRpc.Params | undefined, done: number): Effect.Effect<Protocol.Result, ClientError> =>
    Effect.flatMap(options.send(method, retry, requestOptions), (result) => {
      if (McpSchema2026.resultTypeOf(result) !== McpSchema2026.RESULT_TYPE_INPUT_REQUIRED) return Effect.succeed(result)
      const refusal = refused(method, result, done, options.maxRounds)
      if (refusal !== undefined) return Effect.fail(refusal)
      const requests = (result.inputRequests ?? {}) as McpSchema2026.InputRequests
      return Effect.flatMap(options.fulfil(method, requests, result._meta), (inputResponses) =>
        round(nextParams(params, result, inputResponses), done + 1))
    })
  return round(params, 0)
}
