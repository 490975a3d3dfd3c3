/**
 * DPoP (RFC 9449) for the client: one ES256 key per sign-in, proofs for the
 * requests to the MCP server (`htm`, `htu`, `ath`, the server's `nonce`),
 * and the key for oauth4webapi's proofs at the token endpoint. Nonces are
 * kept per origin, as each server hands them out (§8, §9). Whether a
 * server's tokens are bound, and which stored tokens the key can present.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import { lib, type Lib } from "./fetch.js"
import type { StoredTokens } from "./services.js"

export interface Dpop {
  /** oauth4webapi's handle (token endpoint proofs and the authorization server's nonces). */
  readonly handle: Oauth.DPoPHandle
  /** The JWK SHA-256 thumbprint of the public key (`cnf.jkt` of the tokens bound to it). */
  readonly jkt: string
  /** A fresh proof for a request to the MCP server (`accessToken` bound by `ath`). */
  readonly proof: (method: string, url: URL, accessToken: string | undefined) => Effect.Effect<string>
  /** Remembers the nonce an origin handed out (`DPoP-Nonce`). */
  readonly nonce: (url: URL, nonce: string) => void
}

/** The signing algorithms this client can prove with (the key it makes). */
export const ALGORITHMS: ReadonlyArray<string> = ["ES256"]

const b64u = (bytes: ArrayBuffer | Uint8Array) => {
  const array = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  let binary = ""
  for (const byte of array) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}
const text = (value: unknown) => b64u(new TextEncoder().encode(JSON.stringify(value)))

export const make = (oauth: Lib): Effect.Effect<Dpop> =>
  Effect.promise(async () => {
    const keyPair = await oauth.generateKeyPair("ES256")
    const exported = await crypto.subtle.exportKey("jwk", keyPair.publicKey)
    const jwk = { crv: exported.crv!, kty: exported.kty!, x: exported.x!, y: exported.y! }
    // RFC 7638: the required members in lexicographic order
    const jkt = b64u(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(jwk))))
    const header = text({ alg: "ES256", typ: "dpop+jwt", jwk })
    const nonces = new Map<string, string>()
    const proof = (method: string, url: URL, accessToken: string | undefined) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.promise(async () => {
        const nonce = nonces.get(url.origin)
        const ath = accessToken === undefined
          ? undefined
          : b64u(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessToken)))
        const payload = text({
          jti: b64u(crypto.getRandomValues(new Uint8Array(16))),
          htm: method,
          htu: `${url.origin}${url.pathname}`,
          iat: Math.floor(now / 1000),
          ...(ath === undefined ? {} : { ath }),
          ...(nonce === undefined ? {} : { nonce })
        })
        const signature = await crypto.subtle.sign(
          { name: "ECDSA", hash: "SHA-256" },
          keyPair.privateKey,
          new TextEncoder().encode(`${header}.${payload}`)
        )
        return `${header}.${payload}.${b64u(signature)}`
      }))
    return {
      // the handle reads only the client's clock skew (none here)
      handle: oauth.DPoP({ client_id: "dpop" } as Oauth.Client, keyPair),
      jkt,
      proof,
      nonce: (url, nonce) => void nonces.set(url.origin, nonce)
    }
  })

/** A client's one key, made when first needed: every token bound by this client is bound to it. */
export interface Keyring {
  current: Dpop | undefined
}

/** What decides whether a server's tokens are bound: what it asked for and what its authorization server signs. */
export interface Binding {
  readonly issuer: string
  readonly as: Oauth.AuthorizationServer
  /** The server asked for DPoP (a DPoP challenge, or `dpop_bound_access_tokens_required`). */
  readonly dpopAsked: boolean
}

/**
 * The key to bind tokens to, when they are to be bound (made on first use): by `mode` (the `dpop`
 * option: `"auto"` when the server asked for DPoP, `true` always, `false` never), and only where
 * the authorization server lists an algorithm this client signs with.
 */
export const keyFor = (
  mode: boolean | "auto" | undefined,
  keyring: Keyring,
  binding: Binding
): Effect.Effect<Dpop | undefined> =>
  Effect.gen(function*() {
    const chosen = mode ?? "auto"
    if (chosen === false || (chosen === "auto" && !binding.dpopAsked)) return undefined
    const algs = (binding.as as { dpop_signing_alg_values_supported?: unknown }).dpop_signing_alg_values_supported
    if (!Array.isArray(algs) || !algs.some((a) => ALGORITHMS.includes(a))) {
      if (chosen === true || binding.dpopAsked) {
        yield* Effect.logDebug(`${binding.issuer} does not list a DPoP algorithm this client signs with; using Bearer tokens`)
      }
      return undefined
    }
    keyring.current ??= yield* make(yield* lib)
    return keyring.current
  })

/** Stored tokens usable now: a DPoP-bound one only with the key it is bound to. */
export const usable = (tokens: StoredTokens | undefined, keyring: Keyring): StoredTokens | undefined =>
  tokens === undefined || tokens.dpop_jkt === undefined || tokens.dpop_jkt === keyring.current?.jkt ? tokens : undefined
