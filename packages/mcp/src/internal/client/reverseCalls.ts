/**
 * The client's side of server→client requests: its handlers (taken from
 * `ClientOptions`, run with the context the client was made in), the
 * capabilities they declare, and the dispatch of an incoming request to them.
 */
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { LATEST_VERSION } from "../../Lifecycle.js"
import type { ClientOptions, ElicitationHandlers, HandlerError, RootsOption, SamplingRequest } from "../../McpClient.js"
import { ErrorResponse } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import type * as Protocol from "../../Protocol.js"
import { formatIssue, validator } from "../validate.js"

const answerWith = (error: HandlerError): ErrorResponse =>
  error instanceof ErrorResponse ? error : ErrorResponse.fromObject(error.toObject())

const serverRequestDecoders = new Map(
  Object.entries(McpSchema.ServerRequests).map(([method, entry]) => [
    method,
    validator(entry.params as Schema.Codec<unknown, unknown>)
  ])
)

/** Fills the defaults of a form's requested schema into an accepted answer. */
export const applyElicitationDefaults = (
  requestedSchema: McpSchema.ElicitRequestFormParams["requestedSchema"],
  result: McpSchema.ElicitResult
): McpSchema.ElicitResult => {
  if (result.action !== "accept") return result
  const content: Record<string, unknown> = { ...result.content }
  for (const [key, property] of Object.entries(requestedSchema.properties ?? {})) {
    const def = (property as { readonly default?: unknown }).default
    if (content[key] === undefined && def !== undefined) content[key] = def
  }
  return { ...result, content: content as NonNullable<McpSchema.ElicitResult["content"]> }
}

/** The handlers of a client, each run with the context the client was made in. */
export interface Handlers {
  readonly createMessage:
    | ((
      params: McpSchema.CreateMessageRequestParams,
      request: SamplingRequest
    ) => Effect.Effect<McpSchema.CreateMessageResult, HandlerError>)
    | undefined
  /** The negotiated protocol version (undefined before the handshake). */
  readonly protocolVersion: () => string | undefined
  readonly form: ElicitationHandlers["form"]
  readonly url: ElicitationHandlers["url"]
  readonly roots: SubscriptionRef.SubscriptionRef<ReadonlyArray<McpSchema.Root>> | undefined
}

const isSubscriptionRef = (roots: RootsOption): roots is SubscriptionRef.SubscriptionRef<ReadonlyArray<McpSchema.Root>> =>
  SubscriptionRef.isSubscriptionRef(roots)

export const handlersOf = (options: ClientOptions, protocolVersion: () => string | undefined): Effect.Effect<Handlers> =>
  // one operation unless roots are given as a list (an Effect.gen was ~7)
  Effect.withFiber((fiber): Effect.Effect<Handlers> => {
    const context = fiber.context as Context.Context<never>
    const provided = <P, A>(f: ((params: P) => Effect.Effect<A, HandlerError, unknown>) | undefined) =>
      f === undefined ? undefined : (params: P) => Effect.provide(f(params) as Effect.Effect<A, HandlerError>, context)
    const sampling = options.sampling
    const sample = typeof sampling === "function" ? sampling : sampling?.createMessage
    const roots = options.roots
    const handlers = {
      createMessage: sample === undefined ? undefined : (
        params: McpSchema.CreateMessageRequestParams,
        request: SamplingRequest
      ) => Effect.provide(sample(params, request) as Effect.Effect<McpSchema.CreateMessageResult, HandlerError>, context),
      form: provided(options.elicitation?.form),
      url: provided(options.elicitation?.url),
      protocolVersion
    }
    if (roots === undefined) return Effect.succeed({ ...handlers, roots: undefined })
    if (isSubscriptionRef(roots)) return Effect.succeed({ ...handlers, roots })
    return Effect.map(SubscriptionRef.make(roots), (ref) => ({ ...handlers, roots: ref }))
  })

export const declaredCapabilities = (options: ClientOptions): McpSchema.ClientCapabilities => {
  const capabilities: Record<string, unknown> = { ...options.capabilities }
  const sampling = options.sampling
  if (sampling !== undefined) {
    capabilities.sampling = typeof sampling !== "function" && sampling.tools === true ? { tools: {} } : {}
  }
  const elicitation = options.elicitation
  if (elicitation !== undefined && (elicitation.form !== undefined || elicitation.url !== undefined)) {
    capabilities.elicitation = {
      ...(elicitation.form !== undefined ? { form: {} } : {}),
      ...(elicitation.url !== undefined ? { url: {} } : {})
    }
  }
  if (options.roots !== undefined) capabilities.roots = { listChanged: true }
  return capabilities as McpSchema.ClientCapabilities
}

/**
 * Answers one server→client request (2025) or input request (2026) with the
 * client's handlers: -32601 for a method without a handler, -32602 for params
 * its schema rejects.
 */
export const answer = (handlers: Handlers) => (method: string, params: unknown): Effect.Effect<Protocol.Result, ErrorResponse> => {
  const decode = serverRequestDecoders.get(method)
  if (decode === undefined) return Effect.fail(ErrorResponse.methodNotFound(method))
  const decoded = decode(params)
  if (Result.isFailure(decoded)) {
    return Effect.fail(
      ErrorResponse.invalidParams(`Invalid params for ${method}: ${formatIssue(decoded.failure)}`)
    )
  }
  switch (method) {
    case "sampling/createMessage":
      return handlers.createMessage === undefined
        ? Effect.fail(ErrorResponse.methodNotFound(method))
        : Effect.mapError(
          handlers.createMessage(decoded.success as McpSchema.CreateMessageRequestParams, {
            protocolVersion: handlers.protocolVersion() ?? LATEST_VERSION
          }),
          answerWith
        )
    case "elicitation/create": {
      const p = decoded.success as McpSchema.ElicitRequestParams
      if (handlers.form === undefined && handlers.url === undefined) {
        return Effect.fail(ErrorResponse.methodNotFound(method))
      }
      if (p.mode === "url") {
        const url = handlers.url
        return url === undefined
          ? Effect.fail(ErrorResponse.invalidParams("This client does not support URL-mode elicitation"))
          : Effect.mapError(url(p as McpSchema.ElicitRequestURLParams), answerWith)
      }
      const form = handlers.form
      const formParams = p as McpSchema.ElicitRequestFormParams
      return form === undefined
        ? Effect.fail(ErrorResponse.invalidParams("This client does not support form-mode elicitation"))
        : Effect.mapBoth(form(formParams), {
          onFailure: answerWith,
          onSuccess: (r) => applyElicitationDefaults(formParams.requestedSchema, r)
        })
    }
    case "roots/list":
      return handlers.roots === undefined
        ? Effect.fail(ErrorResponse.methodNotFound(method))
        : Effect.map(SubscriptionRef.get(handlers.roots), (list) => ({ roots: list }))
    default:
      return Effect.fail(ErrorResponse.methodNotFound(method))
  }
}

export const onRequest = (handlers: Handlers) => {
  const reply = answer(handlers)
  return (incoming: Protocol.IncomingRequest): Effect.Effect<Protocol.Result, ErrorResponse> =>
    reply(incoming.request.method, incoming.request.params)
}

/**
 * Sends `notifications/roots/list_changed` on every change of the roots, for
 * the life of the scope.
 */
export const watchRoots = <E>(
  roots: SubscriptionRef.SubscriptionRef<ReadonlyArray<McpSchema.Root>>,
  notify: (method: string) => Effect.Effect<void, E>
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function*() {
    // `changes` starts with the value current when the fiber subscribes, which
    // may already be a change made after this point: compare with the roots the
    // server can have seen instead of dropping the first value
    let last = yield* SubscriptionRef.get(roots)
    yield* SubscriptionRef.changes(roots).pipe(
      Stream.filter((current) => {
        const changed = current !== last
        last = current
        return changed
      }),
      Stream.runForEach(() => notify("notifications/roots/list_changed").pipe(Effect.ignore)),
      Effect.forkScoped
    )
  })
