/**
 * Multi-round-trip requests (SEP-2322) on the 2026-07-28 path: the same
 * handler that makes reverse calls on a 2025 session answers
 * `InputRequiredResult` here, and is run again when the client retries.
 *
 * One round is one run of the handler. Each reverse call gets a key (its
 * `inputKey`, or one made from the method and a digest of the input request);
 * a call whose answer is known (recorded in the `requestState`, or in this
 * retry's `inputResponses`) returns it at once; one whose answer is not
 * becomes an input request and waits. Once the handler's fibers have had
 * their turns without asking more, the round ends: the asking fiber
 * interrupts itself, which ends the handler (it runs in the request's own
 * fiber: no fiber more per request), and the result lists every
 * input request asked, with a signed `requestState` carrying the answers so
 * far and the questions asked (see `requestState`). A retry that does not
 * answer a question asks it again; answers to questions not asked are
 * ignored.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Tracer from "effect/Tracer"
import * as Result from "effect/Result"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import { digestOf } from "../digest.js"
import * as InputRound from "./inputRound.js"
import type * as JsonRpc from "../../JsonRpc.js"
import { ErrorResponse } from "../../McpError.js"
import * as McpSchema2026 from "../schema2026/core.js"
import type * as Protocol from "../../Protocol.js"
import { ownerKey } from "../auth/principal.js"
import { answerValidators, encodeRequest, isInputMethod, SHORT } from "./inputRequests.js"
import { formatIssue } from "../validate.js"
import type * as RequestState from "./requestState.js"
import { canonicalJson } from "./requestState.js"
import type { Handler, Handlers, RequestEnv } from "./request.js"
import * as TraceContext from "../traceContext.js"
import { tracing } from "../tracing.js"

/** What a request's state is bound to, besides the principal: the method, the feature and its arguments. */
export interface Binding {
  readonly method: string
  /** The tool or prompt name, or the resource URI. */
  readonly name: string
  readonly arguments: unknown
}

/** Runs one round of a request that may answer `InputRequiredResult`. */
export type Runner = <A extends Protocol.Result>(
  env: RequestEnv,
  binding: Binding,
  handler: Effect.Effect<A, ErrorResponse>
) => Effect.Effect<A | McpSchema2026.InputRequiredResult, ErrorResponse>


/** A recorded answer: the digest of the question it answers, and the client's response. */
type Answer = readonly [digest: string, response: unknown]
/** A question asked in the previous round: its method and digest. */
type Question = readonly [method: string, digest: string]

/** The payload of a request state (signed, see `requestState`). */
const Payload = Schema.Struct({
  a: Schema.Record(Schema.String, Schema.Tuple([Schema.String, Schema.Unknown])),
  q: Schema.Record(Schema.String, Schema.Tuple([Schema.String, Schema.String]))
})
type Payload = typeof Payload.Type
const isPayload = Schema.is(Payload)


const invalidParams = (message: string) => ErrorResponse.invalidParams(message)

const isRecord = (u: unknown): u is { readonly [key: string]: unknown } =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** Turns given to the handler's fibers without a new question before a round ends. */
const SETTLE_TURNS = 16

/** One run of the handler: the answers it may use and the questions it asked. */
class Round {
  // made on first use: most rounds never ask (a request per call allocates none of them)
  #answers: Map<string, Answer> | undefined
  #occurrences: Map<string, number> | undefined
  get answers(): Map<string, Answer> {
    return this.#answers ??= new Map()
  }
  get occurrences(): Map<string, number> {
    return this.#occurrences ??= new Map()
  }
  readonly pending: Record<string, McpSchema2026.InputRequest> = {}
  readonly asked: Record<string, Question> = {}
  version = 0
  invalid: ErrorResponse | undefined

  constructor(
    /** Answers given without a state (a first request may carry them): used by key, checked when used. */
    readonly unsolicited: { readonly [key: string]: unknown } | undefined
  ) {}

  /**
   * Ends the round from the asking fiber: once the handler's fibers have had
   * their turns without a new question, the asking fiber interrupts itself,
   * which ends the handler (`Effect.all` interrupts the other branches, and
   * every scope closes) without a fiber of its own for each request.
   */
  #stop(error?: ErrorResponse): Effect.Effect<never> {
    if (error !== undefined) {
      if (this.invalid === undefined) this.invalid = error
      this.version++
      return Effect.interrupt
    }
    this.version++
    return Effect.andThen(settle(this), Effect.interrupt)
  }

  readonly ask: InputRound.Ask = (method, params, inputKey) =>
    Effect.suspend(() => {
      // only sampling, elicitation and roots the client declared get here (inputRound.reverseCall)
      if (!isInputMethod(method)) return Effect.die(new Error(`${method} is not an input request`))
      const encoded = encodeRequest(params === undefined ? { method } : { method, params })
      if (Result.isFailure(encoded)) {
        return Effect.die(new Error(`Invalid ${method} input request: ${formatIssue(encoded.failure)}`))
      }
      // the 2026 encoding of a 2025-shaped call (no `task`, `_meta` or `elicitationId`)
      const request = encoded.success as McpSchema2026.InputRequest
      const digest = digestOf(JSON.stringify(request))
      const base = inputKey ?? `${SHORT[method]}-${digest}`
      const n = (this.occurrences.get(base) ?? 0) + 1
      this.occurrences.set(base, n)
      const key = n === 1 ? base : `${base}-${n}`
      const known = this.answers.get(key)
      if (known !== undefined && known[0] === digest) return Effect.succeed(known[1] as Protocol.Result)
      const given = this.unsolicited?.[key]
      if (given !== undefined) {
        const checked = answerValidators[method](given)
        if (Result.isSuccess(checked)) {
          this.answers.set(key, [digest, given])
          return Effect.succeed(given as Protocol.Result)
        }
        return this.#stop(invalidParams(`Invalid input response ${key} (${method}): ${formatIssue(checked.failure)}`))
      }
      this.pending[key] = request
      this.asked[key] = [method, digest]
      return this.#stop()
    })

  /** The state of the next round: every answer so far and the questions of this one. */
  payload(): Payload {
    return { a: Object.fromEntries(this.answers), q: this.asked }
  }
}

/** The answers a retry brings: those recorded in its state, and its responses to the questions the state says were asked. */
const takeAnswers = (
  round: Round,
  previous: Payload,
  responses: { readonly [key: string]: unknown } | undefined
): ErrorResponse | undefined => {
  for (const [key, answer] of Object.entries(previous.a)) round.answers.set(key, answer)
  for (const [key, [method, digest]] of Object.entries(previous.q)) {
    const response = responses?.[key]
    if (response === undefined || !isInputMethod(method)) continue
    const checked = answerValidators[method](response)
    if (Result.isFailure(checked)) {
      return invalidParams(`Invalid input response ${key} (${method}): ${formatIssue(checked.failure)}`)
    }
    round.answers.set(key, [digest, response])
  }
  return undefined
}

/** Gives the handler's fibers turns until a few pass without a new question. */
const settle = (round: Round): Effect.Effect<void> => {
  const loop = (turns: number, seen: number): Effect.Effect<void> =>
    turns >= SETTLE_TURNS
      ? Effect.void
      : Effect.flatMap(Effect.yieldNow, () => loop(round.version === seen ? turns + 1 : 0, round.version))
  return Effect.suspend(() => loop(0, round.version))
}

const REJECTIONS: { readonly [R in RequestState.Rejection]: string } = {
  malformed: "it is malformed",
  signature: "its signature does not verify (tampered, or signed with a key this server does not have)",
  expired: "it has expired",
  binding: "it was issued for another request (method, name, arguments or caller)"
}

/** The round's answers from the request: its state opened and checked, its responses. */
const prepare = (
  codec: RequestState.Codec,
  env: RequestEnv,
  bind: () => string,
  onBadSignature: () => Effect.Effect<void>
): Effect.Effect<Round, ErrorResponse> => {
  const params = env.incoming.request.params ?? {}
  const responses = params.inputResponses
  if (responses !== undefined && !isRecord(responses)) {
    return Effect.fail(invalidParams("inputResponses must be an object of responses keyed by the names of the input requests"))
  }
  const state = params.requestState
  if (state === undefined) return Effect.succeed(new Round(responses))
  if (typeof state !== "string") return Effect.fail(invalidParams("requestState must be a string"))
  return codec.open(state, bind()).pipe(
    Effect.tapError((rejection) => rejection === "signature" ? onBadSignature() : Effect.void),
    Effect.mapError((rejection) => invalidParams(`Invalid requestState: ${REJECTIONS[rejection]}`)),
    Effect.flatMap((payload) => {
      if (!isPayload(payload)) return Effect.fail(invalidParams(`Invalid requestState: ${REJECTIONS.malformed}`))
      const round = new Round(undefined)
      const invalid = takeAnswers(round, payload, responses)
      return invalid === undefined ? Effect.succeed(round) : Effect.fail(invalid)
    })
  )
}

/** The text a request's state is bound to: method, name, canonical arguments, and the caller when there is one. */
const bindingText = (env: RequestEnv, binding: Binding): string => {
  const principal = env.session.principal?.()
  return canonicalJson([
    binding.method,
    binding.name,
    binding.arguments ?? {},
    principal === undefined ? null : ownerKey(principal)
  ])
}

const EPHEMERAL_KEY_WARNING =
  "McpServer: requestState is signed with a random key of this process (no requestState.keys given); " +
  "with several instances, a retry that reaches another one is refused (-32602): give every instance the same keys " +
  "(McpServer.layerConfig reads them from MCP_REQUEST_STATE_KEYS)"

/**
 * A runner sealing states with `codec`. With a key of this process only
 * (`codec.ephemeral`), a warning is logged once, where it can matter: on the
 * first state sealed while `inFleet()` (the server is one of several
 * instances), or on the first state refused for its signature. The handler
 * runs in the request's own fiber: a round that asked ends with the handler
 * interrupted (see `Round.#stop`).
 */
export const make = (codec: RequestState.Codec, inFleet: () => boolean): Runner => {
  let warned = !codec.ephemeral
  const warnOnce = (when: boolean): Effect.Effect<void> => {
    if (warned || !when) return Effect.void
    warned = true
    return Effect.logWarning(EPHEMERAL_KEY_WARNING)
  }
  const finish = <A>(
    round: Round,
    exit: Exit.Exit<A, ErrorResponse>,
    bind: () => string
  ): Effect.Effect<A | McpSchema2026.InputRequiredResult, ErrorResponse> => {
    if (round.invalid !== undefined) return Effect.fail(round.invalid)
    // not asked, or ended on its own (done, or a branch failed, while a question was open)
    if (round.version === 0 || !(Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause))) return exit
    return Effect.andThen(
      warnOnce(inFleet()),
      Effect.map(codec.seal(round.payload(), bind()), (requestState): McpSchema2026.InputRequiredResult =>
        traced({
          resultType: McpSchema2026.RESULT_TYPE_INPUT_REQUIRED,
          inputRequests: round.pending,
          requestState
        }))
    )
  }
  return <A extends Protocol.Result>(env: RequestEnv, binding: Binding, handler: Effect.Effect<A, ErrorResponse>) => {
    let bound: string | undefined
    const bind = () => bound ??= bindingText(env, binding)
    const run = (round: Round) => {
      InputRound.install(env.incoming, round.ask)
      return Effect.matchCauseEffect(handler, {
        onFailure: (cause) => finish(round, Exit.failCause(cause), bind),
        onSuccess: (a) => round.invalid === undefined ? Effect.succeed(a) : Effect.fail(round.invalid)
      })
    }
    // the usual first round (no state, no responses) is made without an effect
    const params = env.incoming.request.params
    return params?.requestState === undefined && params?.inputResponses === undefined
      ? run(new Round(undefined))
      : Effect.flatMap(prepare(codec, env, bind, () => warnOnce(true)), run)
  }
}

/**
 * The result with the trace context of this round's span in its `_meta` (SEP-414's keys), under a
 * tracer that collects spans: the client's handlers of its input requests are that span's children.
 * The result's `_meta`, not the input requests': 2026 sampling and elicitation params have no
 * `_meta`, and neither the digest of an input request nor the signed `requestState` covers it.
 * (The fiber is the request's, running this round in the round's span: no operation of its own.)
 */
const traced = (result: McpSchema2026.InputRequiredResult): McpSchema2026.InputRequiredResult => {
  const fiber = Fiber.getCurrent()
  if (fiber === undefined || !tracing(fiber)) return result
  const span = Context.getOrUndefined(fiber.context, Tracer.ParentSpan)
  return span === undefined ? result : TraceContext.inject(result, span) as McpSchema2026.InputRequiredResult
}

/** The params a 2026 request's state is bound to, for a method that may answer `InputRequiredResult`. */
export const bindingOf = (method: string, params: JsonRpc.Params | undefined): Binding => ({
  method,
  name: String(params?.name ?? params?.uri ?? ""),
  arguments: params?.arguments ?? {}
})

/** The methods that may answer `InputRequiredResult` (SEP-2322). */
const INPUT_METHODS: ReadonlySet<string> = new Set(McpSchema2026.INPUT_REQUIRED_METHODS)

/**
 * The method handlers with those of `tools/call`, `prompts/get` and
 * `resources/read` run in rounds on the 2026-07-28 path (a request with an
 * envelope); on 2025 sessions they run as they are.
 */
export const wrap = (runner: Runner, handlers: Handlers): Handlers =>
  Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => {
      if (!INPUT_METHODS.has(method)) return [method, handler]
      const wrapped: Handler = (params, env) => {
        return env.envelope !== undefined
          ? runner(env, bindingOf(method, env.incoming.request.params), handler(params, env))
          : handler(params, env)
      }
      return [method, wrapped]
    })
  )
