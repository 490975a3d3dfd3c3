/**
 * The JWT access-token verifier: the issuer's keys found through its metadata
 * (RFC 8414, then OpenID discovery), signatures and claims checked by `jose`,
 * time read from Effect's `Clock`.
 */
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import type * as jose from "jose"
import type { PrincipalInfo } from "./principal.js"

/** Why a token or a verifier failed; `message` never contains the token. */
export type Failure =
  | { readonly _tag: "Invalid"; readonly message: string }
  | { readonly _tag: "Unavailable"; readonly message: string }

export interface JwtOptions {
  /** The authorization server's issuer identifier, compared exactly with `iss`. */
  readonly issuer: string
  /** The JWKS URL; discovered from the issuer's metadata when absent. */
  readonly jwksUri?: string | undefined
  /** Accepted signature algorithms (default: the asymmetric ones `jose` knows). */
  readonly algorithms?: ReadonlyArray<string> | undefined
  /** Tolerance on `exp` and `nbf` (default 30 s). */
  readonly clockSkew?: Duration.Input | undefined
  /** Required `typ` header, e.g. `at+jwt` (RFC 9068); unchecked when absent. */
  readonly typ?: string | undefined
}

const DEFAULT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"]

/** The metadata URLs of an issuer, in the order MCP clients try them (RFC 8414 path-aware first, then OIDC). */
export const metadataUrls = (issuer: string): ReadonlyArray<string> => {
  const url = new URL(issuer)
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "")
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`
  ]
}

const getJson = (client: HttpClient.HttpClient, url: string): Effect.Effect<Option.Option<unknown>> =>
  client.get(url, { headers: { accept: "application/json" } }).pipe(
    Effect.flatMap((response) =>
      response.status === 200 ? Effect.map(response.json, Option.some) : Effect.succeed(Option.none<unknown>())
    ),
    Effect.scoped,
    Effect.orElseSucceed(() => Option.none<unknown>())
  )

/** The issuer's `jwks_uri`, from the first metadata document whose `issuer` matches exactly. */
const discoverJwksUri = (client: HttpClient.HttpClient, issuer: string): Effect.Effect<string, Failure> =>
  Effect.gen(function*() {
    for (const url of metadataUrls(issuer)) {
      const doc = yield* getJson(client, url)
      if (Option.isNone(doc) || typeof doc.value !== "object" || doc.value === null) continue
      const meta = doc.value as { issuer?: unknown; jwks_uri?: unknown }
      if (meta.issuer !== issuer) continue
      if (typeof meta.jwks_uri === "string") return meta.jwks_uri
    }
    return yield* Effect.fail<Failure>({
      _tag: "Unavailable",
      message: `no metadata with a jwks_uri found for issuer ${issuer}`
    })
  })

const REFRESH_INTERVAL_MS = 30_000

const Jwks = Schema.Struct({ keys: Schema.Array(Schema.ObjectKeyword) })

/** The scopes of a JWT payload: `scope` (space-separated) or `scp` (array or string). */
export const scopesOf = (claims: { readonly [key: string]: unknown }): ReadonlyArray<string> => {
  const scope = claims.scope ?? claims.scp
  if (typeof scope === "string") return scope.split(" ").filter((s) => s !== "")
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === "string")
  return []
}

export const audienceOf = (aud: unknown): ReadonlyArray<string> =>
  typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === "string") : []

/** Builds `verify(token, resource)`; discovery and key fetches happen on first use, and again for an unknown `kid` (or a token without one that no key verifies). */
export const make = (
  options: JwtOptions
): Effect.Effect<(token: string, resource: string) => Effect.Effect<PrincipalInfo, Failure>, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.filterStatusOk)
    // loaded with the verifier, not with every server (it costs ~100 ms cold)
    const { createLocalJWKSet, decodeProtectedHeader, jwtVerify } = yield* Effect.promise(() => import("jose"))
    const skewSeconds = Math.round(Duration.toSeconds(options.clockSkew ?? Duration.seconds(30)))
    const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)]
    const keys = yield* Ref.make<Option.Option<{ readonly set: jose.JWTVerifyGetKey; readonly fetchedAt: number }>>(Option.none())
    const lock = yield* Semaphore.make(1)

    const fetchKeys = Effect.gen(function*() {
      const jwksUri = options.jwksUri ?? (yield* discoverJwksUri(client, options.issuer))
      const jwks = yield* client.get(jwksUri).pipe(
        Effect.flatMap(HttpClientResponse.schemaBodyJson(Jwks)),
        Effect.scoped,
        Effect.mapError((): Failure => ({ _tag: "Unavailable", message: `could not fetch the JWKS of ${options.issuer}` }))
      )
      const set = createLocalJWKSet(jwks as unknown as jose.JSONWebKeySet)
      const fetchedAt = yield* Clock.currentTimeMillis
      yield* Ref.set(keys, Option.some({ set, fetchedAt }))
      return set
    })

    /** The key set; `refresh` fetches again unless it was fetched less than 30 s ago. */
    const keySet = (refresh: boolean) =>
      lock.withPermits(1)(Effect.gen(function*() {
        const current = yield* Ref.get(keys)
        const now = yield* Clock.currentTimeMillis
        if (Option.isSome(current) && (!refresh || now - current.value.fetchedAt < REFRESH_INTERVAL_MS)) {
          return current.value.set
        }
        return yield* fetchKeys
      }))

    const verifyOptions = (now: number): jose.JWTVerifyOptions => ({
      issuer: options.issuer,
      algorithms,
      clockTolerance: skewSeconds,
      currentDate: new Date(now),
      requiredClaims: ["exp"],
      ...(options.typ !== undefined ? { typ: options.typ } : {})
    })

    const attempt = (verify: () => Promise<jose.JWTVerifyResult>) => Effect.tryPromise({ try: verify, catch: (error) => error })

    /**
     * A token without `kid` (RFC 7515 makes it optional) when several keys of
     * the set fit its `alg`: each is tried, at most `MAX_KEY_CANDIDATES` of
     * them (beyond that the token is refused: no unbounded work per request).
     * A key that does not verify the signature is passed over; any other
     * failure (expiry, audience) is the token's.
     */
    const tryCandidates = (token: string, candidatesOf: AsyncIterable<jose.CryptoKey>, opts: jose.JWTVerifyOptions) =>
      Effect.gen(function*() {
        const candidates = yield* Stream.fromAsyncIterable(candidatesOf, (cause) => cause).pipe(
          Stream.take(MAX_KEY_CANDIDATES + 1),
          Stream.runCollect
        )
        if (candidates.length > MAX_KEY_CANDIDATES) return yield* Effect.fail(TOO_MANY_CANDIDATES)
        for (const key of candidates) {
          const outcome = yield* Effect.result(attempt(() => jwtVerify(token, key, opts)))
          if (Result.isSuccess(outcome)) return outcome.success
          if (codeOf(outcome.failure) !== "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") return yield* Effect.fail(outcome.failure)
        }
        return yield* Effect.fail(NO_CANDIDATE)
      })

    const namesKey = (token: string) => {
      try {
        return decodeProtectedHeader(token).kid !== undefined
      } catch {
        return true
      }
    }

    const check = (token: string, resource: string, set: jose.JWTVerifyGetKey, now: number) => {
      const opts = { ...verifyOptions(now), audience: resource }
      return attempt(() => jwtVerify(token, set, opts)).pipe(
        Effect.catchIf(severalKeys, (error) => tryCandidates(token, error, opts)),
        // without kid, the one key that fits did not verify: as if none did (a rotated key may be missing from the cached set)
        Effect.mapError((error) =>
          codeOf(error) === "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" && !namesKey(token) ? NO_CANDIDATE : error
        )
      )
    }

    const invalid = (error: unknown): Failure => ({
      _tag: "Invalid",
      message: describe(error)
    })

    return (token, resource) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const first = yield* keySet(false)
        const result = yield* check(token, resource, first, now).pipe(
          Effect.catchIf(
            (error) => codeOf(error) === "ERR_JWKS_NO_MATCHING_KEY" || error === NO_CANDIDATE,
            () => Effect.flatMap(keySet(true), (set) => check(token, resource, set, now))
          ),
          Effect.mapError(invalid)
        )
        const claims = result.payload as { readonly [key: string]: unknown }
        // RFC 9068 §2.2: `sub` is required; without it the token's bearer has no owner to bind to
        if (typeof claims.sub !== "string" || claims.sub === "") {
          return yield* Effect.fail<Failure>({ _tag: "Invalid", message: "the token has no subject (sub), which RFC 9068 requires" })
        }
        return {
          subject: claims.sub,
          clientId: typeof claims.client_id === "string" ? claims.client_id : undefined,
          issuer: options.issuer,
          scopes: scopesOf(claims),
          audience: audienceOf(claims.aud),
          expiresAt: typeof claims.exp === "number" ? claims.exp * 1000 : undefined,
          claims
        } satisfies PrincipalInfo
      })
  })

/**
 * How many keys a token without `kid` is tried against, when the issuer's set
 * has several for its `alg`: more than that, and the token is refused.
 */
export const MAX_KEY_CANDIDATES = 5

/** `jose`'s error for a token without `kid` that several keys fit: it iterates over them. */
const severalKeys = (error: unknown): error is AsyncIterable<jose.CryptoKey> =>
  codeOf(error) === "ERR_JWKS_MULTIPLE_MATCHING_KEYS" && Symbol.asyncIterator in (error as object)

/** No key of the set verified a token without `kid` (the keys are fetched again, as for an unknown `kid`). */
const NO_CANDIDATE = { code: "NO_CANDIDATE_KEY" } as const
/** A token without `kid`, and more than `MAX_KEY_CANDIDATES` keys it could be signed with. */
const TOO_MANY_CANDIDATES = { code: "TOO_MANY_CANDIDATE_KEYS" } as const

/** A `jose` error's code (its errors are told apart by code, so that `jose` loads only with a verifier). */
const codeOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

/** What went wrong, in words that name the claim and never quote the token. */
const describe = (error: unknown): string => {
  switch (codeOf(error)) {
    case "ERR_JWT_EXPIRED":
      return "the token has expired"
    case "ERR_JWT_CLAIM_VALIDATION_FAILED": {
      const claim = (error as { readonly claim?: unknown }).claim
      if (claim === "aud") return "the token was not issued for this resource"
      if (claim === "nbf") return "the token is not valid yet"
      if (claim === "iss") return "the token was not issued by the expected authorization server"
      return `the token's ${String(claim)} claim is invalid`
    }
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "the token's signature is invalid"
    case "ERR_JWKS_NO_MATCHING_KEY":
    case NO_CANDIDATE.code:
      return "the token was not signed by a key of the issuer"
    case TOO_MANY_CANDIDATES.code:
      return `the token names no key (kid) and the issuer has more than ${MAX_KEY_CANDIDATES} keys it could be signed with`
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return "the token's algorithm is not allowed"
    case undefined:
      return "the token could not be verified"
    default:
      return "the token is malformed"
  }
}
