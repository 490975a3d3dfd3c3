/**
 * The RFC 7662 introspection verifier: the authorization server says whether
 * a token is active and what it grants; expiry, not-before and audience are
 * checked here too, on Effect's `Clock`.
 */
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import { audienceOf, type Failure, scopesOf } from "./jwt.js"
import type { PrincipalInfo } from "./principal.js"

export interface IntrospectionOptions {
  /** The introspection endpoint. */
  readonly endpoint: string
  /** The resource server's credentials at the authorization server (`client_secret_basic`). */
  readonly clientId?: string | undefined
  readonly clientSecret?: string | undefined
  /** When set, `iss` in the response must equal it. */
  readonly issuer?: string | undefined
  /** Tolerance on `exp` and `nbf` (default 30 s). */
  readonly clockSkew?: Duration.Input | undefined
  /**
   * Refuse an active token whose response has no `aud` (default true): without
   * it, a token minted for another resource cannot be told apart.
   */
  readonly requireAudience?: boolean | undefined
}

const invalid = (message: string): Failure => ({ _tag: "Invalid", message })

const nonEmpty = (u: unknown): string | undefined => typeof u === "string" && u !== "" ? u : undefined

/** Builds `verify(token, resource)` over the endpoint. */
export const make = (
  options: IntrospectionOptions
): Effect.Effect<(token: string, resource: string) => Effect.Effect<PrincipalInfo, Failure>, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const skewMs = Duration.toMillis(options.clockSkew ?? Duration.seconds(30))
    const requireAudience = options.requireAudience !== false
    const authorization = options.clientId === undefined
      ? {}
      : {
        authorization: `Basic ${
          Base64.encode(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret ?? "")}`)
        }`
      }
    const unavailable: Failure = { _tag: "Unavailable", message: "the introspection endpoint did not answer" }

    const introspect = (token: string) =>
      HttpClientRequest.post(options.endpoint).pipe(
        HttpClientRequest.setHeaders({ accept: "application/json", ...authorization }),
        HttpClientRequest.bodyUrlParams({ token, token_type_hint: "access_token" }),
        client.execute,
        Effect.mapError(() => unavailable),
        Effect.flatMap((response) =>
          response.status === 200 ? Effect.mapError(response.json, () => unavailable) : Effect.fail(unavailable)
        ),
        Effect.scoped
      )

    return (token, resource) =>
      Effect.gen(function*() {
        const body = yield* introspect(token)
        if (typeof body !== "object" || body === null || Array.isArray(body)) {
          return yield* Effect.fail(unavailable)
        }
        const claims = body as { readonly [key: string]: unknown }
        if (claims.active !== true) return yield* Effect.fail(invalid("the token is not active"))
        const now = yield* Clock.currentTimeMillis
        if (typeof claims.exp === "number" && claims.exp * 1000 + skewMs <= now) {
          return yield* Effect.fail(invalid("the token has expired"))
        }
        if (typeof claims.nbf === "number" && claims.nbf * 1000 - skewMs > now) {
          return yield* Effect.fail(invalid("the token is not valid yet"))
        }
        if (options.issuer !== undefined && claims.iss !== options.issuer) {
          return yield* Effect.fail(invalid("the token was not issued by the expected authorization server"))
        }
        const audience = audienceOf(claims.aud)
        if ((audience.length > 0 || requireAudience) && !audience.includes(resource)) {
          return yield* Effect.fail(invalid("the token was not issued for this resource"))
        }
        // RFC 7662 makes both optional: the owner is the subject, else the client; a token naming neither is refused
        const subject = nonEmpty(claims.sub)
        const clientId = nonEmpty(claims.client_id)
        if (subject === undefined && clientId === undefined) {
          return yield* Effect.fail(invalid("the token names no subject (sub) nor client (client_id)"))
        }
        return {
          subject,
          clientId,
          issuer: typeof claims.iss === "string" ? claims.iss : options.issuer,
          scopes: scopesOf(claims),
          audience,
          expiresAt: typeof claims.exp === "number" ? claims.exp * 1000 : undefined,
          claims
        } satisfies PrincipalInfo
      })
  })
