/**
 * The two services of the client's authorization: the interactive step
 * (`AuthorizationRedirect`) and where credentials are kept (`TokenStore`).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { OAuthError } from "./error.js"

/**
 * How the user is sent to the authorization URL and how the redirect comes
 * back: `authorize` resolves to the URL the authorization server redirected
 * to (`redirectUri` with `code`, `state`, `iss`, or an `error`).
 *
 * @since 0.1.0
 * @category models
 */
export interface AuthorizationRedirectShape {
  readonly redirectUri: string
  /** Run before `redirectUri` is first read in a sign-in (a listener started only when needed, say). */
  readonly prepare?: Effect.Effect<void, OAuthError> | undefined
  readonly authorize: (authorizationUrl: URL) => Effect.Effect<URL, OAuthError>
}

/**
 * The interactive step of signing in.
 *
 * @since 0.1.0
 * @category tags
 */
export class AuthorizationRedirect extends Context.Service<
  AuthorizationRedirect,
  AuthorizationRedirectShape
>()("@effect-mcp/mcp/McpOAuth/AuthorizationRedirect") {}

/**
 * A client identity at an authorization server (keyed by issuer).
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredClient {
  readonly client_id: string
  readonly client_secret?: string | undefined
  readonly token_endpoint_auth_method: "client_secret_basic" | "client_secret_post" | "none"
  /** The redirect URI it was registered with (a dynamically registered client); another one needs a new registration. */
  readonly redirect_uri?: string | undefined
}

/**
 * Tokens for one resource from one issuer.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredTokens {
  readonly access_token: string
  readonly refresh_token?: string | undefined
  /** When the access token expires, in epoch milliseconds (by Effect's Clock). */
  readonly expires_at?: number | undefined
  /** The scopes granted (or requested, when the server did not say). */
  readonly scope?: string | undefined
  /** `DPoP` for a token bound to a DPoP key (RFC 9449); absent for a Bearer token. */
  readonly token_type?: "DPoP" | undefined
  /** The thumbprint of the key a DPoP-bound token is bound to (usable only with that key). */
  readonly dpop_jkt?: string | undefined
}

/**
 * Where credentials are kept: clients by issuer, tokens by issuer and resource.
 *
 * @since 0.1.0
 * @category models
 */
export interface TokenStoreShape {
  readonly client: (issuer: string) => Effect.Effect<StoredClient | undefined>
  readonly saveClient: (issuer: string, client: StoredClient | undefined) => Effect.Effect<void>
  readonly tokens: (issuer: string, resource: string) => Effect.Effect<StoredTokens | undefined>
  readonly saveTokens: (issuer: string, resource: string, tokens: StoredTokens | undefined) => Effect.Effect<void>
}

/**
 * The store of clients and tokens.
 *
 * @since 0.1.0
 * @category tags
 */
export class TokenStore extends Context.Service<TokenStore, TokenStoreShape>()("@effect-mcp/mcp/McpOAuth/TokenStore") {}
