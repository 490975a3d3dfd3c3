/**
 * The token requests of the client, on oauth4webapi: the authorization code
 * exchange, refresh, client credentials, the JWT bearer grant (RFC 7523:
 * workload identity), and enterprise-managed authorization (RFC 8693 token
 * exchange of an ID token for an ID-JAG at the identity provider, then the
 * JWT bearer grant at the authorization server). Each carries `resource`
 * (RFC 8707) and, when the sign-in is sender-constrained, a DPoP proof,
 * retried once with the nonce a `use_dpop_nonce` answer hands out (RFC 9449 §8).
 */
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import type { Dpop } from "./dpop.js"
import { OAuthError } from "./error.js"
import { type Http, lib, type Lib, run } from "./fetch.js"
import * as Identity from "./identity.js"

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
const ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"

/** Where and as whom a token is asked for. */
export interface Target {
  readonly as: Oauth.AuthorizationServer
  readonly identity: Identity.Identity
  readonly resource: string
  /** The DPoP key, when the tokens are to be bound to it. */
  readonly dpop: Dpop | undefined
}

/** A token request: `parameters` (resource, scope, assertion) are also in `options.additionalParameters`. */
type Request = (oauth: Lib, options: Oauth.TokenEndpointRequestOptions, parameters: Record<string, string>) => Promise<Response>

/**
 * Sends a token request and processes its answer; a DPoP `use_dpop_nonce` answer is retried once
 * (oauth4webapi's handle has kept the nonce).
 */
const exchange = (
  http: Http,
  target: Target,
  what: string,
  parameters: Record<string, string>,
  request: Request,
  process: (oauth: Lib, response: Response) => Promise<Oauth.TokenEndpointResponse>
): Effect.Effect<Oauth.TokenEndpointResponse, OAuthError> =>
  Effect.flatMap(lib, (oauth) =>
    run(http, "Token", what, async (signal) => {
      const all = { resource: target.resource, ...parameters }
      const options: Oauth.TokenEndpointRequestOptions = {
        ...Identity.libOptions(oauth, http, target.as, signal),
        additionalParameters: all,
        ...(target.dpop === undefined ? {} : { DPoP: target.dpop.handle })
      }
      try {
        return await process(oauth, await request(oauth, options, all))
      } catch (error) {
        if (target.dpop === undefined || !oauth.isDPoPNonceError(error)) throw error
        return process(oauth, await request(oauth, options, all))
      }
    }))

const scoped = (scope: string | undefined): Record<string, string> => scope === undefined ? {} : { scope }

/** The authorization code exchange (with the PKCE verifier). */
export const authorizationCode = (
  http: Http,
  target: Target,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string
) =>
  exchange(
    http,
    target,
    `The token request to ${target.as.token_endpoint}`,
    {},
    (oauth, options) =>
      oauth.authorizationCodeGrantRequest(
        target.as,
        target.identity.client,
        target.identity.auth,
        callback,
        redirectUri,
        verifier,
        options
      ),
    (oauth, response) => oauth.processAuthorizationCodeResponse(target.as, target.identity.client, response)
  )

/** A refresh token grant. */
export const refresh = (http: Http, target: Target, refreshToken: string) =>
  exchange(
    http,
    target,
    `Refreshing the token at ${target.as.token_endpoint}`,
    {},
    (oauth, options) =>
      oauth.refreshTokenGrantRequest(target.as, target.identity.client, target.identity.auth, refreshToken, options),
    (oauth, response) => oauth.processRefreshTokenResponse(target.as, target.identity.client, response)
  )

/** The client credentials grant (the client acts for itself: a secret or a private key JWT). */
export const clientCredentials = (http: Http, target: Target, scope: string | undefined) =>
  exchange(
    http,
    target,
    `The client credentials grant at ${target.as.token_endpoint}`,
    scoped(scope),
    (oauth, options, parameters) =>
      oauth.clientCredentialsGrantRequest(target.as, target.identity.client, target.identity.auth, parameters, options),
    (oauth, response) => oauth.processClientCredentialsResponse(target.as, target.identity.client, response)
  )

/** The JWT bearer grant (RFC 7523 §2.1) with `assertion`. */
export const jwtBearer = (http: Http, target: Target, assertion: string, scope: string | undefined) =>
  exchange(
    http,
    target,
    `The JWT bearer grant at ${target.as.token_endpoint}`,
    { assertion, ...scoped(scope) },
    (oauth, options, parameters) =>
      oauth.genericTokenEndpointRequest(target.as, target.identity.client, target.identity.auth, JWT_BEARER, parameters, options),
    (oauth, response) => oauth.processGenericTokenEndpointResponse(target.as, target.identity.client, response)
  )

/** The identity provider of enterprise-managed authorization. */
export interface IdentityProvider {
  readonly tokenEndpoint: string
  readonly issuer?: string | undefined
  readonly clientId: string
  readonly clientSecret?: string | undefined
}

/**
 * RFC 8693 at the identity provider: the user's ID token for an ID-JAG (an identity assertion
 * authorization grant) naming the authorization server (`audience`) and the MCP server (`resource`).
 */
export const idJag = (
  http: Http,
  idp: IdentityProvider,
  idToken: string,
  audience: string,
  resource: string,
  scope: string | undefined
): Effect.Effect<string, OAuthError> =>
  Effect.gen(function*() {
    const oauth = yield* lib
    const as: Oauth.AuthorizationServer = {
      issuer: idp.issuer ?? new URL(idp.tokenEndpoint).origin,
      token_endpoint: idp.tokenEndpoint
    }
    const client: Oauth.Client = { client_id: idp.clientId }
    const auth = idp.clientSecret === undefined ? oauth.None() : oauth.ClientSecretBasic(idp.clientSecret)
    const answer = yield* run(http, "Token", `The token exchange at ${idp.tokenEndpoint}`, async (signal) => {
      const response = await oauth.genericTokenEndpointRequest(as, client, auth, TOKEN_EXCHANGE, {
        subject_token: idToken,
        subject_token_type: ID_TOKEN,
        requested_token_type: ID_JAG,
        audience,
        resource,
        ...scoped(scope)
      }, { ...Identity.libOptions(oauth, http, as, signal) })
      // an ID-JAG is no access token: its token_type is N_A (RFC 8693 §2.2.1)
      return oauth.processGenericTokenEndpointResponse(as, client, response, { recognizedTokenTypes: { n_a: () => {} } })
    })
    if (answer.issued_token_type !== ID_JAG) {
      return yield* new OAuthError({
        reason: "Token",
        message: `The token exchange at ${idp.tokenEndpoint} issued ${
          JSON.stringify(answer.issued_token_type ?? "no issued_token_type")
        }, not an ID-JAG (${ID_JAG})`
      })
    }
    return answer.access_token
  })
