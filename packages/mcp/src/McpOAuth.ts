/**
 * OAuth 2.1 for MCP clients: sign in to a server that requires a token.
 *
 * Give a transport an `auth` (`McpOAuth.make`) and its exchanges carry a
 * token; a 401 runs the flow, then the exchange is sent once more:
 *
 * - discovery: the protected resource metadata (RFC 9728) from the server's
 *   `WWW-Authenticate`, else the well-known locations (path-aware, then root);
 *   the authorization server's metadata by RFC 8414 and OpenID discovery
 *   (tenant paths included); metadata for another resource or whose `issuer`
 *   is not the one named is refused. A server without resource metadata
 *   (2025-03-26) is its own issuer, with `/authorize`, `/token` and
 *   `/register` as defaults. A refused token reads the resource metadata
 *   again: a server that now names another authorization server is signed in
 *   to there, with an identity of its own (SEP-2352);
 * - client identity, in order: pre-registered (`clientId`, with a secret or a
 *   private key for `private_key_jwt`), a client ID metadata document
 *   (`clientMetadataUrl`, when supported), dynamic client registration
 *   (RFC 7591, with `application_type`); kept in the `TokenStore` by issuer;
 * - authorization code with PKCE S256, `state`, `resource` (RFC 8707) on the
 *   authorize and token requests, `iss` checked (RFC 9207); scopes from the
 *   challenge, else the resource's `scopes_supported`, else none, with
 *   `offline_access` where the authorization server lists it;
 * - other grants (`grant`): client credentials, the JWT bearer grant of
 *   workload identity, enterprise-managed authorization (an ID token
 *   exchanged for an ID-JAG, RFC 8693, then the JWT bearer grant);
 * - DPoP-bound tokens (RFC 9449) when the server asks for them: a proof at
 *   the token endpoint and on every request, the servers' nonces honoured;
 * - a refresh token is used before signing in again (also when the access
 *   token expired, by Effect's Clock); a 403 `insufficient_scope` signs in
 *   again with the scopes asked for added (at most `maxStepUps`, default 3,
 *   in a row).
 *
 * The interactive step is the `AuthorizationRedirect` service
 * (`layerHeadless` here; a loopback listener for people in
 * `@effect-mcp/node`); tokens live in the `TokenStore` (`layerMemoryStore`
 * here; a file store in `@effect-mcp/node`). `oauth4webapi` is loaded on the
 * first sign-in only. Tokens are never logged.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Authorizer from "./internal/oauth/authorizer.js"
import { OAuthError } from "./internal/oauth/error.js"
import { describe } from "./internal/oauth/fetch.js"
import type * as Grants from "./internal/oauth/grants.js"
import type * as Identity from "./internal/oauth/identity.js"
import {
  AuthorizationRedirect,
  type StoredClient,
  type StoredTokens,
  TokenStore,
  type TokenStoreShape
} from "./internal/oauth/services.js"

export {
  /**
   * @since 0.1.0
   * @category tags
   */
  AuthorizationRedirect,
  /**
   * @since 0.1.0
   * @category errors
   */
  OAuthError,
  /**
   * @since 0.1.0
   * @category tags
   */
  TokenStore
}
export type {
  /**
   * @since 0.1.0
   * @category models
   */
  AuthorizationRedirectShape,
  /**
   * @since 0.1.0
   * @category models
   */
  StoredClient,
  /**
   * @since 0.1.0
   * @category models
   */
  StoredTokens,
  /**
   * @since 0.1.0
   * @category models
   */
  TokenStoreShape
} from "./internal/oauth/services.js"

/**
 * A private key for `private_key_jwt` client authentication (RFC 7523 §2.2):
 * a `CryptoKey` that can sign, or a PKCS#8 PEM, with its JWS algorithm
 * (default ES256) and key ID.
 *
 * @since 0.1.0
 * @category models
 */
export type PrivateKey = Identity.PrivateKey

/**
 * The identity provider of enterprise-managed authorization: where the ID
 * token is exchanged for an ID-JAG (RFC 8693), as which client.
 *
 * @since 0.1.0
 * @category models
 */
export type IdentityProvider = Grants.IdentityProvider

/**
 * How the client gets its tokens:
 *
 * - `"authorization_code"` (default): a user signs in (PKCE, the
 *   `AuthorizationRedirect` service);
 * - `"client_credentials"`: the client acts for itself, with its secret or
 *   its private key (`clientId` with `clientSecret` or `clientPrivateKey`);
 * - `{ type: "jwt-bearer", assertion }`: workload identity (RFC 7523 §2.1):
 *   a JWT from the workload's identity provider, whose audience is the
 *   authorization server;
 * - `{ type: "enterprise", identityProvider, idToken }`: enterprise-managed
 *   authorization: the user's ID token is exchanged at the identity provider
 *   for an ID-JAG naming the authorization server and this resource, which
 *   the authorization server takes as a JWT bearer grant.
 *
 * An assertion or ID token may be an Effect, run for each new token.
 * Failures of these grants are reported, never retried with another grant.
 *
 * @since 0.1.0
 * @category models
 */
export type Grant =
  | "authorization_code"
  | "client_credentials"
  | {
    readonly type: "jwt-bearer"
    readonly assertion: string | Effect.Effect<string, OAuthError>
  }
  | {
    readonly type: "enterprise"
    readonly identityProvider: IdentityProvider
    readonly idToken: string | Effect.Effect<string, OAuthError>
  }

/**
 * How the client signs in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** A pre-registered client ID (used before any other identity). */
  readonly clientId?: string | undefined
  /** Its secret, for a confidential client. */
  readonly clientSecret?: string | undefined
  /** Its private key, for `private_key_jwt` (used instead of a secret). */
  readonly clientPrivateKey?: PrivateKey | undefined
  /** How a pre-registered client authenticates at the token endpoint (default: `private_key_jwt` with a key, else as the server supports). */
  readonly tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt" | undefined
  /** A client ID metadata document URL, used as `client_id` where the server supports it. */
  readonly clientMetadataUrl?: string | undefined
  /** The `client_name` of a dynamic registration (default "effect-mcp"). */
  readonly clientName?: string | undefined
  /** The `application_type` of a dynamic registration (default: native for a loopback or private-scheme redirect URI, else web). */
  readonly applicationType?: "native" | "web" | undefined
  /** How tokens are obtained (default the authorization code flow). */
  readonly grant?: Grant | undefined
  /** The scopes to ask for, instead of the server's. */
  readonly scope?: string | undefined
  /** Ask for `offline_access` (a refresh token) where the authorization server lists it (default true). */
  readonly offlineAccess?: boolean | undefined
  /**
   * DPoP-bound tokens (RFC 9449): `"auto"` (default) when the server asks for
   * them (a DPoP challenge, or `dpop_bound_access_tokens_required`) and the
   * authorization server supports ES256 proofs; `true` whenever it does;
   * `false` never.
   */
  readonly dpop?: boolean | "auto" | undefined
  /** Step-ups in a row before giving up (default 3). */
  readonly maxStepUps?: number | undefined
  /** `false`: never sign in interactively (a stored or refreshed token only). */
  readonly login?: boolean | undefined
  /** The `fetch` for the authorization server and metadata (default the global one). */
  readonly fetch?: ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) | undefined
  /** Bound on each exchange with the authorization server (default 30 s). */
  readonly timeout?: import("effect/Duration").Input | undefined
  /** Allow plain http for any host (default: loopback hosts only). */
  readonly allowHttp?: boolean | undefined
}

/**
 * What a transport's `auth` option takes.
 *
 * @since 0.1.0
 * @category models
 */
export type ClientAuth = Authorizer.ClientAuth

/**
 * The authorization of a client, for the `auth` option of
 * `StreamableHttpClient` and `LegacySseClient`. One value may serve several
 * servers.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
 * import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
 * import * as Effect from "effect/Effect"
 *
 * const transport = Effect.flatMap(McpOAuth.make({ scope: "mcp:tools" }), (auth) =>
 *   StreamableHttpClient.make({ url: "https://example.com/mcp", auth }))
 * ```
 */
export const make = (options: Options = {}): Effect.Effect<ClientAuth, never, AuthorizationRedirect | TokenStore> =>
  Effect.flatMap(
    Effect.all([AuthorizationRedirect, TokenStore]),
    ([redirect, store]) => Authorizer.make(options, redirect, store)
  )

/**
 * A `TokenStore` in memory.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
 * import * as Layer from "effect/Layer"
 *
 * const Tokens = Layer.succeed(McpOAuth.TokenStore, McpOAuth.makeMemoryStore())
 * ```
 */
export const makeMemoryStore = (): TokenStoreShape => {
  const clients = new Map<string, StoredClient>()
  const tokens = new Map<string, StoredTokens>()
  const key = (issuer: string, resource: string) => JSON.stringify([issuer, resource])
  const set = <A>(map: Map<string, A>, k: string, value: A | undefined) =>
    Effect.sync(() => {
      if (value === undefined) map.delete(k)
      else map.set(k, value)
    })
  return {
    client: (issuer) => Effect.sync(() => clients.get(issuer)),
    saveClient: (issuer, client) => set(clients, issuer, client),
    tokens: (issuer, resource) => Effect.sync(() => tokens.get(key(issuer, resource))),
    saveTokens: (issuer, resource, value) => set(tokens, key(issuer, resource), value)
  }
}

/**
 * The default `TokenStore`: in memory, for the life of the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemoryStore: Layer.Layer<TokenStore> = Layer.sync(TokenStore, makeMemoryStore)

/**
 * Options of the headless redirect.
 *
 * @since 0.1.0
 * @category models
 */
export interface HeadlessOptions {
  /** The redirect URI registered and sent (never listened on). Default `http://127.0.0.1/callback`. */
  readonly redirectUri?: string | undefined
  /** Redirects followed before giving up (default 20). */
  readonly maxRedirects?: number | undefined
  /** The `fetch` to use (default the global one). */
  readonly fetch?: ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) | undefined
  /** Bound on the whole step (default 30 s). */
  readonly timeout?: import("effect/Duration").Input | undefined
}

const cookiesOf = (response: Response, jar: Map<string, string>) => {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0]!
    const eq = pair.indexOf("=")
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
  }
}

/**
 * The authorization step without a person: GETs the authorization URL with
 * `redirect: "manual"` and follows `Location` (keeping cookies) until it
 * points at the redirect URI. For tests and automation against servers that
 * grant without interaction.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
 * import * as Layer from "effect/Layer"
 *
 * const Redirect = Layer.succeed(
 *   McpOAuth.AuthorizationRedirect,
 *   McpOAuth.makeHeadless({ redirectUri: "http://127.0.0.1:8976/callback" })
 * )
 * ```
 */
export const makeHeadless = (options: HeadlessOptions = {}): import("./internal/oauth/services.js").AuthorizationRedirectShape => {
  const redirectUri = options.redirectUri ?? "http://127.0.0.1/callback"
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const max = options.maxRedirects ?? 20
  const fail = (message: string, cause?: unknown) =>
    new OAuthError(cause === undefined ? { reason: "Authorization", message } : { reason: "Authorization", message, cause })
  const authorize = (url: URL) =>
    Effect.tryPromise({
      try: async (signal) => {
        const jar = new Map<string, string>()
        let current = url
        for (let hop = 0; hop <= max; hop++) {
          const cookie = Array.from(jar, ([k, v]) => `${k}=${v}`).join("; ")
          const response = await doFetch(current, { redirect: "manual", signal, headers: cookie === "" ? {} : { cookie } })
          cookiesOf(response, jar)
          const location = response.headers.get("location")
          await response.body?.cancel()
          if (response.status < 300 || response.status >= 400 || location === null) {
            throw fail(`The authorization at ${url.origin} stopped at ${current.href} (HTTP ${response.status}) without redirecting back`)
          }
          const next = new URL(location, current)
          if (next.href.startsWith(redirectUri)) return next
          current = next
        }
        throw fail(`The authorization at ${url.origin} redirected more than ${max} times`)
      },
      catch: (cause) => cause instanceof OAuthError ? cause : fail(`The authorization at ${url.origin} failed: ${describe(cause)}`, cause)
    }).pipe(
      Effect.timeoutOrElse({
        duration: options.timeout ?? "30 seconds",
        orElse: () => Effect.fail(fail(`The authorization at ${url.origin} did not redirect back in time`))
      })
    )
  return { redirectUri, authorize }
}

/**
 * The headless `AuthorizationRedirect` as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHeadless = (options: HeadlessOptions = {}): Layer.Layer<AuthorizationRedirect> =>
  Layer.sync(AuthorizationRedirect, () => makeHeadless(options))
