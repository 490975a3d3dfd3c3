/**
 * The MCP rules of signing in, on `oauth4webapi`: which resource and issuer
 * (discovery), which client identity (pre-registered, metadata document URL,
 * dynamic registration), which scopes (the challenge's, else the resource's),
 * and when to refresh, re-authorize or step up.
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import * as Challenge from "./challenge.js"
import * as Discovery from "./discovery.js"
import { OAuthError } from "./error.js"
import * as Http from "./fetch.js"
import { lib, run } from "./fetch.js"
import * as Identity from "./identity.js"
import type { Options } from "../../McpOAuth.js"
import type { AuthorizationRedirectShape, StoredTokens, TokenStoreShape } from "./services.js"


/** What a server's exchanges need: a token per exchange, and what to do when it is refused. */
export interface ClientAuth {
  readonly token: (server: URL) => Effect.Effect<string | undefined>
  /** An exchange that used `used` got `status`; resolves to whether to send it again (with the new token). */
  readonly challenged: (
    server: URL,
    used: string | undefined,
    status: number,
    header: string | undefined
  ) => Effect.Effect<boolean, OAuthError>
  /** An exchange was accepted: the step-up count starts again. */
  readonly accepted: (server: URL) => void
}

interface ServerState {
  readonly resource: string
  readonly issuer: string
  readonly as: Oauth.AuthorizationServer
  readonly scopesSupported: ReadonlyArray<string> | undefined
  tokens: StoredTokens | undefined
  stepUps: number
}

const union = (a: string | undefined, b: string | undefined): string | undefined => {
  const all = new Set([...(a ?? "").split(" "), ...(b ?? "").split(" ")].filter((s) => s !== ""))
  return all.size === 0 ? undefined : Array.from(all).join(" ")
}

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

    const discover = (server: URL, challenge: Challenge.BearerChallenge) =>
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
          tokens: yield* store.tokens(issuer, resource),
          stepUps: 0
        }
        servers.set(server.href, state)
        return state
      })

    const save = (state: ServerState, response: Oauth.TokenEndpointResponse, requested: string | undefined) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const tokens: StoredTokens = {
          access_token: response.access_token,
          refresh_token: response.refresh_token ?? state.tokens?.refresh_token,
          expires_at: typeof response.expires_in === "number" ? now + response.expires_in * 1000 : undefined,
          scope: response.scope ?? requested
        }
        state.tokens = tokens
        yield* store.saveTokens(state.issuer, state.resource, tokens)
      })

    const refresh = (state: ServerState) =>
      Effect.gen(function*() {
        const refreshToken = state.tokens?.refresh_token
        if (refreshToken === undefined) return false
        const oauth = yield* lib
        if (redirect.prepare !== undefined) yield* redirect.prepare
        const client = yield* Identity.ensure(http, options, redirect, store, state.issuer, state.as)
        const result = yield* run(http, "Token", `Refreshing the token at ${state.as.token_endpoint}`, async (signal) => {
          const response = await oauth.refreshTokenGrantRequest(state.as, client.client, client.auth, refreshToken, {
            ...Identity.libOptions(oauth, http, state.as, signal),
            additionalParameters: { resource: state.resource }
          })
          return oauth.processRefreshTokenResponse(state.as, client.client, response)
        }).pipe(Effect.either)
        if (result._tag === "Left") {
          yield* Effect.logDebug("refreshing the token failed; signing in again", result.left.message)
          state.tokens = undefined
          yield* store.saveTokens(state.issuer, state.resource, undefined)
          return false
        }
        yield* save(state, result.right, state.tokens?.scope)
        return true
      })

    const authorize = (state: ServerState, scope: string | undefined) =>
      Effect.gen(function*() {
        if (options.login === false) {
          return yield* new OAuthError({
            reason: "LoginRequired",
            message: `${state.resource} requires signing in at ${state.issuer}, and signing in is turned off`
          })
        }
        const oauth = yield* lib
        if (redirect.prepare !== undefined) yield* redirect.prepare
        const client = yield* Identity.ensure(http, options, redirect, store, state.issuer, state.as)
        const verifier = oauth.generateRandomCodeVerifier()
        const expectedState = oauth.generateRandomState()
        const url = new URL(state.as.authorization_endpoint!)
        const params: Record<string, string> = {
          response_type: "code",
          client_id: client.client.client_id,
          redirect_uri: redirect.redirectUri,
          code_challenge: yield* Effect.promise(() => oauth.calculatePKCECodeChallenge(verifier)),
          code_challenge_method: "S256",
          state: expectedState,
          resource: state.resource,
          ...(scope === undefined ? {} : { scope })
        }
        for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
        const back = yield* redirect.authorize(url)
        const callback = yield* Effect.try({
          try: () => oauth.validateAuthResponse(state.as, client.client, back, expectedState),
          catch: (cause) =>
            new OAuthError({
              reason: "Authorization",
              message: `The authorization response from ${state.issuer} was refused: ${Http.describe(cause)}`,
              cause
            })
        })
        const tokens = yield* run(http, "Token", `The token request to ${state.as.token_endpoint}`, async (signal) => {
          const response = await oauth.authorizationCodeGrantRequest(
            state.as,
            client.client,
            client.auth,
            callback,
            redirect.redirectUri,
            verifier,
            { ...Identity.libOptions(oauth, http, state.as, signal), additionalParameters: { resource: state.resource } }
          )
          return oauth.processAuthorizationCodeResponse(state.as, client.client, response)
        })
        yield* save(state, tokens, scope)
      })

    const token: ClientAuth["token"] = (server) =>
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
        return state.tokens?.access_token
      })

    const challenged: ClientAuth["challenged"] = (server, used, status, header) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const challenge = Challenge.parse(header)
        if (status === 403 && challenge.error !== "insufficient_scope") return false
        const known = servers.get(server.href)
        const state = known ?? (yield* discover(server, challenge))
        const current = state.tokens?.access_token
        if (status === 401) {
          // another exchange already got a new token, or one was stored
          if (current !== undefined && current !== used) return true
          if (current !== undefined && (yield* refresh(state))) return true
          yield* authorize(state, options.scope ?? challenge.scope ?? state.scopesSupported?.join(" "))
          return true
        }
        if (state.stepUps >= maxStepUps) {
          return yield* new OAuthError({
            reason: "StepUpLimit",
            message: `${state.resource} still refuses the token for lack of scope (${
              challenge.scope ?? "unnamed"
            }) after ${maxStepUps} step-ups`
          })
        }
        state.stepUps++
        yield* authorize(state, union(state.tokens?.scope, challenge.scope))
        return true
      }))

    return {
      token,
      challenged,
      accepted: (server) => {
        const state = servers.get(server.href)
        if (state !== undefined) state.stepUps = 0
      }
    }
  })
