/**
 * DPoP (RFC 9449) for the client: one ES256 key per sign-in, proofs for the
 * requests to the MCP server (`htm`, `htu`, `ath`, the server's `nonce`),
 * and the key for oauth4webapi's proofs at the token endpoint. Nonces are
 * kept per origin, as each server hands them out (§8, §9).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import type { Lib } from "./fetch.js"

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
