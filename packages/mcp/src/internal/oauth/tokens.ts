/**
 * The tokens of one MCP server: obtained by the grant the client was given
 * (a user's sign-in, client credentials, JWT bearer, enterprise-managed),
 * refreshed, kept in the `TokenStore`, and presented on an exchange
 * (refreshed first once expired; a DPoP-bound token with a fresh proof).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type * as Oauth from "oauth4webapi"
import * as Authorization from "./authorization.js"
import * as Dpop from "./dpop.js"
import { OAuthError } from "./error.js"
import * as Grants from "./grants.js"
import * as Identity from "./identity.js"
import * as Scopes from "./scopes.js"
import type { StoredTokens } from "./services.js"
import type * as State from "./state.js"

/** The credentials of one exchange: the access token and the headers that present it. */
export interface Presented {
  readonly token: string
  readonly headers: Readonly<Record<string, string>>
}

/** Where and as whom `state`'s tokens are asked for (the redirect prepared first, for a sign-in). */
const target = (client: State.Client, state: State.Server): Effect.Effect<Grants.Target, OAuthError> =>
  Effect.gen(function*() {
    const { options, redirect } = client
    if (redirect.prepare !== undefined && client.grant === "authorization_code") yield* redirect.prepare
    const identity = yield* Identity.ensure(client.http, options, redirect, client.store, state.issuer, state.as)
    const dpop = yield* Dpop.keyFor(options.dpop, client.dpop, state)
    return { as: state.as, identity, resource: state.resource, dpop }
  })

/** Keeps the tokens of `response` (a refresh token kept when none came, the scope asked for when none was named). */
const save = (
  client: State.Client,
  state: State.Server,
  at: Grants.Target,
  response: Oauth.TokenEndpointResponse,
  requested: string | undefined
) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const bound = response.token_type === "dpop" && at.dpop !== undefined
    const tokens: StoredTokens = {
      access_token: response.access_token,
      refresh_token: response.refresh_token ?? state.tokens?.refresh_token,
      expires_at: typeof response.expires_in === "number" ? now + response.expires_in * 1000 : undefined,
      scope: response.scope ?? requested,
      ...(bound ? { token_type: "DPoP", dpop_jkt: at.dpop.jkt } : {})
    }
    state.tokens = tokens
    yield* client.store.saveTokens(state.issuer, state.resource, tokens)
  })

/** Refreshes `state`'s tokens: whether it did (a refused refresh forgets them, to sign in again). */
export const refresh = (client: State.Client, state: State.Server): Effect.Effect<boolean, OAuthError> =>
  Effect.gen(function*() {
    const refreshToken = state.tokens?.refresh_token
    if (refreshToken === undefined) return false
    const at = yield* target(client, state)
    const result = yield* Effect.result(Grants.refresh(client.http, at, refreshToken))
    if (Result.isFailure(result)) {
      yield* Effect.logDebug("refreshing the token failed; signing in again", result.failure.message)
      state.tokens = undefined
      yield* client.store.saveTokens(state.issuer, state.resource, undefined)
      return false
    }
    yield* save(client, state, at, result.success, state.tokens?.scope)
    return true
  })

/** A user's sign-in (unless signing in is turned off), `offline_access` added where listed. */
const authorize = (client: State.Client, state: State.Server, requested: string | undefined) =>
  Effect.gen(function*() {
    if (client.options.login === false) {
      return yield* new OAuthError({
        reason: "LoginRequired",
        message: `${state.resource} requires signing in at ${state.issuer}, and signing in is turned off`
      })
    }
    const at = yield* target(client, state)
    const scope = Scopes.withOfflineAccess(client.options, state.as, requested)
    const tokens = yield* Authorization.signIn(client.http, client.redirect, at, state.issuer, scope)
    yield* save(client, state, at, tokens, scope)
  })

const resolveAssertion = (value: string | Effect.Effect<string, OAuthError>) =>
  typeof value === "string" ? Effect.succeed(value) : value

/** A new token by the grant the client was given (`scope` as chosen by the MCP rules). */
export const obtain = (client: State.Client, state: State.Server, scope: string | undefined): Effect.Effect<void, OAuthError> =>
  Effect.gen(function*() {
    const { grant, http } = client
    if (grant === "authorization_code") return yield* authorize(client, state, scope)
    const at = yield* target(client, state)
    if (grant === "client_credentials") return yield* save(client, state, at, yield* Grants.clientCredentials(http, at, scope), scope)
    if (grant.type === "jwt-bearer") {
      const assertion = yield* resolveAssertion(grant.assertion)
      return yield* save(client, state, at, yield* Grants.jwtBearer(http, at, assertion, scope), scope)
    }
    const idToken = yield* resolveAssertion(grant.idToken)
    const jag = yield* Grants.idJag(http, grant.identityProvider, idToken, state.issuer, state.resource, scope)
    return yield* save(client, state, at, yield* Grants.jwtBearer(http, at, jag, scope), scope)
  })

/** An expired token refreshed, unless another exchange did meanwhile; a failed refresh leaves it (its 401 signs in again). */
const refreshExpired = (client: State.Client, state: State.Server) => {
  const used = state.tokens
  return client.lock.withPermits(1)(Effect.suspend(() => state.tokens === used ? refresh(client, state) : Effect.void)).pipe(
    Effect.catch((error) => Effect.logDebug("refreshing the token failed", error.message))
  )
}

/** The credentials for a request (`method`, `url`) to the server at `server`, if any yet. */
export const present = (
  client: State.Client,
  server: URL,
  method: string,
  url: URL
): Effect.Effect<Presented | undefined> =>
  Effect.gen(function*() {
    const state = client.servers.get(server.href)
    if (state?.tokens === undefined) return undefined
    const expiresAt = state.tokens.expires_at
    if (expiresAt !== undefined && state.tokens.refresh_token !== undefined && (yield* Clock.currentTimeMillis) >= expiresAt) {
      yield* refreshExpired(client, state)
    }
    const tokens = state.tokens
    if (tokens === undefined) return undefined
    const key = client.dpop.current
    if (tokens.token_type === "DPoP" && key !== undefined) {
      const proof = yield* key.proof(method, url, tokens.access_token)
      return { token: tokens.access_token, headers: { authorization: `DPoP ${tokens.access_token}`, dpop: proof } }
    }
    return { token: tokens.access_token, headers: { authorization: `Bearer ${tokens.access_token}` } }
  })
