/**
 * A session's requests past `initialize`: the params checked against the
 * method's schema, the caller's scopes against the feature's (on a transport
 * with a principal), then the method's handler.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type * as SchemaIssue from "effect/SchemaIssue"
import type * as Schema from "effect/Schema"
import type { HandlerContextShape } from "../../HandlerContext.js"
import { ErrorResponse } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import type * as Protocol from "../../Protocol.js"
import { missingScopes } from "../auth/principal.js"
import { formatIssue, validator } from "../validate.js"
import { type FeatureRegistry, scopesIn } from "./registry.js"
import type { Handlers, RequestEnv } from "./request.js"
import type { SessionState } from "./sessions.js"
import type { Envelope } from "./era2026.js"
import type { Extensions } from "./extensions.js"
import type { EngineIncomingRequest } from "../protocol/make.js"
import { eraOf, requestEra } from "../../ProtocolEra.js"

type Dispatch = (params: unknown, env: RequestEnv) => Effect.Effect<Protocol.Result, ErrorResponse>

/** A request's env, its `HandlerContext` made on first use: a handler that answers as it is called reads none. */
class Env implements RequestEnv {
  readonly #make: (incoming: Protocol.IncomingRequest) => HandlerContextShape
  #handlerContext: HandlerContextShape | undefined = undefined

  constructor(
    readonly incoming: EngineIncomingRequest,
    make: (incoming: Protocol.IncomingRequest) => HandlerContextShape,
    readonly session: SessionState,
    readonly envelope: Envelope | undefined
  ) {
    this.#make = make
  }

  get handlerContext(): HandlerContextShape {
    return this.#handlerContext ??= this.#make(this.incoming)
  }
}

/**
 * Answers one session's requests; `handlerContext` makes a request's `HandlerContext`. With an
 * `envelope`, the requests are on the 2026 path and `session` is a per-request view.
 */
export type Dispatcher = (
  session: SessionState,
  handlerContext: (incoming: Protocol.IncomingRequest) => HandlerContextShape,
  envelope?: Envelope
) => (incoming: EngineIncomingRequest) => Effect.Effect<Protocol.Result, ErrorResponse>

export const make = (registry: FeatureRegistry, handlers: Handlers, extensions?: Extensions): Dispatcher => {
  const decoders = new Map<string, (u: unknown) => Result.Result<unknown, SchemaIssue.Issue>>()
  for (const [method, entry] of Object.entries(McpSchema.ClientRequests)) {
    decoders.set(method, validator(entry.params as Schema.Codec<unknown, unknown>))
  }
  return (session, handlerContext, envelope) => (incoming) => {
    const { method, params } = incoming.request
    const decode = decoders.get(method)
    const handler = handlers[method]
    if (decode === undefined || handler === undefined) {
      const era = envelope !== undefined ? "2026" : requestEra(method, params) ?? eraOf(session.shape.protocolVersion() ?? "") ?? "2025"
      const extension = extensions?.method(method, era)
      if (extension === undefined) return Effect.fail(ErrorResponse.methodNotFound(method))
      const decodedExtension = extension.decode(params)
      if (Result.isFailure(decodedExtension)) {
        return Effect.fail(ErrorResponse.invalidParams(`Invalid params for ${method}: ${formatIssue(decodedExtension.failure)}`))
      }
      return extension.handle(decodedExtension.success, {
        request: incoming.request,
        session: session.shape,
        era,
        principal: session.principal?.()
      })
    }
    const decoded = decode(params)
    if (Result.isFailure(decoded)) {
      return Effect.fail(ErrorResponse.invalidParams(`Invalid params for ${method}: ${formatIssue(decoded.failure)}`))
    }
    const dispatch = (handler as Dispatch)(decoded.success, new Env(incoming, handlerContext, session, envelope))
    const principal = session.principal?.()
    if (principal === undefined) return dispatch
    // a protected HTTP transport answers 403 before this; the check holds for any transport with a principal
    return Effect.flatMap(registry.get, (r) => {
      const missing = missingScopes(principal, scopesIn(r, incoming.request))
      return missing.length === 0 ? dispatch : Effect.fail(
        new ErrorResponse({ code: -32003, message: `Forbidden: the token lacks the scopes ${missing.join(" ")}` })
      )
    })
  }
}
