/**
 * The front channel of the authorization code grant: the authorization
 * request (PKCE with S256, `state`, `resource` by RFC 8707, `scope`,
 * `dpop_jkt` by RFC 9449 §10), the user sent there through the
 * `AuthorizationRedirect`, the response checked by oauth4webapi (`state`,
 * `iss`, an `error`), then its code exchanged for tokens.
 */
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import { OAuthError } from "./error.js"
import * as Http from "./fetch.js"
import * as Grants from "./grants.js"
import type { AuthorizationRedirectShape } from "./services.js"

/** What an authorization request carries besides the target. */
interface Request {
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly state: string
  readonly scope: string | undefined
}

/** The authorization URL: the endpoint with the request's parameters. */
const authorizationUrl = (at: Grants.Target, request: Request): URL => {
  const url = new URL(at.as.authorization_endpoint!)
  const params: Record<string, string> = {
    response_type: "code",
    client_id: at.identity.client.client_id,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    code_challenge_method: "S256",
    state: request.state,
    resource: at.resource,
    ...(request.scope === undefined ? {} : { scope: request.scope }),
    ...(at.dpop === undefined ? {} : { dpop_jkt: at.dpop.jkt })
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url
}

/** The callback's parameters, once oauth4webapi accepted the redirect back (`state`, `iss`, no `error`). */
const validate = (oauth: Http.Lib, at: Grants.Target, issuer: string, back: URL, expectedState: string) =>
  Effect.try({
    try: () => oauth.validateAuthResponse(at.as, at.identity.client, back, expectedState),
    catch: (cause) =>
      new OAuthError({
        reason: "Authorization",
        message: `The authorization response from ${issuer} was refused: ${Http.describe(cause)}`,
        cause
      })
  })

/** A user's sign-in at `issuer` (`at`), asking for `scope`: the tokens the code is exchanged for. */
export const signIn = (
  http: Http.Http,
  redirect: AuthorizationRedirectShape,
  at: Grants.Target,
  issuer: string,
  scope: string | undefined
): Effect.Effect<Oauth.TokenEndpointResponse, OAuthError> =>
  Effect.gen(function*() {
    const oauth = yield* Http.lib
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const codeChallenge = yield* Effect.promise(() => oauth.calculatePKCECodeChallenge(verifier))
    const back = yield* redirect.authorize(
      authorizationUrl(at, { redirectUri: redirect.redirectUri, codeChallenge, state, scope })
    )
    const callback = yield* validate(oauth, at, issuer, back, state)
    return yield* Grants.authorizationCode(http, at, callback, redirect.redirectUri, verifier)
  })
