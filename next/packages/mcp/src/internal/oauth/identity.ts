/**
 * The client's identity at an authorization server, in order: the stored one
 * (for this issuer), pre-registered credentials, a client ID metadata
 * document (a URL as `client_id`), dynamic client registration (RFC 7591).
 */
import * as Effect from "effect/Effect"
import type * as Oauth from "oauth4webapi"
import { OAuthError } from "./error.js"
import { type Http, lib, type Lib, run } from "./fetch.js"
import type { AuthorizationRedirectShape, StoredClient, TokenStoreShape } from "./services.js"

export interface Identity {
  readonly client: Oauth.Client
  readonly auth: Oauth.ClientAuth
}

type Method = StoredClient["token_endpoint_auth_method"]

/** What `libOptions` sets (named, so that declarations can be emitted for it). */
export type LibOptions =
  & { readonly signal: AbortSignal }
  // the user's fetch fits every request's fetch type (they differ only in the body type)
  & { readonly [K in typeof Oauth.customFetch]: never }
  & { readonly [K in typeof Oauth.allowInsecureRequests]: boolean }

/** The options every `oauth4webapi` request takes: plain http only where allowed, the user's fetch, abort. */
export const libOptions = (
  oauth: Lib,
  http: Http,
  as: Oauth.AuthorizationServer,
  signal: AbortSignal
): LibOptions => ({
  signal,
  [oauth.customFetch]: http.fetch as never,
  [oauth.allowInsecureRequests]: http.insecure(new URL(as.issuer))
})

/** The method to use (or ask for) at a server that supports `supported` (RFC 8414's default: basic). */
const chooseMethod = (supported: ReadonlyArray<string> | undefined, hasSecret: boolean): Method => {
  const methods = supported ?? ["client_secret_basic"]
  if (!hasSecret && methods.includes("none")) return "none"
  if (methods.includes("client_secret_basic")) return "client_secret_basic"
  if (methods.includes("client_secret_post")) return "client_secret_post"
  return "none"
}

const toIdentity = (oauth: Lib, stored: StoredClient): Identity => ({
  client: { client_id: stored.client_id, token_endpoint_auth_method: stored.token_endpoint_auth_method },
  auth: stored.token_endpoint_auth_method === "none" || stored.client_secret === undefined
    ? oauth.None()
    : stored.token_endpoint_auth_method === "client_secret_post"
    ? oauth.ClientSecretPost(stored.client_secret)
    : clientSecretBasic(stored.client_secret)
})

/**
 * `client_secret_basic` (RFC 6749 §2.3.1) with the credentials percent-encoded as by
 * `encodeURIComponent`. oauth4webapi also escapes `-`, `.`, `_`, `!`, `~`, `*`, `'`, `(` and
 * `)`, which servers that do not decode the credentials (the conformance suite's, and some in
 * the field) then refuse; a server that decodes them reads the same either way.
 */
const clientSecretBasic = (secret: string): Oauth.ClientAuth => (_as, client, _body, headers) => {
  headers.set("authorization", `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`)}`)
}

/**
 * The registered client from a registration response. oauth4webapi's own processing refuses a
 * secret without `client_secret_expires_at`, which RFC 7591 asks of servers but many (and the
 * conformance suite's) omit: a 200/201 is read here (a `client_id` string, an optional string
 * secret); anything else goes to oauth4webapi, which names the server's error.
 */
const registrationResponse = async (oauth: Lib, response: Response): Promise<Oauth.OmitSymbolProperties<Oauth.Client>> => {
  if (response.status !== 200 && response.status !== 201) return oauth.processDynamicClientRegistrationResponse(response)
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`the registration answer is not JSON: ${JSON.stringify(text.slice(0, 80))}`)
  }
  const client = body as Record<string, unknown> | null
  if (typeof client !== "object" || client === null || Array.isArray(client)) {
    throw new Error("the registration answer is not a JSON object")
  }
  if (typeof client.client_id !== "string" || client.client_id === "") {
    throw new Error("the registration answer has no client_id string")
  }
  if (client.client_secret !== undefined && typeof client.client_secret !== "string") {
    throw new Error("the registration answer's client_secret is not a string")
  }
  return client as Oauth.OmitSymbolProperties<Oauth.Client>
}

const supportedMethods = (as: Oauth.AuthorizationServer) => as.token_endpoint_auth_methods_supported

/** How a private key signs the `private_key_jwt` assertion (RFC 7523 §2.2). */
export interface PrivateKey {
  /** A `CryptoKey` that can sign, or a PKCS#8 PEM. */
  readonly key: Oauth.CryptoKey | string
  /** The JWS algorithm (default ES256; RS256, PS256, ES384, ES512 and EdDSA also). */
  readonly alg?: string | undefined
  readonly kid?: string | undefined
}

const importParams = (alg: string): Parameters<typeof crypto.subtle.importKey>[2] => {
  switch (alg) {
    case "ES256":
    case "ES384":
    case "ES512":
      return { name: "ECDSA", namedCurve: `P-${alg === "ES512" ? "521" : alg.slice(2)}` }
    case "RS256":
    case "RS384":
    case "RS512":
      return { name: "RSASSA-PKCS1-v1_5", hash: `SHA-${alg.slice(2)}` }
    case "PS256":
    case "PS384":
    case "PS512":
      return { name: "RSA-PSS", hash: `SHA-${alg.slice(2)}` }
    case "EdDSA":
    case "Ed25519":
      return { name: "Ed25519" }
    default:
      throw new Error(`the signing algorithm ${JSON.stringify(alg)} is not supported`)
  }
}

/** The signing key of a `PrivateKey` (a PEM is imported for its algorithm). */
export const signingKey = (key: PrivateKey): Effect.Effect<Oauth.CryptoKey, OAuthError> =>
  typeof key.key !== "string"
    ? Effect.succeed(key.key)
    : Effect.tryPromise({
      try: async () => {
        const pem = key.key as string
        const body = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "")
        if (!pem.includes("-----BEGIN PRIVATE KEY-----") || body === "") throw new Error("not a PKCS#8 PEM (BEGIN PRIVATE KEY)")
        const der = Uint8Array.from(atob(body), (c) => c.charCodeAt(0))
        return crypto.subtle.importKey("pkcs8", der, importParams(key.alg ?? "ES256"), false, ["sign"])
      },
      catch: (cause) =>
        new OAuthError({ reason: "Registration", message: `The client's private key cannot be used: ${describeCause(cause)}`, cause })
    })

const describeCause = (cause: unknown) => cause instanceof Error ? cause.message : String(cause)

/** The identity options of `McpOAuth.Options`. */
export interface IdentityOptions {
  readonly clientId?: string | undefined
  readonly clientSecret?: string | undefined
  readonly clientPrivateKey?: PrivateKey | undefined
  readonly tokenEndpointAuthMethod?: Method | "private_key_jwt" | undefined
  readonly clientMetadataUrl?: string | undefined
  readonly clientName?: string | undefined
  readonly applicationType?: "native" | "web" | undefined
}

/** A pre-registered client: `private_key_jwt` with a key, else a secret (basic or post, as supported), else none. */
const preRegistered = (oauth: Lib, options: IdentityOptions & { readonly clientId: string }, as: Oauth.AuthorizationServer) =>
  Effect.gen(function*() {
    const key = options.clientPrivateKey
    if (key !== undefined && (options.tokenEndpointAuthMethod ?? "private_key_jwt") === "private_key_jwt") {
      const signing = yield* signingKey(key)
      return {
        client: { client_id: options.clientId, token_endpoint_auth_method: "private_key_jwt" },
        auth: oauth.PrivateKeyJwt(key.kid === undefined ? signing : { key: signing, kid: key.kid })
      } satisfies Identity
    }
    const hasSecret = options.clientSecret !== undefined
    const method = options.tokenEndpointAuthMethod
    return toIdentity(oauth, {
      client_id: options.clientId,
      client_secret: options.clientSecret,
      token_endpoint_auth_method: method !== undefined && method !== "private_key_jwt"
        ? method
        : hasSecret
        ? chooseMethod(supportedMethods(as)?.filter((m) => m !== "none"), true)
        : "none"
    })
  })

/**
 * The `application_type` of a registration (OpenID DCR, required by MCP 2026-07-28, SEP-837):
 * native for a loopback or private-scheme redirect, web otherwise.
 */
export const applicationType = (redirectUri: string): "native" | "web" => {
  try {
    const url = new URL(redirectUri)
    if (url.protocol !== "http:" && url.protocol !== "https:") return "native"
    const host = url.hostname
    return host === "localhost" || host === "[::1]" || host.startsWith("127.") ? "native" : "web"
  } catch {
    return "web"
  }
}

export const ensure = (
  http: Http,
  options: IdentityOptions,
  redirect: AuthorizationRedirectShape,
  store: TokenStoreShape,
  issuer: string,
  as: Oauth.AuthorizationServer
): Effect.Effect<Identity, OAuthError> =>
  Effect.gen(function*() {
    const oauth = yield* lib
    if (options.clientId !== undefined) return yield* preRegistered(oauth, { ...options, clientId: options.clientId }, as)
    const stored = yield* store.client(issuer)
    if (stored !== undefined && (stored.redirect_uri === undefined || stored.redirect_uri === redirect.redirectUri)) {
      return toIdentity(oauth, stored)
    }
    if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
      return toIdentity(oauth, { client_id: options.clientMetadataUrl, token_endpoint_auth_method: "none" })
    }
    if (as.registration_endpoint === undefined) {
      return yield* new OAuthError({
        reason: "Registration",
        message: `No client identity for ${issuer}: no client ID given, ${
          options.clientMetadataUrl === undefined ? "no client metadata document" : "client metadata documents not supported"
        }, and no registration endpoint`
      })
    }
    const method = chooseMethod(supportedMethods(as), false)
    const registered = yield* run(http, "Registration", `Registering at ${as.registration_endpoint}`, async (signal) => {
      const response = await oauth.dynamicClientRegistrationRequest(as, {
        client_name: options.clientName ?? "effect-mcp",
        redirect_uris: [redirect.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: method,
        application_type: options.applicationType ?? applicationType(redirect.redirectUri)
      }, libOptions(oauth, http, as, signal))
      return registrationResponse(oauth, response)
    })
    const answered = registered.token_endpoint_auth_method
    const client: StoredClient = {
      client_id: registered.client_id,
      client_secret: typeof registered.client_secret === "string" ? registered.client_secret : undefined,
      token_endpoint_auth_method: answered === "client_secret_post" || answered === "client_secret_basic" || answered === "none"
        ? answered
        : method,
      redirect_uri: redirect.redirectUri
    }
    yield* store.saveClient(issuer, client)
    return toIdentity(oauth, client)
  })
