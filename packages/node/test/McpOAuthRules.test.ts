/**
 * The MCP rules of our OAuth client, each against a scripted authorization
 * server (`scriptedAuthServer.ts`) that answers what the test says, with our
 * server behind `McpAuth` on 127.0.0.1: what the client sends (registration
 * metadata, token endpoint authentication, scopes, DPoP proofs) and what it
 * refuses.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { Transport } from "@effect-mcp/mcp/Transport"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import * as jose from "jose"
import { createHash } from "node:crypto"
import * as net from "node:net"
import { type Gate, type Recorded, type Script, type ScriptedServer, startScripted, startStubResource } from "./scriptedAuthServer.js"

const Echo = McpServer.tool({ name: "echo", handler: () => Effect.succeed("ok") })

const freePort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const port = (probe.address() as net.AddressInfo).port
    probe.close(() => resume(Effect.succeed(port)))
  })
})

interface Setup {
  readonly as: ScriptedServer
  readonly url: string
}

/** The scripted authorization server and our server behind `McpAuth`, trusting it. */
const setup = (script: Script = {}, auth: Partial<McpAuth.Options> = {}) =>
  Effect.gen(function*() {
    const as = yield* startScripted(script)
    const port = yield* freePort
    const url = `http://127.0.0.1:${port}/mcp`
    const protect = McpAuth.layer({ resource: url, authorizationServers: [as.issuer], ...auth }).pipe(Layer.provide(as.verifier))
    yield* Layer.build(
      NodeStreamableHttp.layer({ port }).pipe(
        Layer.provide(protect),
        Layer.provideMerge(McpServer.register(Echo)),
        Layer.provideMerge(McpServer.layer({ name: "protected", version: "1.0.0" }))
      )
    ).pipe(Effect.orDie)
    return { as, url } satisfies Setup
  })

/** Signs in with `options` and calls `echo`; fails with what went wrong. */
const call = (url: string, options: McpOAuth.Options, store = McpOAuth.makeMemoryStore()) =>
  Effect.gen(function*() {
    const auth = yield* McpOAuth.make(options).pipe(
      Effect.provideService(McpOAuth.AuthorizationRedirect, McpOAuth.makeHeadless()),
      Effect.provideService(McpOAuth.TokenStore, store)
    )
    const client = yield* McpClient.make({ name: "c", version: "1" }).pipe(
      Effect.provideServiceEffect(Transport, StreamableHttpClient.make({ url, auth, listen: false })),
      Effect.provide(FetchHttpClient.layer)
    )
    return yield* client.callTool("echo", {})
  })

const tokenRequests = (as: ScriptedServer) => as.requests.filter((r) => r.path === "/token")

describe("McpOAuth: client identity and token endpoint authentication", () => {
  it.live("a registration answered with a secret but no client_secret_expires_at is used (RFC 7591 servers in the field omit it)", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup({
        metadata: (_, base) => ({ ...base, token_endpoint_auth_methods_supported: ["client_secret_post"] }),
        register: (_, sent) => ({ status: 201, body: { ...sent, client_id: "dyn", client_secret: "dyn-secret" } })
      })
      yield* call(url, {})
      const [token] = tokenRequests(as)
      assert.strictEqual(token!.form.get("client_id"), "dyn")
      assert.strictEqual(token!.form.get("client_secret"), "dyn-secret")
    }))

  it.live("a registration answer without client_id, or not JSON: a clear error, no authorization", () =>
    Effect.gen(function*() {
      for (
        const [body, message] of [
          [{ client_name: "x" }, /registration answer has no client_id/],
          ["<html>", /registration answer is not JSON/],
          [{ client_id: "a", client_secret: 5 }, /client_secret is not a string/]
        ] as const
      ) {
        const { as, url } = yield* setup({ register: () => ({ status: 201, body }) })
        const error = yield* Effect.flip(call(url, {}))
        assert.match(String(error), message)
        assert.isFalse(as.seen().some((s) => s === "GET /authorize" || s === "POST /token"), as.seen().join(", "))
      }
    }))

  it.live("client_secret_basic: the credentials percent-encoded as encodeURIComponent does (unreserved characters as they are)", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup({
        metadata: (_, base) => ({ ...base, token_endpoint_auth_methods_supported: ["client_secret_basic"] })
      })
      yield* call(url, { clientId: "pre-registered.client_1", clientSecret: "se-cret~!:x y" })
      const header = tokenRequests(as)[0]!.headers.authorization!
      assert.strictEqual(Buffer.from(header.slice("Basic ".length), "base64").toString(), "pre-registered.client_1:se-cret~!%3Ax%20y")
    }))
})

/** The stub resource server guarded by `gate`, its metadata naming `issuer()` (read per request). */
const stub = (issuer: () => string, gate: (request: Recorded, url: string) => ReturnType<Gate>) =>
  Effect.gen(function*() {
    let url = ""
    const resource = yield* startStubResource((request) => {
      if (request.method === "GET" && request.path === "/.well-known/oauth-protected-resource/mcp") {
        return { status: 200, body: { resource: url, authorization_servers: [issuer()], scopes_supported: ["mcp:tools"] } }
      }
      return gate(request, url)
    })
    url = resource.url
    return resource
  })

const bearerOf = (request: Recorded) => /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1]
const unauthorized = (url: string, scheme = "Bearer", extra = "") => ({
  status: 401,
  headers: {
    "www-authenticate": `${scheme} ${extra}resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", url).href}"`
  },
  body: { error: "invalid_token" }
})

describe("McpOAuth: private_key_jwt", () => {
  it.live("a pre-registered client with a private key signs a client assertion (iss = sub = client_id, aud = the issuer)", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup({
        metadata: (_, base) => ({ ...base, token_endpoint_auth_methods_supported: ["private_key_jwt"] })
      })
      const { privateKey, publicKey } = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      const pem = yield* Effect.promise(() => jose.exportPKCS8(privateKey))
      yield* call(url, { clientId: "signer", clientPrivateKey: { key: pem, alg: "ES256", kid: "k7" } })
      const form = tokenRequests(as)[0]!.form
      assert.strictEqual(form.get("client_assertion_type"), "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
      const { payload, protectedHeader } = yield* Effect.promise(() =>
        jose.jwtVerify(form.get("client_assertion")!, publicKey, { audience: as.issuer })
      )
      assert.strictEqual(payload.iss, "signer")
      assert.strictEqual(payload.sub, "signer")
      assert.strictEqual(protectedHeader.kid, "k7")
      assert.isUndefined(tokenRequests(as)[0]!.headers.authorization)
    }))

  it.live("a key that is not a PKCS#8 PEM: a clear error naming it, no token request", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const error = yield* Effect.flip(call(url, { clientId: "signer", clientPrivateKey: { key: "-----BEGIN RSA KEY-----x" } }))
      assert.match(String(error), /private key cannot be used: not a PKCS#8 PEM/)
      assert.deepStrictEqual(tokenRequests(as), [])
    }))
})

describe("McpOAuth: registration and scopes", () => {
  it.live("dynamic registration sends application_type: native for a loopback redirect, or as the option says", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      yield* call(url, {})
      yield* call(url, { applicationType: "web" })
      const sent = as.requests.filter((r) => r.path === "/register").map((r) => JSON.parse(r.body) as Record<string, unknown>)
      assert.deepStrictEqual(sent.map((b) => b.application_type), ["native", "web"])
      assert.deepStrictEqual(sent[0]!.grant_types, ["authorization_code", "refresh_token"])
    }))

  it.live("scopes: the challenge's first, else the resource's scopes_supported, else none", () =>
    Effect.gen(function*() {
      const scopes = (as: ScriptedServer) => as.requests.filter((r) => r.path === "/authorize").map((r) => r.query.get("scope"))
      const challenge = yield* setup({}, { scopesSupported: ["a", "b"], requiredScopes: ["a"] })
      // McpAuth names scopes_supported in its challenge when it has them: both come from the challenge here
      yield* call(challenge.url, {})
      assert.deepStrictEqual(scopes(challenge.as), ["a b"])
      const required = yield* setup({}, { requiredScopes: ["r"] })
      yield* call(required.url, {})
      assert.deepStrictEqual(scopes(required.as), ["r"])
      const none = yield* setup()
      yield* call(none.url, {})
      assert.deepStrictEqual(scopes(none.as), [null])
      // no challenge scope: the metadata's scopes_supported
      let as: ScriptedServer | undefined
      const resource = yield* stub(() => as!.issuer, (request, url) =>
        request.headers.authorization === undefined ? unauthorized(url) : undefined)
      as = yield* startScripted()
      yield* call(resource.url, {})
      assert.deepStrictEqual(scopes(as), ["mcp:tools"])
    }))

  it.live("offline_access is asked for only where the authorization server lists it (and not when turned off)", () =>
    Effect.gen(function*() {
      const listing: Script = { metadata: (_, base) => ({ ...base, scopes_supported: ["mcp:tools", "offline_access"] }) }
      const scopes = (as: ScriptedServer) => as.requests.filter((r) => r.path === "/authorize").map((r) => r.query.get("scope"))
      const listed = yield* setup(listing, { scopesSupported: ["mcp:tools"] })
      yield* call(listed.url, {})
      yield* call(listed.url, { offlineAccess: false })
      assert.deepStrictEqual(scopes(listed.as), ["mcp:tools offline_access", "mcp:tools"])
      const unlisted = yield* setup({ metadata: (_, base) => ({ ...base, scopes_supported: ["mcp:tools"] }) }, {
        scopesSupported: ["mcp:tools"]
      })
      yield* call(unlisted.url, {})
      assert.deepStrictEqual(scopes(unlisted.as), ["mcp:tools"])
    }))

  it.live("the resource moves to another authorization server: discovered again, registered there, the old client_id never shown to it", () =>
    Effect.gen(function*() {
      const as1 = yield* startScripted({ register: (_, sent) => ({ status: 201, body: { ...sent, client_id: "as1-client" } }) })
      const as2 = yield* startScripted({ register: (_, sent) => ({ status: 201, body: { ...sent, client_id: "as2-client" } }) })
      let migrated = false
      const resource = yield* stub(() => (migrated ? as2 : as1).issuer, (request, url) => {
        const token = bearerOf(request)
        const valid = token !== undefined && (migrated ? as2 : as1).tokens.has(token)
        return valid ? undefined : unauthorized(url)
      })
      const store = McpOAuth.makeMemoryStore()
      const auth = yield* McpOAuth.make({}).pipe(
        Effect.provideService(McpOAuth.AuthorizationRedirect, McpOAuth.makeHeadless()),
        Effect.provideService(McpOAuth.TokenStore, store)
      )
      const client = yield* McpClient.make({ name: "c", version: "1" }).pipe(
        Effect.provideServiceEffect(Transport, StreamableHttpClient.make({ url: resource.url, auth, listen: false })),
        Effect.provide(FetchHttpClient.layer)
      )
      yield* client.callTool("echo", {})
      migrated = true
      yield* client.callTool("echo", {})
      assert.deepStrictEqual(as2.seen().filter((s) => s !== "GET /.well-known/oauth-authorization-server"), [
        "POST /register",
        "GET /authorize",
        "POST /token"
      ])
      assert.isFalse(as2.requests.some((r) => r.query.get("client_id") === "as1-client" || r.form.get("client_id") === "as1-client"))
      assert.strictEqual(as2.requests.find((r) => r.path === "/authorize")!.query.get("client_id"), "as2-client")
      assert.strictEqual((yield* store.client(as2.issuer))?.client_id, "as2-client")
    }))
})

describe("McpOAuth: grants without a user", () => {
  it.live("client credentials: a secret (basic) or a private key JWT; resource and scope sent, no authorization request", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup({
        metadata: (_, base) => ({ ...base, token_endpoint_auth_methods_supported: ["client_secret_basic", "private_key_jwt"] })
      }, { requiredScopes: ["mcp:tools"] })
      yield* call(url, { grant: "client_credentials", clientId: "svc", clientSecret: "s3cret" })
      const { privateKey } = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
      yield* call(url, { grant: "client_credentials", clientId: "svc", clientPrivateKey: { key: privateKey } })
      const [basic, jwt] = tokenRequests(as)
      assert.strictEqual(basic!.form.get("grant_type"), "client_credentials")
      assert.strictEqual(basic!.form.get("resource"), url)
      assert.strictEqual(basic!.form.get("scope"), "mcp:tools")
      assert.strictEqual(basic!.headers.authorization, `Basic ${btoa("svc:s3cret")}`)
      assert.strictEqual(jwt!.form.get("grant_type"), "client_credentials")
      assert.isString(jwt!.form.get("client_assertion"))
      assert.isFalse(as.seen().includes("GET /authorize") || as.seen().includes("POST /register"))
    }))

  it.live("workload identity (JWT bearer): the assertion, the resource; an invalid_grant is reported once, never retried or swapped for another grant", () =>
    Effect.gen(function*() {
      let refuse = false
      const { as, url } = yield* setup({
        token: () => refuse ? { status: 400, body: { error: "invalid_grant", error_description: "assertion expired" } } : undefined
      })
      yield* call(url, { grant: { type: "jwt-bearer", assertion: "workload.jwt.value" }, clientId: "wl" })
      const [ok] = tokenRequests(as)
      assert.strictEqual(ok!.form.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer")
      assert.strictEqual(ok!.form.get("assertion"), "workload.jwt.value")
      assert.strictEqual(ok!.form.get("resource"), url)
      assert.strictEqual(ok!.form.get("client_id"), "wl")
      refuse = true
      const error = yield* Effect.flip(call(url, { grant: { type: "jwt-bearer", assertion: "expired.jwt" }, clientId: "wl" }))
      assert.match(String(error), /JWT bearer grant at .*\/token: invalid_grant: assertion expired/)
      assert.strictEqual(tokenRequests(as).length, 2)
    }))

  it.live("enterprise-managed: the ID token exchanged at the identity provider for an ID-JAG, which is the JWT bearer assertion", () =>
    Effect.gen(function*() {
      let issued = "urn:ietf:params:oauth:token-type:id-jag"
      const idp = yield* startScripted({
        token: () => ({ status: 200, body: { access_token: "the-id-jag", issued_token_type: issued, token_type: "N_A" } })
      })
      const { as, url } = yield* setup({
        metadata: (_, base) => ({ ...base, token_endpoint_auth_methods_supported: ["client_secret_basic"] })
      })
      const grant: McpOAuth.Grant = {
        type: "enterprise",
        identityProvider: { tokenEndpoint: `${idp.origin}/token`, issuer: idp.issuer, clientId: "idp-client" },
        idToken: Effect.succeed("the-id-token")
      }
      yield* call(url, { grant, clientId: "mcp-client", clientSecret: "mcp-secret" })
      const exchange = tokenRequests(idp)[0]!.form
      assert.deepStrictEqual(Object.fromEntries(exchange), {
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: "the-id-token",
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        audience: as.issuer,
        resource: url,
        client_id: "idp-client"
      })
      const bearer = tokenRequests(as)[0]!
      assert.strictEqual(bearer.form.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer")
      assert.strictEqual(bearer.form.get("assertion"), "the-id-jag")
      assert.strictEqual(bearer.headers.authorization, `Basic ${btoa("mcp-client:mcp-secret")}`)
      // the identity provider answering something else than an ID-JAG: refused, nothing sent on
      issued = "urn:ietf:params:oauth:token-type:access_token"
      const error = yield* Effect.flip(call(url, { grant, clientId: "mcp-client", clientSecret: "mcp-secret" }))
      assert.match(String(error), /issued "urn:ietf:params:oauth:token-type:access_token", not an ID-JAG/)
      assert.strictEqual(tokenRequests(as).length, 1)
    }))
})

/** Verifies a DPoP proof (RFC 9449 §4.3) and returns its claims and key thumbprint. */
const verifyProof = (proof: string) =>
  Effect.promise(async () => {
    const header = jose.decodeProtectedHeader(proof)
    assert.strictEqual(header.typ, "dpop+jwt")
    const key = await jose.importJWK(header.jwk!, header.alg)
    const { payload } = await jose.jwtVerify(proof, key)
    return { payload, jkt: await jose.calculateJwkThumbprint(header.jwk!) }
  })

const ath = (token: string) => createHash("sha256").update(token).digest("base64url")

describe("McpOAuth: DPoP (RFC 9449)", () => {
  const dpopScript = (nonce: boolean): Script => {
    let challenged = false
    return {
      metadata: (_, base) => ({ ...base, dpop_signing_alg_values_supported: ["ES256"] }),
      token: (request) => {
        if (!nonce || challenged) return undefined
        challenged = true
        assert.isString(request.headers.dpop)
        return { status: 400, headers: { "dpop-nonce": "as-nonce-1" }, body: { error: "use_dpop_nonce" } }
      }
    }
  }

  it.live("a DPoP challenge: a bound token (proof at the token endpoint, dpop_jkt), presented as DPoP with a fresh proof per request; server nonces honoured", () =>
    Effect.gen(function*() {
      const as = yield* startScripted(dpopScript(true))
      let rsNonceSent = false
      const resource = yield* stub(() => as.issuer, (request, url) => {
        const auth = /^DPoP (.+)$/.exec(request.headers.authorization ?? "")
        if (auth === null) return unauthorized(url, "DPoP")
        const proof = jose.decodeJwt(request.headers.dpop as string)
        if (proof.nonce !== "rs-nonce-1") {
          rsNonceSent = true
          const challenge = unauthorized(url, "DPoP", `error="use_dpop_nonce", `)
          return { ...challenge, headers: { ...challenge.headers, "dpop-nonce": "rs-nonce-1" } }
        }
        return as.tokens.has(auth[1]!) ? undefined : unauthorized(url, "DPoP")
      })
      yield* call(resource.url, {})
      const tokens = tokenRequests(as)
      assert.strictEqual(tokens.length, 2, "the token request once more, with the nonce")
      const first = yield* verifyProof(tokens[0]!.headers.dpop as string)
      const second = yield* verifyProof(tokens[1]!.headers.dpop as string)
      assert.isUndefined(first.payload.nonce)
      assert.strictEqual(second.payload.nonce, "as-nonce-1")
      assert.strictEqual(second.payload.htm, "POST")
      assert.strictEqual(second.payload.htu, `${as.origin}/token`)
      const authorize = as.requests.find((r) => r.path === "/authorize")!
      assert.strictEqual(authorize.query.get("dpop_jkt"), second.jkt)
      const presented = resource.requests.filter((r) => r.headers.authorization?.startsWith("DPoP ") === true)
      assert.isTrue(rsNonceSent)
      const proofs = yield* Effect.forEach(presented, (r) => verifyProof(r.headers.dpop as string))
      assert.strictEqual(new Set(proofs.map((p) => p.payload.jti)).size, proofs.length, "a fresh proof per request")
      for (const [i, p] of proofs.entries()) {
        const token = presented[i]!.headers.authorization!.slice("DPoP ".length)
        assert.strictEqual(p.payload.ath, ath(token))
        assert.strictEqual(p.payload.htm, "POST")
        assert.strictEqual(p.payload.htu, resource.url)
        assert.strictEqual(p.jkt, second.jkt, "the key the token is bound to")
      }
      assert.strictEqual(proofs.at(-1)!.payload.nonce, "rs-nonce-1")
    }))

  it.live("no DPoP where the server does not ask for it, or the authorization server lists no algorithm this client signs with", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup(dpopScript(false))
      yield* call(url, {})
      assert.isUndefined(tokenRequests(as)[0]!.headers.dpop)
      const plain = yield* startScripted({ metadata: (_, base) => ({ ...base, dpop_signing_alg_values_supported: ["RS512"] }) })
      const resource = yield* stub(() => plain.issuer, (request, url) => {
        const token = /^(?:Bearer|DPoP) (.+)$/.exec(request.headers.authorization ?? "")?.[1]
        return token !== undefined && plain.tokens.has(token) ? undefined : unauthorized(url, "DPoP")
      })
      yield* call(resource.url, {})
      assert.isUndefined(tokenRequests(plain)[0]!.headers.dpop)
      assert.isTrue(resource.requests.some((r) => r.headers.authorization?.startsWith("Bearer ") === true))
    }))
})

describe("McpAuth: what the resource server advertises", () => {
  it.live("offline_access is never advertised in scopes_supported nor asked for in a challenge (SEP-2207)", () =>
    Effect.gen(function*() {
      const { url } = yield* setup({}, { scopesSupported: ["mcp:tools", "offline_access"], requiredScopes: ["offline_access"] })
      const metadata = yield* Effect.promise(() =>
        fetch(new URL("/.well-known/oauth-protected-resource/mcp", url)).then((r) => r.json() as Promise<Record<string, unknown>>)
      )
      assert.deepStrictEqual(metadata.scopes_supported, ["mcp:tools"])
      const refused = yield* Effect.promise(() =>
        fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" })
      )
      assert.strictEqual(refused.status, 401)
      assert.notInclude(refused.headers.get("www-authenticate")!, "offline_access")
    }))
})

describe("McpOAuth: bad answers from the authorization server", () => {
  /** The MCP requests that carried a token (none may, when signing in failed). */
  const presented = (resource: { readonly requests: ReadonlyArray<Recorded> }) =>
    resource.requests.filter((r) => r.headers.authorization !== undefined)

  it.live("token endpoint errors and garbage, registration errors: each a clear error naming what was wrong, no token used", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Script, RegExp]> = [
        [{ token: () => ({ status: 400, body: { error: "invalid_grant", error_description: "the code expired" } }) },
          /The token request to http:\/\/127\.0\.0\.1:\d+\/token: invalid_grant: the code expired/],
        [{ token: () => ({ status: 200, body: "<html>gateway</html>" }) }, /The token request to .*\/token: .*JSON/i],
        [{ token: () => ({ status: 200, body: { token_type: "Bearer" } }) }, /The token request to .*\/token: .*"access_token"/],
        [{ token: () => ({ status: 500, body: "oops" }) }, /The token request to .*\/token: .*\(HTTP 500\)/],
        [{ register: () => ({ status: 400, body: { error: "invalid_redirect_uri", error_description: "not allowed" } }) },
          /Registering at .*\/register: invalid_redirect_uri: not allowed/],
        [{ metadata: () => ({ issuer: "x" }) }, /authorization server metadata at .* is malformed: authorization_endpoint: is missing; token_endpoint: is missing$/],
        [{ authorize: (_, redirect) => {
          const back = new URL(redirect.href)
          back.search = ""
          back.searchParams.set("error", "access_denied")
          back.searchParams.set("error_description", "the user said no")
          back.searchParams.set("state", redirect.searchParams.get("state")!)
          back.searchParams.set("iss", redirect.searchParams.get("iss")!)
          return back
        } }, /authorization response from .* was refused: access_denied: the user said no/]
      ]
      for (const [script, message] of cases) {
        let as: ScriptedServer | undefined
        const resource = yield* stub(() => as!.issuer, (request, url) => {
          const token = bearerOf(request)
          return token !== undefined && as!.tokens.has(token) ? undefined : unauthorized(url)
        })
        as = yield* startScripted(script)
        const error = yield* Effect.flip(call(resource.url, {}))
        assert.match(String(error), message)
        assert.deepStrictEqual(presented(resource), [], String(error))
      }
    }))

  it.live("malformed WWW-Authenticate: discovery falls back to the well-known locations and signs in", () =>
    Effect.gen(function*() {
      let as: ScriptedServer | undefined
      const resource = yield* stub(() => as!.issuer, (request) => {
        const token = bearerOf(request)
        if (token !== undefined && as!.tokens.has(token)) return undefined
        return { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="http://evil.example/unterminated` }, body: {} }
      })
      as = yield* startScripted()
      yield* call(resource.url, {})
      assert.isTrue(resource.requests.some((r) => r.path === "/.well-known/oauth-protected-resource/mcp"))
      assert.isTrue(presented(resource).length > 0)
    }))

  it.live("resource metadata without authorization servers, or naming one that is not a URL: refused before any authorization", () =>
    Effect.gen(function*() {
      for (
        const [servers, message] of [
          [[], /resource metadata at .* is malformed/],
          [["not a url"], /authorization server "not a url" is not a URL/]
        ] as const
      ) {
        const resource = yield* startStubResource((request) =>
          request.path === "/.well-known/oauth-protected-resource/mcp"
            ? { status: 200, body: { resource: `http://${request.headers.host}/mcp`, authorization_servers: servers } }
            : { status: 401, headers: { "www-authenticate": "Bearer" }, body: {} }
        )
        const error = yield* Effect.flip(call(resource.url, {}))
        assert.match(String(error), message)
      }
    }))

  it.effect("an authorization server that never answers: the sign-in fails after the timeout (on the Clock), naming the exchange", () =>
    Effect.gen(function*() {
      const arrived = yield* Deferred.make<void>()
      const as = yield* startScripted({
        hang: (request) => {
          const hung = request.path === "/token"
          if (hung) Deferred.doneUnsafe(arrived, Exit.void)
          return hung
        }
      })
      const resource = yield* stub(() => as.issuer, (request, url) => {
        const token = bearerOf(request)
        return token !== undefined && as.tokens.has(token) ? undefined : unauthorized(url)
      })
      const fiber = yield* Effect.forkChild(call(resource.url, { timeout: "5 seconds" }))
      yield* Deferred.await(arrived)
      yield* TestClock.adjust("5 seconds")
      const error = yield* Effect.flip(Fiber.join(fiber))
      assert.match(String(error), /The token request to .*\/token: no answer within 5000 ms/)
    }))
})

describe("McpAuth on 2026-07-28 (stateless requests)", () => {
  const V = "2026-07-28"
  const post = (url: string, token: string | undefined, id: number, method: string, params: Record<string, unknown> = {}) =>
    Effect.promise(async () => {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": V,
          "mcp-method": method,
          ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method,
          params: {
            ...params,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": V,
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
            }
          }
        })
      })
      const text = await response.text()
      const data = /^data: (.*)$/m.exec(text)?.[1] ?? text
      return { status: response.status, challenge: response.headers.get("www-authenticate"), body: data === "" ? undefined : JSON.parse(data) }
    })

  it.live("every request needs the token; the handler sees its principal; a feature's scope is asked for by 403 naming only that scope", () =>
    Effect.gen(function*() {
      const as = yield* startScripted()
      const port = yield* freePort
      const url = `http://127.0.0.1:${port}/mcp`
      const Who = McpServer.tool({ name: "whoami", handler: () => Effect.map(McpAuth.Principal, (p) => `${p.subject}:${p.scopes.join(",")}`) })
      const Admin = McpServer.tool({ name: "admin", scopes: ["mcp:admin"], handler: () => Effect.succeed("done") })
      const protect = McpAuth.layer({
        resource: url,
        authorizationServers: [as.issuer],
        scopesSupported: ["mcp:tools", "mcp:admin"],
        requiredScopes: ["mcp:tools"]
      }).pipe(Layer.provide(as.verifier))
      yield* Layer.build(
        NodeStreamableHttp.layer({ port }).pipe(
          Layer.provide(protect),
          Layer.provideMerge(McpServer.register(Who, Admin)),
          Layer.provideMerge(McpServer.layer({ name: "protected", version: "1.0.0" }))
        )
      ).pipe(Effect.orDie)
      const none = yield* post(url, undefined, 1, "server/discover")
      assert.strictEqual(none.status, 401)
      assert.match(none.challenge!, /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="mcp:tools mcp:admin"$/)
      const bad = yield* post(url, "forged", 2, "tools/list")
      assert.strictEqual(bad.status, 401)
      assert.match(bad.challenge!, /error="invalid_token"/)
      const token = as.mint("mcp:tools", url)
      const discover = yield* post(url, token, 3, "server/discover")
      assert.strictEqual(discover.status, 200, JSON.stringify(discover.body))
      const who = yield* post(url, token, 4, "tools/call", { name: "whoami", arguments: {} })
      assert.strictEqual(who.body.result.content[0].text, "user:mcp:tools")
      const denied = yield* post(url, token, 5, "tools/call", { name: "admin", arguments: {} })
      assert.strictEqual(denied.status, 403)
      assert.strictEqual(denied.challenge, `Bearer error="insufficient_scope", resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", url).href}", scope="mcp:tools mcp:admin"`)
      const foreign = yield* post(url, as.mint("mcp:tools", "http://127.0.0.1:1/other"), 6, "tools/list")
      assert.strictEqual(foreign.status, 401)
      const admin = yield* post(url, as.mint("mcp:tools mcp:admin", url), 7, "tools/call", { name: "admin", arguments: {} })
      assert.strictEqual(admin.body.result.content[0].text, "done")
    }))
})
