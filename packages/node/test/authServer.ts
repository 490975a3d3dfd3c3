/**
 * A real authorization server for tests: `oidc-provider` on 127.0.0.1:0 with
 * client credentials, resource indicators (RFC 8707) and JWT access tokens
 * (RFC 9068). Two clients, `alice` and `bob`, each its own principal.
 * Also the authorization code flow for our OAuth client: dynamic
 * registration, PKCE, refresh tokens, and a test-only auto-consent at the
 * interaction endpoints (the user `user` signs in and grants every scope
 * asked for), so that a headless redirect reaches the callback.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as jose from "jose"
import Provider from "oidc-provider"

export const SCOPES = ["mcp:tools", "mcp:admin"]

export interface AuthServer {
  readonly issuer: string
  /** A client-credentials access token for `resource`; `scope` defaults to `mcp:tools`. */
  readonly token: (client: "alice" | "bob", resource: string, scope?: string) => Effect.Effect<string>
  /** Signs any claims with the issuer's own key (for expired or odd tokens a real server would not mint). */
  readonly sign: (claims: jose.JWTPayload) => Effect.Effect<string>
}

export interface AuthServerOptions {
  /** Lifetime of access tokens, in seconds (default 300). */
  readonly accessTokenTTL?: number
  /** The scopes the user grants when asked (default all); the others are refused. */
  readonly grantable?: ReadonlyArray<string>
}

export const startAuthServer: Effect.Effect<AuthServer, never, Scope.Scope> = Effect.suspend(() => startAuthServerWith({}))

export const startAuthServerWith = (options: AuthServerOptions): Effect.Effect<AuthServer, never, Scope.Scope> => Effect.gen(function*() {
  const { privateKey } = yield* Effect.promise(() => jose.generateKeyPair("RS256", { extractable: true }))
  const jwk = { ...(yield* Effect.promise(() => jose.exportJWK(privateKey))), kid: "k1", alg: "RS256", use: "sig" }
  const server = http.createServer()
  yield* Effect.acquireRelease(
    Effect.callback<void>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.void))
    }),
    () => Effect.callback<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
  )
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const client = (id: string) => ({
    client_id: id,
    client_secret: `${id}-secret-0123456789abcdef`,
    grant_types: ["client_credentials"],
    response_types: [],
    redirect_uris: [],
    scope: SCOPES.join(" ")
  })
  const provider = new Provider(issuer, {
    clients: [client("alice"), client("bob")],
    scopes: SCOPES,
    jwks: { keys: [jwk as never] },
    ttl: { ClientCredentials: 300 },
    cookies: { keys: ["test-cookie-key-0123456789"] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: SCOPES.join(" "),
          audience: resource,
          accessTokenFormat: "jwt",
          accessTokenTTL: options.accessTokenTTL ?? 300,
          jwt: { sign: { alg: "RS256" } }
        })
      }
    }
  })
  const callback = provider.callback()
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/") !== true) return callback(req, res)
    void autoConsent(provider, req, res, options.grantable ?? SCOPES).catch((error) => {
      res.statusCode = 500
      res.end(String(error))
    })
  })
  const token = (id: "alice" | "bob", resource: string, scope = "mcp:tools") =>
    Effect.promise(async () => {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${id}:${id}-secret-0123456789abcdef`).toString("base64")}`
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope })
      })
      const body = await response.json() as { access_token?: string }
      if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`)
      return body.access_token
    })
  const sign = (claims: jose.JWTPayload) =>
    Effect.promise(() =>
      new jose.SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1", typ: "at+jwt" }).sign(privateKey)
    )
  return { issuer, token, sign }
})

/** Test-only interaction: sign `user` in, then grant what is asked. */
const autoConsent = async (
  provider: Provider,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  grantable: ReadonlyArray<string>
) => {
  const details = await provider.interactionDetails(req, res)
  if (details.prompt.name === "login") {
    return provider.interactionFinished(req, res, { login: { accountId: "user" } }, { mergeWithLastSubmission: false })
  }
  const grant = details.grantId !== undefined
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string })
  const missing = details.prompt.details as {
    missingOIDCScope?: Array<string>
    missingResourceScopes?: Record<string, Array<string>>
  }
  if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    const granted = scopes.filter((s) => grantable.includes(s))
    const refused = scopes.filter((s) => !grantable.includes(s))
    if (granted.length > 0) grant.addResourceScope(resource, granted.join(" "))
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(" "))
  }
  const grantId = await grant.save()
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
}
