/**
 * What a method handler is given for one request, and how a feature's
 * handler runs in it: with the services it was registered with, the
 * session's, and the request's own, given explicitly.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { HandlerContext, type HandlerContextShape } from "../../HandlerContext.js"
import type { CacheHint } from "../../McpFeature.js"
import type { ErrorResponse } from "../../McpError.js"
import type * as Protocol from "../../Protocol.js"
import { ServerSession } from "../../ServerSession.js"
import * as Answered from "../answered.js"
import { Principal } from "../auth/principal.js"
import type { EngineIncomingRequest } from "../protocol/make.js"
import type { Registered } from "./registry.js"
import type { SessionState } from "./sessions.js"
import type { Envelope } from "./era2026.js"

/**
 * What one request's handlers are given besides their params: its context and its session.
 *
 * `envelope` is set when the request is on the 2026-07-28 path (`internal/server/era2026`):
 * then `session` is the per-request view of the client the envelope describes, and
 * `handlerContext`'s reverse calls are the 2026 ones (`MakeOptions.reverseCall`). That is where
 * a feature's run differs by era (multi-round-trip requests of `tools/call`, `prompts/get`,
 * `resources/read`; caching hints).
 */
export interface RequestEnv {
  readonly incoming: EngineIncomingRequest
  readonly handlerContext: HandlerContextShape
  readonly session: SessionState
  readonly envelope?: Envelope | undefined
}

/**
 * A method's handler. Each takes the params its method's validator produced;
 * `never` admits every such handler in one table, and the dispatch calls it
 * with what that validator accepted.
 */
export type Handler = (params: never, env: RequestEnv) => Effect.Effect<Protocol.Result, ErrorResponse>

/** Handlers by method. */
export type Handlers = { readonly [method: string]: Handler }

/** A feature's services for one request: those it was registered with, then the request's own (the caller's too, on a protected transport). */
const servicesFor = (entry: Registered<unknown>, env: RequestEnv): Context.Context<never> => {
  if (env.envelope !== undefined) return servicesOnce(entry, env)
  return Context.merge(sessionServices(entry, env), requestServices(env))
}

/** A feature's services with the session's, made once per session and feature (the same object for each request). */
const sessionServices = (entry: Registered<unknown>, env: RequestEnv): Context.Context<never> => {
  let base = env.session.services.get(entry)
  if (base === undefined) {
    base = Context.add(entry.context, ServerSession, env.session.shape)
    env.session.services.set(entry, base)
  }
  return base
}

/** The request's own services: its `HandlerContext` (and the caller, on a protected transport). */
const requestServices = (env: RequestEnv): Context.Context<never> => {
  const services = Context.make(HandlerContext, env.handlerContext)
  const principal = env.session.principal?.()
  return principal === undefined ? services : Context.add(services, Principal, principal)
}

/**
 * `servicesFor` on the 2026 path: the session is the request's own view, used once, so nothing
 * is kept for a later request; the feature's services are copied once, with the request's
 * (a handful) merged over them (`Context.add` on the feature's would copy them per service).
 */
const servicesOnce = (entry: Registered<unknown>, env: RequestEnv): Context.Context<never> =>
  Context.merge(entry.context, requestServices2026(env))

/** A 2026 request's own services: its view of the client, its `HandlerContext` (and the caller, on a protected transport). */
const requestServices2026 = (env: RequestEnv): Context.Context<never> =>
  Context.add(requestServices(env), ServerSession, env.session.shape)

/**
 * Runs a feature's handler as the rest of the request, with its services
 * given explicitly: over the serving fiber's context, the services captured
 * when the feature was registered (they win; its `Scope` and span excepted),
 * then the request's own.
 */
export const runFeature = <A>(
  entry: Registered<unknown>,
  effect: Effect.Effect<A, ErrorResponse, unknown>,
  env: RequestEnv
): Effect.Effect<A, ErrorResponse> =>
  // a handler that answered as it was called reads no service: nothing to provide
  Answered.is(effect)
    ? effect
    : env.envelope !== undefined
    // the feature's own services as the engine's `base` (the same object each request: merged over
    // the fiber's once per connection), the request's view and context over them
    ? env.incoming.provide(effect, requestServices2026(env), entry.context)
    // the session's services as the engine's `base`: the same object each request, merged once
    : env.incoming.provide(effect, requestServices(env), sessionServices(entry, env))

/** Runs a feature's handler inside a larger request (a list over many features). */
export const withFeature = <A>(
  entry: Registered<unknown>,
  effect: Effect.Effect<A, ErrorResponse, unknown>,
  env: RequestEnv
): Effect.Effect<A, ErrorResponse> => Effect.provide(effect as Effect.Effect<A, ErrorResponse>, servicesFor(entry, env))

/** The tightest of some caching hints: the shortest `ttlMs`, `"private"` if any is; undefined for none. */
export const tightest = (
  hints: ReadonlyArray<CacheHint | undefined>
): CacheHint | undefined => {
  let out: CacheHint | undefined
  for (const h of hints) {
    if (h === undefined) continue
    out = out === undefined ? h : {
      ttlMs: Math.min(out.ttlMs, h.ttlMs),
      cacheScope: out.cacheScope === "private" || h.cacheScope === "private" ? "private" : "public"
    }
  }
  return out
}

/**
 * On the 2026 path, a list result capped by the caching hints of the features it holds (the
 * 2026 path then caps the server's hint for the list by it); on 2025, the page as it is.
 */
export const capped = (
  env: RequestEnv,
  entries: ReadonlyArray<Registered<{ readonly cacheHint?: CacheHint | undefined }>>,
  page: Effect.Effect<Protocol.Result, ErrorResponse>
): Effect.Effect<Protocol.Result, ErrorResponse> => {
  if (env.envelope === undefined) return page
  const hint = tightest(entries.map((e) => e.feature.cacheHint))
  return hint === undefined ? page : Effect.map(page, (result) => ({ ...result, ...hint }))
}
