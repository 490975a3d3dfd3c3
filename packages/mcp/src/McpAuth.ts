/**
 * Authorization for the HTTP transports, resource-server side (MCP
 * authorization spec, 2025-06-18 and later): every request carries a bearer
 * token, checked by the `TokenVerifier` in context; the server publishes its
 * Protected Resource Metadata (RFC 9728) and answers
 *
 * - 401 `WWW-Authenticate: Bearer resource_metadata="…", scope="…"` when the
 *   token is missing, with `error="invalid_token"` when it is invalid,
 *   expired, or minted for another resource (RFC 8707);
 * - 403 `error="insufficient_scope"`, `scope` naming what is needed, when a
 *   request needs scopes the token lacks (per method, here, or per feature:
 *   the `scopes` of a tool, resource, template or prompt);
 * - 404 when a session is used with the token of a principal other than the
 *   one that created it, as if the session did not exist.
 *
 * A principal is its issuer, subject and client id (all three; scopes and
 * expiry may change): sessions, tasks and request states are bound to it. A
 * token whose principal names neither a subject nor a client is refused
 * (401 `invalid_token`), whichever verifier found it.
 *
 * Provide `McpAuth` (and a verifier) to `StreamableHttpServer`,
 * `LegacySseServer` or `NodeStreamableHttp`: they use it when it is in
 * context. Handlers read the caller with `yield* McpAuth.Principal`. Tokens
 * are never logged nor kept.
 *
 * @example
 * ```ts
 * import * as McpAuth from "@effect-mcp/mcp/McpAuth"
 * import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
 * import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
 * import * as Layer from "effect/Layer"
 *
 * const AuthLive = McpAuth.layer({
 *   resource: "https://mcp.example.com/mcp",
 *   authorizationServers: ["https://auth.example.com"],
 *   scopesSupported: ["mcp:tools"],
 *   methodScopes: { "tools/call": ["mcp:tools"] }
 * }).pipe(
 *   Layer.provide(McpAuth.layerJwtVerifier({ issuer: "https://auth.example.com" })),
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * const HttpLive = NodeStreamableHttp.layer({ port: 3000, host: "0.0.0.0" }).pipe(Layer.provide(AuthLive))
 * ```
 * @since 0.1.0
 */
import type * as HttpClient from "effect/http/HttpClient"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Introspection from "./internal/auth/introspection.js"
import * as Jwt from "./internal/auth/jwt.js"
import { identifies, missingScopes, Principal, type PrincipalInfo, sameOwner } from "./internal/auth/principal.js"
import { isPrincipal, McpAuth, type McpAuthShape, type ProtectedResourceMetadata } from "./internal/auth/service.js"

export {
  /**
   * Whether an `authenticate` result is a principal (not a response to send).
   * @since 0.1.0
   * @category guards
   */
  isPrincipal,
  /**
   * Protects the HTTP transports that find it in their context.
   * @since 0.1.0
   * @category services
   */
  McpAuth,
  /**
   * The service: authenticates a request, answers the metadata document.
   * @since 0.1.0
   * @category models
   */
  type McpAuthShape,
  /**
   * The Protected Resource Metadata document (RFC 9728).
   * @since 0.1.0
   * @category models
   */
  type ProtectedResourceMetadata,
  /**
   * The authenticated caller, in a handler's context on a protected transport.
   * @since 0.1.0
   * @category services
   */
  Principal,
  /**
   * What a verified token says about its bearer.
   * @since 0.1.0
   * @category models
   */
  type PrincipalInfo
}

/**
 * A token that was refused (`Invalid`: 401) or a verifier that could not
 * decide (`Unavailable`: the authorization server did not answer; 503).
 * `message` says what was wrong and never contains the token.
 *
 * @example
 * ```ts
 * import { AuthError } from "@effect-mcp/mcp/McpAuth"
 *
 * const expired = new AuthError({ reason: "Invalid", message: "the token has expired" })
 * ```
 * @since 0.1.0
 * @category errors
 */
export class AuthError extends Schema.TaggedError<AuthError>("@effect-mcp/mcp/McpAuth/AuthError")("AuthError", {
  reason: Schema.Literals(["Invalid", "Unavailable"]),
  message: Schema.String
}) {}

/**
 * Verifies a bearer token for a resource (the server's URL): its signature or
 * activity, expiry, and that it was minted for `resource` (RFC 8707). The
 * principal must name its `subject` or its `clientId` (else `McpAuth`
 * answers 401).
 *
 * @example
 * ```ts
 * import * as McpAuth from "@effect-mcp/mcp/McpAuth"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // a verifier of your own: static API keys
 * const ApiKeys = Layer.succeed(McpAuth.TokenVerifier, {
 *   verify: (token, resource) =>
 *     token === "k-123"
 *       ? Effect.succeed({ subject: "ci", clientId: undefined, issuer: undefined, scopes: ["mcp:tools"],
 *           audience: [resource], expiresAt: undefined, claims: {} })
 *       : Effect.fail(new McpAuth.AuthError({ reason: "Invalid", message: "unknown key" }))
 * })
 * ```
 * @since 0.1.0
 * @category services
 */
export class TokenVerifier extends Context.Service<TokenVerifier, {
  readonly verify: (token: string, resource: string) => Effect.Effect<PrincipalInfo, AuthError>
}>()("@effect-mcp/mcp/McpAuth/TokenVerifier") {}

const fromFailure = <A>(verify: (token: string, resource: string) => Effect.Effect<A, Jwt.Failure>) =>
(token: string, resource: string): Effect.Effect<A, AuthError> =>
  Effect.mapError(verify(token, resource), (f) => new AuthError({ reason: f._tag, message: f.message }))

/**
 * JWT access tokens (RFC 9068) of one issuer: keys from its JWKS, found
 * through its authorization-server metadata (RFC 8414, then OpenID
 * discovery) on first use and fetched again for an unknown `kid`; `iss`,
 * `aud` (the server's URL), `exp` and `nbf` (with `clockSkew`, default 30 s,
 * on Effect's `Clock`) checked, and `sub` required (RFC 9068 §2.2). A token
 * without `kid` (RFC 7515 makes it optional) is tried against the keys of
 * the set that fit its `alg`, at most 5 of them (an issuer publishing more
 * such keys must name them with `kid`), the keys fetched again (as for an
 * unknown `kid`, not sooner than 30 s after the last fetch) when none verifies it.
 *
 * @example
 * ```ts
 * import * as McpAuth from "@effect-mcp/mcp/McpAuth"
 *
 * const Verifier = McpAuth.layerJwtVerifier({ issuer: "https://auth.example.com", typ: "at+jwt" })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerJwtVerifier = (options: Jwt.JwtOptions): Layer.Layer<TokenVerifier, never, HttpClient.HttpClient> =>
  Layer.effect(TokenVerifier, Effect.map(Jwt.make(options), (verify) => ({ verify: fromFailure(verify) })))

/**
 * Options of `layerJwtVerifier`.
 * @since 0.1.0
 * @category models
 */
export type JwtOptions = Jwt.JwtOptions

/**
 * Opaque tokens through RFC 7662 introspection: the authorization server
 * says whether the token is active; `exp`, `nbf` and `aud` are checked here
 * too (an active token without `aud` is refused unless `requireAudience` is
 * false). `sub` is optional there: without it the principal is the
 * `client_id` (a client acting for itself); a response naming neither is
 * refused.
 *
 * @example
 * ```ts
 * import * as McpAuth from "@effect-mcp/mcp/McpAuth"
 *
 * const Verifier = McpAuth.layerIntrospectionVerifier({
 *   endpoint: "https://auth.example.com/introspect",
 *   clientId: "mcp-server",
 *   clientSecret: "…"
 * })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerIntrospectionVerifier = (
  options: Introspection.IntrospectionOptions
): Layer.Layer<TokenVerifier, never, HttpClient.HttpClient> =>
  Layer.effect(TokenVerifier, Effect.map(Introspection.make(options), (verify) => ({ verify: fromFailure(verify) })))

/**
 * Options of `layerIntrospectionVerifier`.
 * @since 0.1.0
 * @category models
 */
export type IntrospectionOptions = Introspection.IntrospectionOptions

/**
 * Options of `make` and `layer`: the resource, its authorization servers and
 * the scopes it needs.
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The server's canonical URL, the MCP endpoint (`https://mcp.example.com/mcp`): the `resource` and the expected audience. */
  readonly resource: string
  /** Issuers of the authorization servers clients should use. */
  readonly authorizationServers: ReadonlyArray<string>
  /**
   * Published as `scopes_supported`, and the `scope` of a 401 challenge.
   * `offline_access` is left out of both: a refresh token is the
   * authorization server's business, not a scope of the resource (SEP-2207).
   */
  readonly scopesSupported?: ReadonlyArray<string> | undefined
  /** Scopes every request needs. */
  readonly requiredScopes?: ReadonlyArray<string> | undefined
  /** Scopes a method needs (`{ "tools/call": ["mcp:tools"] }`), on top of the feature's own. */
  readonly methodScopes?: { readonly [method: string]: ReadonlyArray<string> } | undefined
  /** `resource_name` in the metadata. */
  readonly resourceName?: string | undefined
  /** Other fields of the metadata document (`resource_documentation`, …). */
  readonly metadata?: { readonly [key: string]: unknown } | undefined
}

/** A `quoted-string` of an auth-param (RFC 9110): backslash and quote escaped. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`

/**
 * The path-aware metadata URL of a resource (RFC 9728 §3.1): the well-known
 * segment between host and path.
 *
 * @example
 * ```ts
 * import { metadataUrlOf } from "@effect-mcp/mcp/McpAuth"
 *
 * metadataUrlOf("https://mcp.example.com/mcp") // "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
 * ```
 * @since 0.1.0
 * @category metadata
 */
export const metadataUrlOf = (resource: string): string => {
  const url = new URL(resource)
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "")
  return `${url.origin}/.well-known/oauth-protected-resource${path}`
}

/** A verifier's principal with neither subject nor client id: no owner to bind sessions and tasks to. */
const ANONYMOUS = "the token names no subject (sub) nor client (client_id)"

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

/**
 * Builds the service; the verifier comes from context.
 *
 * @example
 * ```ts
 * import * as McpAuth from "@effect-mcp/mcp/McpAuth"
 * import * as Effect from "effect/Effect"
 *
 * const auth = McpAuth.make({
 *   resource: "https://mcp.example.com/mcp",
 *   authorizationServers: ["https://auth.example.com"]
 * }) // Effect<McpAuthShape, never, TokenVerifier>
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<McpAuthShape, never, TokenVerifier> =>
  Effect.gen(function*() {
    const verifier = yield* TokenVerifier
    const resource = options.resource
    // SEP-2207: a resource server does not advertise (or ask for) offline_access
    const scopesSupported = options.scopesSupported?.filter((s) => s !== "offline_access")
    const requiredScopes = options.requiredScopes?.filter((s) => s !== "offline_access")
    const metadataUrl = metadataUrlOf(resource)
    const path = new URL(metadataUrl).pathname
    const root = "/.well-known/oauth-protected-resource"
    const metadataPaths = path === root ? [root] : [path, root]
    const metadata: ProtectedResourceMetadata = {
      ...options.metadata,
      resource,
      authorization_servers: options.authorizationServers,
      ...(scopesSupported !== undefined ? { scopes_supported: scopesSupported } : {}),
      bearer_methods_supported: ["header"],
      ...(options.resourceName !== undefined ? { resource_name: options.resourceName } : {})
    }
    const metadataBody = JSON.stringify(metadata)
    const metadataResponse = HttpServerResponse.text(metadataBody, {
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*", "cache-control": "max-age=3600" }
    })
    // a public document, readable by any page; a browser client that sends headers of its own
    // (`MCP-Protocol-Version`, `traceparent`) asks first: its preflight is allowed, headers reflected
    const metadataApp: McpAuthShape["metadataApp"] = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
      request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined
        ? HttpServerResponse.empty({
          status: 204,
          headers: {
            "access-control-allow-origin": "*",
            "access-control-allow-methods": "GET",
            "access-control-allow-headers": request.headers["access-control-request-headers"] ?? "",
            "access-control-max-age": "3600"
          }
        })
        : metadataResponse)
    const challengeScope = scopesSupported ?? requiredScopes

    const challenge = (status: number, params: Record<string, string | undefined>, description: string) => {
      // error first, as in RFC 6750's examples; then where to learn more, then what to ask for
      const fields = Object.entries({ error: params.error, resource_metadata: metadataUrl, scope: params.scope })
        .filter((e): e is [string, string] => e[1] !== undefined)
        .map(([k, v]) => `${k}=${quoted(v)}`)
      const body = params.error === undefined
        ? { error: "invalid_request", error_description: description }
        : { error: params.error, error_description: description }
      return HttpServerResponse.jsonUnsafe(body, {
        status,
        headers: { "www-authenticate": `Bearer ${fields.join(", ")}` }
      })
    }
    const scopeParam = (scopes: ReadonlyArray<string> | undefined) =>
      scopes === undefined || scopes.length === 0 ? undefined : scopes.join(" ")

    const authenticate: McpAuthShape["authenticate"] = (headers) => {
      const header = headers["authorization"]
      if (header === undefined) {
        return Effect.succeed(challenge(401, { scope: scopeParam(challengeScope) }, "a bearer token is required"))
      }
      const match = BEARER.exec(header)
      if (match === null) {
        return Effect.succeed(
          challenge(401, { error: "invalid_token", scope: scopeParam(challengeScope) }, "the Authorization header is not a bearer token")
        )
      }
      return verifier.verify(match[1]!, resource).pipe(
        Effect.filterOrFail(identifies, () => new AuthError({ reason: "Invalid", message: ANONYMOUS })),
        Effect.catch((error) =>
          error.reason === "Invalid"
            ? Effect.succeed(challenge(401, { error: "invalid_token", scope: scopeParam(challengeScope) }, error.message))
            : Effect.as(
              Effect.logWarning(`McpAuth: ${error.message}`),
              HttpServerResponse.jsonUnsafe(
                { error: "temporarily_unavailable", error_description: "the token could not be verified now" },
                { status: 503, headers: { "retry-after": "5" } }
              )
            )
        )
      )
    }

    const authorize: McpAuthShape["authorize"] = (principal, requests, featureScopes) =>
      Effect.gen(function*() {
        const needed = new Set(requiredScopes ?? [])
        for (const request of requests) {
          for (const s of options.methodScopes?.[request.method] ?? []) needed.add(s)
          for (const s of yield* featureScopes(request)) needed.add(s)
        }
        const scopes = Array.from(needed)
        const missing = missingScopes(principal, scopes)
        if (missing.length === 0) return undefined
        return challenge(
          403,
          { error: "insufficient_scope", scope: scopes.join(" ") },
          `the token lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(" ")}`
        )
      })

    return { resource, metadata, metadataPaths, metadataUrl, metadataApp, authenticate, authorize, sameOwner }
  })

/**
 * The service as a Layer over the `TokenVerifier` in context.
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<McpAuth, never, TokenVerifier> => Layer.effect(McpAuth, make(options))

/**
 * Scope check a feature-level caller can use: the scopes of `needed` that `principal` lacks.
 * @since 0.1.0
 * @category scopes
 */
export { missingScopes }
