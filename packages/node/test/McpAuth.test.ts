/**
 * A protected server end to end: tokens from a real authorization server
 * (`oidc-provider`), our server behind `McpAuth` with the JWT verifier, the
 * official SDK client (and raw HTTP, to read status and headers).
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as net from "node:net"
import { type AuthServer, SCOPES, startAuthServer } from "./authServer.js"
import { headers, INIT, messagesOf } from "./httpUtil.js"

const WhoAmI = McpServer.tool({
  name: "whoami",
  description: "the caller, as the server sees it",
  handler: () =>
    Effect.map(McpAuth.Principal, (p) => JSON.stringify({ subject: p.subject, scopes: p.scopes, audience: p.audience }))
})
const Admin = McpServer.tool({ name: "admin", scopes: ["mcp:admin"], handler: () => Effect.succeed("done") })
const Secret = McpServer.resource({
  uri: "docs://secret",
  name: "secret",
  scopes: ["mcp:admin"],
  content: Effect.succeed("s3cr3t")
})
const Features = McpServer.register(WhoAmI, Admin, Secret)

/** A free port, for a resource URL known before the server listens. */
const freePort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const port = (probe.address() as net.AddressInfo).port
    probe.close(() => resume(Effect.succeed(port)))
  })
})

interface Setup {
  readonly as: AuthServer
  readonly url: string
  readonly origin: string
}

const setup = Effect.gen(function*() {
  const as = yield* startAuthServer
  const port = yield* freePort
  const origin = `http://127.0.0.1:${port}`
  const url = `${origin}/mcp`
  const auth = McpAuth.layer({
    resource: url,
    authorizationServers: [as.issuer],
    scopesSupported: SCOPES,
    methodScopes: { "tools/call": ["mcp:tools"] },
    resourceName: "test server"
  }).pipe(
    Layer.provide(McpAuth.layerJwtVerifier({ issuer: as.issuer })),
    Layer.provide(FetchHttpClient.layer)
  )
  const layer = NodeStreamableHttp.layer({ port, legacySse: true }).pipe(
    Layer.provide(auth),
    Layer.provideMerge(Features),
    Layer.provideMerge(McpServer.layer({ name: "protected", version: "1.0.0" }))
  )
  yield* Layer.build(layer).pipe(Effect.orDie)
  return { as, url, origin } satisfies Setup
})

const post = (url: string, body: unknown, extra: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", headers: headers(extra), body: JSON.stringify(body) })
    const text = await response.text()
    return { status: response.status, headers: response.headers, text }
  })

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const connect = (url: string, token: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(token) } })
      )
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } })

describe("McpAuth, end to end against oidc-provider", () => {
  it.live("serves its Protected Resource Metadata at the path-aware and the root locations", () =>
    Effect.gen(function*() {
      const { as, origin, url } = yield* setup
      for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
        const response = yield* Effect.promise(() => fetch(`${origin}${path}`))
        assert.strictEqual(response.status, 200)
        assert.strictEqual(response.headers.get("content-type"), "application/json")
        assert.strictEqual(
          yield* Effect.promise(() => response.text()),
          JSON.stringify({
            resource: url,
            authorization_servers: [as.issuer],
            scopes_supported: ["mcp:tools", "mcp:admin"],
            bearer_methods_supported: ["header"],
            resource_name: "test server"
          })
        )
        assert.strictEqual(response.headers.get("access-control-allow-origin"), "*")
        // a browser client's preflight (it sends MCP-Protocol-Version and traceparent): allowed, headers reflected
        const preflight = yield* Effect.promise(() =>
          fetch(`${origin}${path}`, {
            method: "OPTIONS",
            headers: {
              origin: "https://app.example.com",
              "access-control-request-method": "GET",
              "access-control-request-headers": "mcp-protocol-version, traceparent"
            }
          })
        )
        assert.strictEqual(preflight.status, 204)
        assert.strictEqual(preflight.headers.get("access-control-allow-origin"), "*")
        assert.strictEqual(preflight.headers.get("access-control-allow-methods"), "GET")
        assert.strictEqual(preflight.headers.get("access-control-allow-headers"), "mcp-protocol-version, traceparent")
      }
    }))

  it.live("no token: 401 with the resource metadata and the scopes in WWW-Authenticate; the official client fails", () =>
    Effect.gen(function*() {
      const { origin, url } = yield* setup
      const response = yield* post(url, INIT)
      assert.strictEqual(response.status, 401)
      assert.strictEqual(
        response.headers.get("www-authenticate"),
        `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools mcp:admin"`
      )
      const failed = yield* Effect.promise(() =>
        new Client({ name: "c", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(url))).then(
          () => "connected",
          (e: Error & { code?: number }) => `${e.code} ${e.message}`
        )
      )
      assert.match(failed, /^401 /)
      // a token anywhere but the Authorization header is not one
      const inQuery = yield* post(`${url}?access_token=abc`, INIT)
      assert.strictEqual(inQuery.status, 401)
      const basic = yield* post(url, INIT, { authorization: "Basic YTpi" })
      assert.strictEqual(basic.status, 401)
      assert.match(basic.headers.get("www-authenticate")!, /^Bearer error="invalid_token", resource_metadata="/)
    }))

  it.live("a valid token: the official client lists and calls; the handler sees the principal", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup
      const client = yield* connect(url, yield* as.token("alice", url))
      const tools = yield* Effect.promise(() => client.listTools())
      assert.deepStrictEqual(tools.tools.map((t) => t.name), ["whoami", "admin"])
      const result = yield* Effect.promise(() => client.callTool({ name: "whoami", arguments: {} }))
      assert.deepStrictEqual(result.content, [{
        type: "text",
        text: JSON.stringify({ subject: "alice", scopes: ["mcp:tools"], audience: [url] })
      }])
    }))

  it.live("a token minted for another resource, an expired one, a tampered one, a foreign one: 401 invalid_token", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup
      const now = Math.floor(Date.now() / 1000)
      const good = yield* as.token("alice", url)
      const [head, payload, signature] = good.split(".")
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>
      const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, scope: "mcp:tools mcp:admin" })).toString("base64url")}.${signature}`
      const cases: ReadonlyArray<readonly [string, string, RegExp]> = [
        ["other resource", yield* as.token("alice", "http://127.0.0.1:1/mcp"), /not issued for this resource/],
        [
          "expired",
          yield* as.sign({ iss: as.issuer, aud: url, sub: "alice", scope: "mcp:tools", iat: now - 600, exp: now - 300 }),
          /expired/
        ],
        [
          "not yet valid",
          yield* as.sign({ iss: as.issuer, aud: url, sub: "alice", scope: "mcp:tools", nbf: now + 300, exp: now + 600 }),
          /not valid yet/
        ],
        [
          "other issuer",
          yield* as.sign({ iss: "http://127.0.0.1:2", aud: url, sub: "alice", scope: "mcp:tools", exp: now + 600 }),
          /expected authorization server/
        ],
        ["tampered", tampered, /signature/],
        ["garbage", "not.a.jwt", /malformed/]
      ]
      for (const [name, token, description] of cases) {
        const response = yield* post(url, INIT, bearer(token))
        assert.strictEqual(response.status, 401, name)
        assert.strictEqual(
          response.headers.get("www-authenticate"),
          `Bearer error="invalid_token", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools mcp:admin"`,
          name
        )
        const body = JSON.parse(response.text) as { error: string; error_description: string }
        assert.strictEqual(body.error, "invalid_token", name)
        assert.match(body.error_description, description, name)
        assert.notInclude(response.text, token, name)
      }
    }))

  it.live("a feature needing a scope the token lacks: 403 insufficient_scope naming the scopes needed", () =>
    Effect.gen(function*() {
      const { as, origin, url } = yield* setup
      const token = yield* as.token("alice", url)
      const init = yield* post(url, INIT, bearer(token))
      assert.strictEqual(init.status, 200)
      const session = { ...bearer(token), "mcp-session-id": init.headers.get("mcp-session-id")! }
      const denied = yield* post(url, call(2, "admin"), session)
      assert.strictEqual(denied.status, 403)
      assert.strictEqual(
        denied.headers.get("www-authenticate"),
        `Bearer error="insufficient_scope", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools mcp:admin"`
      )
      assert.deepStrictEqual(JSON.parse(denied.text), { error: "insufficient_scope", error_description: "the token lacks the scope mcp:admin" })
      const read = yield* post(url, { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "docs://secret" } }, session)
      assert.strictEqual(read.status, 403)
      assert.match(read.headers.get("www-authenticate")!, /scope="mcp:admin"$/)
      // a token with no mcp:tools cannot call any tool, per the server's method scopes
      const bare = yield* as.token("alice", url, "mcp:admin")
      const noTools = yield* post(url, call(4, "whoami"), { ...session, ...bearer(bare) })
      assert.strictEqual(noTools.status, 403)
      // step-up: the same principal with more scopes, on the same session
      const more = yield* as.token("alice", url, "mcp:tools mcp:admin")
      const allowed = yield* post(url, call(5, "admin"), { ...session, ...bearer(more) })
      assert.strictEqual(allowed.status, 200)
      assert.deepStrictEqual(messagesOf(allowed.text)[0].result.content, [{ type: "text", text: "done" }])
      // the official client sees the 403
      const client = yield* connect(url, token)
      const failed = yield* Effect.promise(() =>
        client.callTool({ name: "admin", arguments: {} }).then(
          () => "called",
          (e: Error & { code?: number }) => `${e.code} ${e.message}`
        )
      )
      assert.match(failed, /^403 .*insufficient_scope/)
    }))

  it.live("a session used with another principal's token is not found (404), for POST, GET and DELETE", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup
      const alice = yield* as.token("alice", url)
      const bob = yield* as.token("bob", url)
      const init = yield* post(url, INIT, bearer(alice))
      const id = init.headers.get("mcp-session-id")!
      const asBob = { ...bearer(bob), "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" }
      const replayed = yield* post(url, call(2, "whoami"), asBob)
      assert.strictEqual(replayed.status, 404)
      assert.strictEqual(JSON.parse(replayed.text).error.message, "Session not found")
      for (const method of ["GET", "DELETE"]) {
        const response = yield* Effect.promise(() =>
          fetch(url, { method, headers: { ...asBob, accept: "text/event-stream" } })
        )
        assert.strictEqual(response.status, 404, method)
      }
      // still alice's, and alive
      const mine = yield* post(url, call(3, "whoami"), { ...bearer(alice), "mcp-session-id": id })
      assert.strictEqual(mine.status, 200)
      assert.include(messagesOf(mine.text)[0].result.content[0].text, `"subject":"alice"`)
      // with the official client: bob's transport on alice's session id
      const client = new Client({ name: "official", version: "1.0.0" })
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(bob) }, sessionId: id })
      const failed = yield* Effect.promise(() =>
        client.connect(transport).then(() => client.listTools()).then(() => "listed", (e: Error) => e.message)
      )
      yield* Effect.promise(() => client.close())
      assert.notStrictEqual(failed, "listed")
    }))

  it.live("the legacy HTTP+SSE transport: 401 without a token, 404 for another principal's session, 403 for a missing scope", () =>
    Effect.gen(function*() {
      const { as, origin } = yield* setup
      const resource = `${origin}/mcp`
      const alice = yield* as.token("alice", resource)
      const bob = yield* as.token("bob", resource)
      const noToken = yield* Effect.promise(() => fetch(`${origin}/sse`, { headers: { accept: "text/event-stream" } }))
      assert.strictEqual(noToken.status, 401)
      assert.match(noToken.headers.get("www-authenticate")!, /^Bearer resource_metadata=/)
      const controller = new AbortController()
      yield* Effect.addFinalizer(() => Effect.sync(() => controller.abort()))
      const stream = yield* Effect.promise(() =>
        fetch(`${origin}/sse`, { headers: { accept: "text/event-stream", ...bearer(alice) }, signal: controller.signal })
      )
      assert.strictEqual(stream.status, 200)
      const reader = stream.body!.getReader()
      const first = new TextDecoder().decode((yield* Effect.promise(() => reader.read())).value)
      const endpoint = /data: (.*)\n/.exec(first)![1]!
      const messages = `${origin}${endpoint}`
      const asBob = yield* post(messages, INIT, bearer(bob))
      assert.strictEqual(asBob.status, 404)
      const unauthenticated = yield* post(messages, INIT)
      assert.strictEqual(unauthenticated.status, 401)
      const asAlice = yield* post(messages, INIT, bearer(alice))
      assert.strictEqual(asAlice.status, 202)
      const denied = yield* post(messages, call(2, "admin"), bearer(alice))
      assert.strictEqual(denied.status, 403)
      assert.match(denied.headers.get("www-authenticate")!, /^Bearer error="insufficient_scope"/)
    }))
})
