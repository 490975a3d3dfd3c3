/**
 * The verifiers against real HTTP endpoints on 127.0.0.1 (a tiny
 * introspection endpoint; a tiny issuer with metadata and JWKS), with time on
 * the TestClock; and `McpAuth` on the platform `HttpApp` path.
 */
import { assert, describe, it } from "@effect/vitest"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Stream from "effect/Stream"
import type * as Scope from "effect/Scope"
import * as TestClock from "effect/testing/TestClock"
import * as jose from "jose"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { identifies, ownerKey, sameOwner } from "../src/internal/auth/principal.js"
import { owner2026, ownerOf } from "../src/internal/tasks/core.js"

const RESOURCE = "https://mcp.example.com/mcp"

/** A JSON server on 127.0.0.1:0 answering by path; every request is recorded. */
const serveJson = (
  answer: (path: string, body: string, headers: http.IncomingHttpHeaders) => { status: number; json: unknown }
): Effect.Effect<{ readonly origin: string; readonly requests: Array<{ path: string; body: string; auth?: string }> }, never, Scope.Scope> =>
  Effect.gen(function*() {
    const requests: Array<{ path: string; body: string; auth?: string }> = []
    const server = http.createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        const path = req.url ?? "/"
        requests.push({ path, body, ...(req.headers.authorization !== undefined ? { auth: req.headers.authorization } : {}) })
        const { json, status } = answer(path, body, req.headers)
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json))
      })
    })
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
      () => Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
    )
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
  })

const verifierOf = (layer: Layer.Layer<McpAuth.TokenVerifier, never, never>) =>
  Effect.map(Effect.provide(McpAuth.TokenVerifier, layer), (v) => v)

describe("the introspection verifier (RFC 7662)", () => {
  const tokens: Record<string, unknown> = {
    good: { active: true, sub: "alice", client_id: "app", scope: "mcp:tools mcp:admin", aud: RESOURCE, exp: 1000, iss: "https://as" },
    inactive: { active: false },
    other: { active: true, sub: "alice", aud: "https://other.example.com/mcp", exp: 1000 },
    noAudience: { active: true, sub: "alice", exp: 1000 },
    later: { active: true, sub: "alice", aud: [RESOURCE, "x"], nbf: 500, exp: 1000 }
  }
  const endpoint = serveJson((_path, body, headers) => {
    if (headers.authorization !== `Basic ${Buffer.from("rs:secret").toString("base64")}`) return { status: 401, json: {} }
    const token = new URLSearchParams(body).get("token") ?? ""
    if (token === "broken") return { status: 500, json: {} }
    return { status: 200, json: tokens[token] ?? { active: false } }
  })
  const verifier = (origin: string) =>
    verifierOf(
      McpAuth.layerIntrospectionVerifier({ endpoint: `${origin}/introspect`, clientId: "rs", clientSecret: "secret" }).pipe(
        Layer.provide(FetchHttpClient.layer)
      )
    )

  it.effect("an active token for this resource: the principal, with its scopes; the endpoint is asked with client_secret_basic", () =>
    Effect.gen(function*() {
      const { origin, requests } = yield* endpoint
      const v = yield* verifier(origin)
      const p = yield* v.verify("good", RESOURCE)
      assert.deepStrictEqual(
        { subject: p.subject, clientId: p.clientId, scopes: p.scopes, audience: p.audience, expiresAt: p.expiresAt, issuer: p.issuer },
        { subject: "alice", clientId: "app", scopes: ["mcp:tools", "mcp:admin"], audience: [RESOURCE], expiresAt: 1_000_000, issuer: "https://as" }
      )
      assert.deepStrictEqual(Object.fromEntries(new URLSearchParams(requests[0]!.body)), { token: "good", token_type_hint: "access_token" })
    }))

  it.effect("inactive, for another resource, without an audience: Invalid; an endpoint that fails: Unavailable", () =>
    Effect.gen(function*() {
      const { origin } = yield* endpoint
      const v = yield* verifier(origin)
      const outcome = (token: string) => Effect.result(v.verify(token, RESOURCE))
      const expect = (e: Result.Result<unknown, McpAuth.AuthError>, reason: string, message: string) => {
        assert.isTrue(Result.isFailure(e))
        const error = (e as Result.Failure<unknown, McpAuth.AuthError>).failure
        assert.strictEqual(error.reason, reason)
        assert.strictEqual(error.message, message)
      }
      expect(yield* outcome("inactive"), "Invalid", "the token is not active")
      expect(yield* outcome("other"), "Invalid", "the token was not issued for this resource")
      expect(yield* outcome("noAudience"), "Invalid", "the token was not issued for this resource")
      expect(yield* outcome("broken"), "Unavailable", "the introspection endpoint did not answer")
      const wrongCredentials = yield* verifierOf(
        McpAuth.layerIntrospectionVerifier({ endpoint: `${origin}/introspect`, clientId: "rs", clientSecret: "nope" }).pipe(
          Layer.provide(FetchHttpClient.layer)
        )
      )
      expect(yield* Effect.result(wrongCredentials.verify("good", RESOURCE)), "Unavailable", "the introspection endpoint did not answer")
    }))

  it.effect("exp and nbf on the Clock, with the 30 s skew", () =>
    Effect.gen(function*() {
      const { origin } = yield* endpoint
      const v = yield* verifier(origin)
      const at = (seconds: number) =>
        Effect.andThen(TestClock.setTime(seconds * 1000), Effect.result(v.verify("later", RESOURCE)))
      assert.isTrue(Result.isFailure(yield* at(469)))
      assert.isTrue(Result.isSuccess(yield* at(471)))
      assert.isTrue(Result.isSuccess(yield* at(1029)))
      const expired = yield* at(1031)
      assert.isTrue(Result.isFailure(expired) && expired.failure.message === "the token has expired")
    }))
})

describe("the JWT verifier", () => {
  const issuerWith = Effect.gen(function*() {
    const k1 = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
    const k2 = yield* Effect.promise(() => jose.generateKeyPair("ES256", { extractable: true }))
    const pub1 = { ...(yield* Effect.promise(() => jose.exportJWK(k1.publicKey))), kid: "k1", alg: "ES256" }
    const pub2 = { ...(yield* Effect.promise(() => jose.exportJWK(k2.publicKey))), kid: "k2", alg: "ES256" }
    const state = { keys: [pub1] as Array<unknown>, issuer: "" }
    const served = yield* serveJson((path) => {
      // the tenant path: RFC 8414's path-aware location
      if (path === "/.well-known/oauth-authorization-server/tenant") {
        return { status: 200, json: { issuer: state.issuer, jwks_uri: `${state.issuer.replace("/tenant", "")}/jwks` } }
      }
      if (path === "/jwks") return { status: 200, json: { keys: state.keys } }
      return { status: 404, json: {} }
    })
    state.issuer = `${served.origin}/tenant`
    const sign = (claims: jose.JWTPayload, key: "k1" | "k2" = "k1", kid = true) =>
      Effect.promise(() =>
        new jose.SignJWT(claims).setProtectedHeader(kid ? { alg: "ES256", kid: key } : { alg: "ES256" }).sign(
          key === "k1" ? k1.privateKey : k2.privateKey
        )
      )
    return { issuer: state.issuer, state, pub2, sign, requests: served.requests }
  })
  const verifier = (issuer: string) =>
    verifierOf(McpAuth.layerJwtVerifier({ issuer }).pipe(Layer.provide(FetchHttpClient.layer)))

  it.effect("finds the keys through the issuer's metadata and checks exp and nbf on the Clock, with the skew", () =>
    Effect.gen(function*() {
      const as = yield* issuerWith
      const v = yield* verifier(as.issuer)
      const token = yield* as.sign({ iss: as.issuer, aud: RESOURCE, sub: "alice", scp: ["a", "b"], nbf: 500, exp: 1000 })
      const at = (seconds: number) => Effect.andThen(TestClock.setTime(seconds * 1000), Effect.result(v.verify(token, RESOURCE)))
      const early = yield* at(469)
      assert.isTrue(Result.isFailure(early) && early.failure.message === "the token is not valid yet")
      const ok = yield* at(471)
      assert.isTrue(Result.isSuccess(ok) && ok.success.subject === "alice" && ok.success.scopes.join(" ") === "a b")
      assert.isTrue(Result.isSuccess(yield* at(1029)))
      const late = yield* at(1031)
      assert.isTrue(Result.isFailure(late) && late.failure.message === "the token has expired")
      // discovery and the key set were fetched once
      assert.deepStrictEqual(as.requests.map((r) => r.path), ["/.well-known/oauth-authorization-server/tenant", "/jwks"])
    }))

  it.effect("refuses another audience, another issuer, no exp; fetches the keys again for an unknown kid, at most every 30 s", () =>
    Effect.gen(function*() {
      const as = yield* issuerWith
      const v = yield* verifier(as.issuer)
      const message = (token: string) =>
        Effect.map(Effect.flip(v.verify(token, RESOURCE)), (e) => e.message)
      assert.strictEqual(
        yield* message(yield* as.sign({ iss: as.issuer, aud: "https://other/mcp", exp: 10 })),
        "the token was not issued for this resource"
      )
      assert.strictEqual(
        yield* message(yield* as.sign({ iss: "https://evil", aud: RESOURCE, exp: 10 })),
        "the token was not issued by the expected authorization server"
      )
      assert.strictEqual(yield* message(yield* as.sign({ iss: as.issuer, aud: RESOURCE })), "the token's exp claim is invalid")
      // a rotated key: unknown at first, then fetched (not sooner than 30 s after the last fetch)
      as.state.keys.push(as.pub2)
      const rotated = yield* as.sign({ iss: as.issuer, aud: RESOURCE, sub: "bob", exp: 1000 }, "k2")
      assert.strictEqual(yield* message(rotated), "the token was not signed by a key of the issuer")
      yield* TestClock.adjust(Duration.seconds(31))
      assert.strictEqual((yield* v.verify(rotated, RESOURCE)).subject, "bob")
      assert.deepStrictEqual(as.requests.map((r) => r.path).filter((p) => p === "/jwks").length, 2)
    }))

  it.effect("a token without kid signed by a rotated key: the keys are fetched again (at most every 30 s), then it is accepted", () =>
    Effect.gen(function*() {
      const as = yield* issuerWith
      const v = yield* verifier(as.issuer)
      const first = yield* v.verify(yield* as.sign({ iss: as.issuer, aud: RESOURCE, sub: "alice", exp: 1000 }, "k1", false), RESOURCE)
      assert.strictEqual(first.subject, "alice")
      as.state.keys.push(as.pub2)
      const rotated = yield* as.sign({ iss: as.issuer, aud: RESOURCE, sub: "bob", exp: 1000 }, "k2", false)
      const refused = yield* Effect.flip(v.verify(rotated, RESOURCE))
      assert.strictEqual(refused.message, "the token was not signed by a key of the issuer")
      yield* TestClock.adjust(Duration.seconds(31))
      // the set now has k1 and k2, both ES256: each is tried
      assert.strictEqual((yield* v.verify(rotated, RESOURCE)).subject, "bob")
      assert.strictEqual(as.requests.filter((r) => r.path === "/jwks").length, 2)
    }))

  it.effect("metadata whose issuer does not match is not used: the verifier is Unavailable, not fooled", () =>
    Effect.gen(function*() {
      const as = yield* issuerWith
      const v = yield* verifier(`${as.issuer}-other`)
      const token = yield* as.sign({ iss: `${as.issuer}-other`, aud: RESOURCE, exp: 1000 })
      const error = yield* Effect.flip(v.verify(token, RESOURCE))
      assert.strictEqual(error.reason, "Unavailable")
    }))
})

describe("McpAuth on the platform HttpApp path", () => {
  const Whoami = McpServer.tool({
    name: "whoami",
    handler: () => Effect.map(McpAuth.Principal, (p) => p.subject ?? "")
  })
  const principal = (subject: string, scopes: ReadonlyArray<string>): McpAuth.PrincipalInfo => ({
    subject,
    clientId: undefined,
    issuer: "https://as",
    scopes,
    audience: [RESOURCE],
    expiresAt: undefined,
    claims: {}
  })
  // a verifier of one's own: static keys
  const Keys = Layer.succeed(McpAuth.TokenVerifier, {
    verify: (token) =>
      token === "alice-key"
        ? Effect.succeed(principal("alice", ["mcp:tools"]))
        : token === "bob-key"
        ? Effect.succeed(principal("bob", []))
        : Effect.fail(new McpAuth.AuthError({ reason: "Invalid", message: "unknown key" }))
  })
  const app = Effect.gen(function*() {
    // built in the test's scope: the features stay registered while it runs
    const context = yield* Layer.build(
      McpServer.register(Whoami).pipe(Layer.provideMerge(McpServer.layer({ name: "t", version: "1" })))
    )
    const server = Context.get(context, McpServer.McpServer)
    const auth = yield* McpAuth.make({
      resource: RESOURCE,
      authorizationServers: ["https://as"],
      methodScopes: { "tools/call": ["mcp:tools"] }
    }).pipe(Effect.provide(Keys))
    const mcp = yield* StreamableHttpServer.make({ jsonResponse: true, auth, dnsRebindingProtection: false }).pipe(
      Effect.provideService(McpServer.McpServer, server)
    )
    return (body: unknown, headers: Record<string, string>) =>
      mcp.app.pipe(
        Effect.provideService(
          HttpServerRequest.HttpServerRequest,
          HttpServerRequest.fromWeb(
            new Request(RESOURCE, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
              body: JSON.stringify(body)
            })
          )
        ),
        Effect.map((r) => HttpServerResponse.toWeb(r)),
        Effect.flatMap((r) =>
          Effect.promise(async () => ({ status: r.status, headers: r.headers, text: await r.text() }))
        )
      )
  })
  const INIT = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
  }

  it.effect("401 without a valid key; the principal reaches the handler; another principal's session is 404; a missing scope 403", () =>
    Effect.gen(function*() {
      const send = yield* app
      const missing = yield* send(INIT, {})
      assert.strictEqual(missing.status, 401)
      assert.strictEqual(
        missing.headers.get("www-authenticate"),
        `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`
      )
      const wrong = yield* send(INIT, { authorization: "Bearer nope" })
      assert.strictEqual(wrong.status, 401)
      assert.deepStrictEqual(JSON.parse(wrong.text), { error: "invalid_token", error_description: "unknown key" })
      const init = yield* send(INIT, { authorization: "Bearer alice-key" })
      assert.strictEqual(init.status, 200)
      const session = init.headers.get("mcp-session-id")!
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } }
      const called = yield* send(call, { authorization: "Bearer alice-key", "mcp-session-id": session })
      assert.deepStrictEqual(JSON.parse(called.text).result.content, [{ type: "text", text: "alice" }])
      const asBob = yield* send(call, { authorization: "Bearer bob-key", "mcp-session-id": session })
      assert.strictEqual(asBob.status, 404)
      const bobInit = yield* send(INIT, { authorization: "Bearer bob-key" })
      const bobCall = yield* send(call, { authorization: "Bearer bob-key", "mcp-session-id": bobInit.headers.get("mcp-session-id")! })
      assert.strictEqual(bobCall.status, 403)
      assert.strictEqual(
        bobCall.headers.get("www-authenticate"),
        `Bearer error="insufficient_scope", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`
      )
    }))
})

describe("scopes at dispatch, on any transport that carries a principal", () => {
  it.effect("a tool whose scopes the principal lacks is refused with -32003; with them it runs and sees the principal", () =>
    Effect.gen(function*() {
      const Admin = McpServer.tool({
        name: "admin",
        scopes: ["mcp:admin"],
        handler: () => Effect.map(McpAuth.Principal, (p) => `hello ${p.subject}`)
      })
      const context = yield* Layer.build(
        McpServer.register(Admin).pipe(Layer.provideMerge(McpServer.layer({ name: "t", version: "1" })))
      )
      const server = Context.get(context, McpServer.McpServer)
      const pair = yield* Transport.makeMemoryPair()
      let scopes: ReadonlyArray<string> = ["mcp:tools"]
      const principal = (): McpAuth.PrincipalInfo => ({
        subject: "alice",
        clientId: undefined,
        issuer: undefined,
        scopes,
        audience: [],
        expiresAt: undefined,
        claims: {}
      })
      yield* server.connect({ ...pair.server, info: { sessionId: "s", principal } })
      const call = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "tools/call", params: { name: "admin", arguments: {} } })
      const answer = (id: number) =>
        Effect.andThen(
          pair.client.send(call(id)),
          Effect.map(Stream.runCollect(Stream.take(Transport.incoming(pair.client), 1)), (c) => Array.from(c)[0] as unknown as Record<string, unknown>)
        )
      const denied = yield* answer(1)
      scopes = ["mcp:tools", "mcp:admin"]
      const allowed = yield* answer(2)
      assert.deepStrictEqual(denied, { jsonrpc: "2.0", id: 1, error: { code: -32003, message: "Forbidden: the token lacks the scopes mcp:admin" } })
      assert.deepStrictEqual((allowed as { result: { content: unknown } }).result.content, [{ type: "text", text: "hello alice" }])
    }))
})

describe("McpAuth when the verifier cannot decide", () => {
  it.effect("503 with Retry-After, a warning logged that does not contain the token", () =>
    Effect.gen(function*() {
      const logs: Array<string> = []
      const { origin } = yield* serveJson(() => ({ status: 500, json: {} }))
      const auth = yield* McpAuth.make({ resource: RESOURCE, authorizationServers: ["https://as"] }).pipe(
        Effect.provide(
          McpAuth.layerIntrospectionVerifier({ endpoint: `${origin}/introspect` }).pipe(Layer.provide(FetchHttpClient.layer))
        )
      )
      const token = "secret-token-value-123"
      const result = yield* auth.authenticate({ authorization: `Bearer ${token}` } as never).pipe(
        Effect.provide(Logger.layer([Logger.make(({ message }) => logs.push(String(message)))]))
      )
      assert.isFalse(McpAuth.isPrincipal(result))
      const response = HttpServerResponse.toWeb(result as HttpServerResponse.HttpServerResponse)
      assert.strictEqual(response.status, 503)
      assert.strictEqual(response.headers.get("retry-after"), "5")
      assert.deepStrictEqual(logs, ["McpAuth: the introspection endpoint did not answer"])
      assert.notInclude(yield* Effect.promise(() => response.text()), token)
    }))
})

describe("the owner key of a principal (sessions, tasks, request states)", () => {
  type Triple = readonly [string | undefined, string | undefined, string | undefined]
  const of = ([issuer, subject, clientId]: Triple): McpAuth.PrincipalInfo => ({
    issuer,
    subject,
    clientId,
    scopes: [],
    audience: [],
    expiresAt: undefined,
    claims: {}
  })
  // pairs that a joined or naively quoted encoding confuses
  const tricky: ReadonlyArray<readonly [Triple, Triple]> = [
    [["https://as", "alice", "x y"], ["https://as", "alice x", "y"]],
    [["https://as x", "y", "z"], ["https://as", "x y", "z"]],
    [["https://as", "a", undefined], ["https://as", "a", ""]],
    [["https://as", undefined, "c"], ["https://as", "", "c"]],
    [["https://as", "a\",\"b", undefined], ["https://as", "a", "b"]],
    [["https://as", "null", undefined], ["https://as", undefined, undefined]],
    [[undefined, "a", "b"], ["", "a", "b"]],
    [["https://as", "a:b", "c"], ["https://as", "a", "b:c"]]
  ]

  it("is injective: the tricky pairs differ, for sessions and for tasks; each key decodes back to its triple", () => {
    for (const [x, y] of tricky) {
      assert.notStrictEqual(ownerKey(of(x)), ownerKey(of(y)), JSON.stringify([x, y]))
      assert.isFalse(sameOwner(of(x), of(y)), JSON.stringify([x, y]))
      assert.notStrictEqual(ownerOf(of(x), "s"), ownerOf(of(y), "s"), JSON.stringify([x, y]))
      assert.notStrictEqual(owner2026(of(x)), owner2026(of(y)), JSON.stringify([x, y]))
      for (const t of [x, y]) {
        assert.deepStrictEqual(JSON.parse(ownerKey(of(t))), t.map((v) => v ?? null))
      }
    }
    // a task's owner names the principal through the same key; unprotected, the session or the id's bearer
    assert.strictEqual(ownerOf(of(tricky[0]![0]), "s"), `principal:${ownerKey(of(tricky[0]![0]))}`)
    assert.strictEqual(ownerOf(undefined, "s"), "session:s")
    assert.strictEqual(owner2026(undefined), "anyone")
  })

  it("keeps what does not identify out: scopes, audience and expiry may change within one owner", () => {
    const a = of(["https://as", "alice", "app"])
    assert.isTrue(sameOwner(a, { ...a, scopes: ["mcp:admin"], expiresAt: 5, audience: ["x"], claims: { jti: "2" } }))
    assert.isTrue(sameOwner(undefined, undefined))
    assert.isFalse(sameOwner(undefined, a))
  })

  it("identifies only a principal with a non-empty subject or client id", () => {
    assert.isTrue(identifies(of(["https://as", "alice", undefined])))
    assert.isTrue(identifies(of(["https://as", undefined, "app"])))
    assert.isFalse(identifies(of(["https://as", undefined, undefined])))
    assert.isFalse(identifies(of(["https://as", "", ""])))
  })
})
