/**
 * The MCP rules of signing in, on `oauth4webapi`: which resource and issuer
 * (discovery, again when a token is refused: the server may have moved to
 * another authorization server), which client identity (pre-registered,
 * metadata document URL, dynamic registration; kept per issuer), which
 * scopes (the challenge's, else the resource's, else none; `offline_access`
 * only where the authorization server lists it), which grant (authorization
 * code, client credentials, JWT bearer, enterprise-managed), whether tokens
 * are DPoP-bound, and when to refresh, re-authorize or step up.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import type { Options } from "../../McpOAuth.js"
import * as Challenge from "./challenge.js"
import * as Discovery from "./discovery.js"
import * as Dpop from "./dpop.js"
import { OAuthError } from "./error.js"
import * as Http from "./fetch.js"
import { lib } from "./fetch.js"
import * as Grants from "./grants.js"
import * as Identity from "./identity.js"
import type { AuthorizationRedirectShape, StoredTokens, TokenStoreShape } from "./services.js"

/** The credentials of one exchange: the access token and the headers that present it. */
export interface Presented {
  readonly token: string
  readonly headers: Readonly<Record<string, string>>
}

/** What a server's exchanges need: credentials per exchange, and what to do when they are refused. */
export interface ClientAuth {
  /** The credentials for a request (`method`, `url`) to the server at `server`, if any yet. */
  readonly present: (server: URL, method: string, url: URL) => Effect.Effect<Presented | undefined>
  /**
   * An exchange that used `used` got `status` (with `WWW-Authenticate` `header` and `DPoP-Nonce`
   * `nonce`); resolves to whether to send it again (with new credentials).
   */
  readonly challenged: (
    server: URL,
    used: string | undefined,
    status: number,
    header: string | undefined,
    nonce?: string | undefined
  ) => Effect.Effect<boolean, OAuthError>
  /** An exchange was accepted (with a new `DPoP-Nonce`, perhaps): the step-up count starts again. */
  readonly accepted: (server: URL, nonce?: string | undefined) => void
}

interface ServerState {
  readonly resource: string
  readonly issuer: string
  readonly as: Oauth.AuthorizationServer
  readonly scopesSupported: ReadonlyArray<string> | undefined
  /** The server asked for DPoP (a DPoP challenge, or `dpop_bound_access_tokens_required`). */
  readonly dpopAsked: boolean
  tokens: StoredTokens | undefined
  stepUps: number
}

const union = (a: string | undefined, b: string | undefined): string | undefined => {
  const all = new Set([...(a ?? "").split(" "), ...(b ?? "").split(" ")].filter((s) => s !== ""))
  return all.size === 0 ? undefined : Array.from(all).join(" ")
}

const resolveAssertion = (value: string | Effect.Effect<string, OAuthError>) =>
  typeof value === "string" ? Effect.succeed(value) : value

export const make = (
  options: Options,
  redirect: AuthorizationRedirectShape,
  store: TokenStoreShape
): Effect.Effect<ClientAuth> =>
  Effect.gen(function*() {
    const http = Http.make(options)
    const lock = yield* Effect.makeSemaphore(1)
    const servers = new Map<string, ServerState>()
    const maxStepUps = options.maxStepUps ?? 3
    const grant = options.grant ?? "authorization_code"
    const interactive = grant === "authorization_code"
    let dpopKey: Dpop.Dpop | undefined

    /** The DPoP key for `state`, when its tokens are to be bound (made on first use). */
    const dpopFor = (state: ServerState) =>
      Effect.gen(function*() {
        const mode = options.dpop ?? "auto"
        if (mode === false || (mode === "auto" && !state.dpopAsked)) return undefined
        const algs = (state.as as { dpop_signing_alg_values_supported?: unknown }).dpop_signing_alg_values_supported
        if (!Array.isArray(algs) || !algs.some((a) => Dpop.ALGORITHMS.includes(a))) {
          if (mode === true || state.dpopAsked) {
            yield* Effect.logDebug(`${state.issuer} does not list a DPoP algorithm this client signs with; using Bearer tokens`)
          }
          return undefined
        }
        dpopKey ??= yield* Dpop.make(yield* lib)
        return dpopKey
      })

    /** Stored tokens usable now: a DPoP-bound one only with the key it is bound to. */
    const usable = (tokens: StoredTokens | undefined) =>
      tokens === undefined || tokens.dpop_jkt === undefined || tokens.dpop_jkt === dpopKey?.jkt ? tokens : undefined

    const discover = (server: URL, challenge: ReturnType<typeof Challenge.parseAny>) =>
      Effect.gen(function*() {
        const prm = yield* Discovery.resourceMetadata(http, server, challenge)
        const issuer = prm === undefined ? server.origin : prm.authorization_servers[0]
        const as = yield* Discovery.serverMetadata(http, issuer, prm === undefined)
        const resource = prm?.resource ?? Discovery.canonical(server)
        const state: ServerState = {
          resource,
          issuer,
          as,
          scopesSupported: prm?.scopes_supported,
          dpopAsked: challenge.dpop || prm?.dpop_bound_access_tokens_required === true,
          tokens: usable(yield* store.tokens(issuer, resource)),
          stepUps: 0
        }
        servers.set(server.href, state)
        return state
      })

    /**
     * A refused token: the resource metadata again. A server that now names another authorization
     * server (SEP-2352) gets a new state there: its own client identity (registered again) and
     * tokens; the old issuer's credentials are not presented to the new one.
     */
    const rediscover = (known: ServerState, server: URL, challenge: ReturnType<typeof Challenge.parseAny>) =>
      Effect.gen(function*() {
        const prm = yield* Discovery.resourceMetadata(http, server, challenge)
        const issuer = prm === undefined ? server.origin : prm.authorization_servers[0]
        if (issuer === known.issuer) return known
        yield* Effect.logDebug(`${server.href} now names the authorization server ${issuer} (was ${known.issuer})`)
        return yield* discover(server, challenge)
      })

    const target = (state: ServerState) =>
      Effect.gen(function*() {
        if (redirect.prepare !== undefined && interactive) yield* redirect.prepare
        const identity = yield* Identity.ensure(http, options, redirect, store, state.issuer, state.as)
        return { as: state.as, identity, resource: state.resource, dpop: yield* dpopFor(state) } satisfies Grants.Target
      })

    const save = (state: ServerState, at: Grants.Target, response: Oauth.TokenEndpointResponse, requested: string | undefined) =>
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
        yield* store.saveTokens(state.issuer, state.resource, tokens)
      })

    const refresh = (state: ServerState) =>
      Effect.gen(function*() {
        const refreshToken = state.tokens?.refresh_token
        if (refreshToken === undefined) return false
        const at = yield* target(state)
        const result = yield* Effect.either(Grants.refresh(http, at, refreshToken))
        if (result._tag === "Left") {
          yield* Effect.logDebug("refreshing the token failed; signing in again", result.left.message)
          state.tokens = undefined
          yield* store.saveTokens(state.issuer, state.resource, undefined)
          return false
        }
        yield* save(state, at, result.right, state.tokens?.scope)
        return true
      })

    /** `offline_access` added to a scope asked for, where the authorization server lists it (SEP-2207). */
    const withOfflineAccess = (state: ServerState, scope: string | undefined) =>
      scope !== undefined && options.offlineAccess !== false && state.as.scopes_supported?.includes("offline_access") === true
        ? union(scope, "offline_access")
        : scope

    const authorize = (state: ServerState, requested: string | undefined) =>
      Effect.gen(function*() {
        if (options.login === false) {
          return yield* new OAuthError({
            reason: "LoginRequired",
            message: `${state.resource} requires signing in at ${state.issuer}, and signing in is turned off`
          })
        }
        const oauth = yield* lib
        const at = yield* target(state)
        const scope = withOfflineAccess(state, requested)
        const verifier = oauth.generateRandomCodeVerifier()
        const expectedState = oauth.generateRandomState()
        const url = new URL(state.as.authorization_endpoint!)
        const params: Record<string, string> = {
          response_type: "code",
          client_id: at.identity.client.client_id,
          redirect_uri: redirect.redirectUri,
          code_challenge: yield* Effect.promise(() => oauth.calculatePKCECodeChallenge(verifier)),
          code_challenge_method: "S256",
          state: expectedState,
          resource: state.resource,
          ...(scope === undefined ? {} : { scope }),
          ...(at.dpop === undefined ? {} : { dpop_jkt: at.dpop.jkt })
        }
        for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
        const back = yield* redirect.authorize(url)
        const callback = yield* Effect.try({
          try: () => oauth.validateAuthResponse(state.as, at.identity.client, back, expectedState),
          catch: (cause) =>
            new OAuthError({
              reason: "Authorization",
              message: `The authorization response from ${state.issuer} was refused: ${Http.describe(cause)}`,
              cause
            })
        })
        const tokens = yield* Grants.authorizationCode(http, at, callback, redirect.redirectUri, verifier)
        yield* save(state, at, tokens, scope)
      })

    /** A new token by the grant the client was given (`scope` as chosen by the MCP rules). */
    const obtain = (state: ServerState, scope: string | undefined) =>
      Effect.gen(function*() {
        if (grant === "authorization_code") return yield* authorize(state, scope)
        const at = yield* target(state)
        if (grant === "client_credentials") return yield* save(state, at, yield* Grants.clientCredentials(http, at, scope), scope)
        if (grant.type === "jwt-bearer") {
          const assertion = yield* resolveAssertion(grant.assertion)
          return yield* save(state, at, yield* Grants.jwtBearer(http, at, assertion, scope), scope)
        }
        const idToken = yield* resolveAssertion(grant.idToken)
        const jag = yield* Grants.idJag(http, grant.identityProvider, idToken, state.issuer, state.resource, scope)
        return yield* save(state, at, yield* Grants.jwtBearer(http, at, jag, scope), scope)
      })

    const present: ClientAuth["present"] = (server, method, url) =>
      Effect.gen(function*() {
        const state = servers.get(server.href)
        if (state?.tokens === undefined) return undefined
        const expiresAt = state.tokens.expires_at
        if (expiresAt !== undefined && state.tokens.refresh_token !== undefined && (yield* Clock.currentTimeMillis) >= expiresAt) {
          const used = state.tokens
          // a failed refresh leaves the expired token: the server's 401 then signs in again
          yield* lock.withPermits(1)(Effect.suspend(() => state.tokens === used ? refresh(state) : Effect.void)).pipe(
            Effect.catchAll((error) => Effect.logDebug("refreshing the token failed", error.message))
          )
        }
        const tokens = state.tokens
        if (tokens === undefined) return undefined
        if (tokens.token_type === "DPoP" && dpopKey !== undefined) {
          const proof = yield* dpopKey.proof(method, url, tokens.access_token)
          return { token: tokens.access_token, headers: { authorization: `DPoP ${tokens.access_token}`, dpop: proof } }
        }
        return { token: tokens.access_token, headers: { authorization: `Bearer ${tokens.access_token}` } }
      })

    /** The scopes to ask for: the user's, else the challenge's, else the resource's `scopes_supported`, else none. */
    const scopeFor = (state: ServerState, challenge: Challenge.BearerChallenge) =>
      options.scope ?? challenge.scope ?? state.scopesSupported?.join(" ")

    const challenged: ClientAuth["challenged"] = (server, used, status, header, nonce) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const challenge = Challenge.parseAny(header)
        const known = servers.get(server.href)
        // RFC 9449 §9: the server wants its nonce in the proof; same token, a new proof
        if (status === 401 && challenge.error === "use_dpop_nonce" && nonce !== undefined && dpopKey !== undefined) {
          dpopKey.nonce(server, nonce)
          return true
        }
        if (status === 403 && challenge.error !== "insufficient_scope") return false
        if (status === 401) {
          const current = known?.tokens?.access_token
          // another exchange already got a new token, or one was stored
          if (current !== undefined && current !== used) return true
          const state = known === undefined
            ? yield* discover(server, challenge)
            : used === undefined
            ? known
            : yield* rediscover(known, server, challenge)
          if (state !== known && state.tokens !== undefined && state.tokens.access_token !== used) return true
          if (state.tokens !== undefined && (yield* refresh(state))) return true
          yield* obtain(state, scopeFor(state, challenge))
          return true
        }
        const state = known ?? (yield* discover(server, challenge))
        if (state.stepUps >= maxStepUps) {
          return yield* new OAuthError({
            reason: "StepUpLimit",
            message: `${state.resource} still refuses the token for lack of scope (${
              challenge.scope ?? "unnamed"
            }) after ${maxStepUps} step-ups`
          })
        }
        state.stepUps++
        yield* obtain(state, union(state.tokens?.scope, challenge.scope))
        return true
      }))

    return {
      present,
      challenged,
      accepted: (server, nonce) => {
        const state = servers.get(server.href)
        if (state !== undefined) state.stepUps = 0
        if (nonce !== undefined && dpopKey !== undefined) dpopKey.nonce(server, nonce)
      }
    }
  })
