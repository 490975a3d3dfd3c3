/**
 * Where to sign in: the protected resource metadata (RFC 9728) of an MCP
 * server, from its `WWW-Authenticate` challenge or the well-known locations
 * (path-aware first, then the root), and the metadata of its authorization
 * server by RFC 8414 and OpenID discovery (tenant paths included). Metadata
 * for another resource or another issuer is refused, never used.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaParser from "effect/SchemaParser"
import type * as SchemaIssue from "effect/SchemaIssue"
import type * as Oauth from "oauth4webapi"
import type { BearerChallenge } from "./challenge.js"
import { OAuthError } from "./error.js"
import { getJson, type Http } from "./fetch.js"
import { formatIssue } from "../validate.js"

const ResourceMetadata = Schema.Struct({
  resource: Schema.String,
  authorization_servers: Schema.NonEmptyArray(Schema.String),
  scopes_supported: Schema.optional(Schema.Array(Schema.String)),
  dpop_bound_access_tokens_required: Schema.optional(Schema.Boolean)
})
export type ResourceMetadata = typeof ResourceMetadata.Type

const ServerMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  registration_endpoint: Schema.optional(Schema.String),
  scopes_supported: Schema.optional(Schema.Array(Schema.String)),
  code_challenge_methods_supported: Schema.optional(Schema.Array(Schema.String)),
  token_endpoint_auth_methods_supported: Schema.optional(Schema.Array(Schema.String)),
  client_id_metadata_document_supported: Schema.optional(Schema.Boolean),
  authorization_response_iss_parameter_supported: Schema.optional(Schema.Boolean)
})

const withoutSlash = (path: string) => path.replace(/\/+$/, "")

/**
 * Whether metadata naming `resource` may be used for the server at `server`:
 * the same origin, and `resource`'s path the server's or a parent of it
 * (whole segments), without query or fragment.
 */
export const resourceMatches = (resource: string, server: URL): boolean => {
  let url: URL
  try {
    url = new URL(resource)
  } catch {
    return false
  }
  if (url.origin !== server.origin || url.search !== "" || url.hash !== "") return false
  const mine = withoutSlash(url.pathname)
  const theirs = withoutSlash(server.pathname)
  return mine === theirs || theirs.startsWith(`${mine}/`)
}

/** The resource identifier of a server URL when it publishes no metadata: the URL without query and fragment. */
export const canonical = (server: URL): string => {
  const url = new URL(server.href)
  url.search = ""
  url.hash = ""
  return url.href
}

const invalid = (what: string, url: URL, issue: SchemaIssue.Issue) =>
  new OAuthError({
    reason: what === "resource" ? "ResourceMetadata" : "ServerMetadata",
    // one `path: message` per problem, joined with "; " (the wording is Effect 4's)
    message: `The ${what} metadata at ${url.href} is malformed: ${formatIssue(issue)}`
  })

/**
 * The protected resource metadata of the server at `server`, or `undefined`
 * when it publishes none (a 2025-03-26 server: its origin is the issuer).
 */
export const resourceMetadata = (
  http: Http,
  server: URL,
  challenge: BearerChallenge
): Effect.Effect<ResourceMetadata | undefined, OAuthError> =>
  Effect.gen(function*() {
    const path = withoutSlash(server.pathname)
    const candidates = challenge.resourceMetadata !== undefined
      ? [new URL(challenge.resourceMetadata, server)]
      : [
        ...(path === "" ? [] : [new URL(`/.well-known/oauth-protected-resource${path}`, server)]),
        new URL("/.well-known/oauth-protected-resource", server)
      ]
    for (const url of candidates) {
      const found = yield* getJson(http, "ResourceMetadata", url)
      if (found === undefined) continue
      const decoded = SchemaParser.decodeUnknownResult(ResourceMetadata, { errors: "all" })(found.body)
      if (Result.isFailure(decoded)) return yield* invalid("resource", url, decoded.failure)
      if (!resourceMatches(decoded.success.resource, server)) {
        return yield* new OAuthError({
          reason: "ResourceMetadata",
          message:
            `The resource metadata at ${url.href} is for ${JSON.stringify(decoded.success.resource)}, not for ${server.href}: refused`
        })
      }
      return decoded.success
    }
    if (challenge.resourceMetadata !== undefined) {
      return yield* new OAuthError({
        reason: "ResourceMetadata",
        message: `The resource metadata named by the server's WWW-Authenticate (${candidates[0]!.href}) is not there`
      })
    }
    return undefined
  })

/** The authorization server of `server`: the first its metadata names, else (none published) its origin. */
export const issuerOf = (metadata: ResourceMetadata | undefined, server: URL): string =>
  metadata === undefined ? server.origin : metadata.authorization_servers[0]

/** Where the metadata of `issuer` may be: RFC 8414, then OpenID with the path inserted, then appended. */
export const serverMetadataUrls = (issuer: URL): ReadonlyArray<URL> => {
  const path = withoutSlash(issuer.pathname)
  if (path === "") {
    return [
      new URL("/.well-known/oauth-authorization-server", issuer),
      new URL("/.well-known/openid-configuration", issuer)
    ]
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer),
    new URL(`/.well-known/openid-configuration${path}`, issuer),
    new URL(`${path}/.well-known/openid-configuration`, issuer)
  ]
}

/**
 * The metadata of the authorization server `issuer`. Its `issuer` must be
 * `issuer` exactly (RFC 8414 §3.3). `fallback` (a server without resource
 * metadata) defaults the endpoints when no metadata is found.
 */
export const serverMetadata = (
  http: Http,
  issuer: string,
  fallback: boolean
): Effect.Effect<Oauth.AuthorizationServer, OAuthError> =>
  Effect.gen(function*() {
    let issuerUrl: URL
    try {
      issuerUrl = new URL(issuer)
    } catch {
      return yield* new OAuthError({ reason: "ResourceMetadata", message: `The authorization server ${JSON.stringify(issuer)} is not a URL` })
    }
    const urls = serverMetadataUrls(issuerUrl)
    for (const url of urls) {
      const found = yield* getJson(http, "ServerMetadata", url)
      if (found === undefined) continue
      const decoded = SchemaParser.decodeUnknownResult(ServerMetadata, { errors: "all" })(found.body)
      if (Result.isFailure(decoded)) return yield* invalid("authorization server", url, decoded.failure)
      if (decoded.success.issuer !== issuer) {
        return yield* new OAuthError({
          reason: "ServerMetadata",
          message: `The authorization server metadata at ${url.href} names the issuer ${
            JSON.stringify(decoded.success.issuer)
          }, not ${JSON.stringify(issuer)}: refused`
        })
      }
      const methods = decoded.success.code_challenge_methods_supported
      if (methods !== undefined && !methods.includes("S256")) {
        return yield* new OAuthError({
          reason: "ServerMetadata",
          message: `The authorization server ${issuer} does not support PKCE with S256 (code_challenge_methods_supported)`
        })
      }
      return found.body as Oauth.AuthorizationServer
    }
    if (fallback) {
      // 2025-03-26: no metadata at all, the default endpoints at the server's origin
      return {
        issuer,
        authorization_endpoint: new URL("/authorize", issuerUrl).href,
        token_endpoint: new URL("/token", issuerUrl).href,
        registration_endpoint: new URL("/register", issuerUrl).href
      }
    }
    return yield* new OAuthError({
      reason: "ServerMetadata",
      message: `No metadata for the authorization server ${issuer} (tried ${urls.map((u) => u.href).join(", ")})`
    })
  })
