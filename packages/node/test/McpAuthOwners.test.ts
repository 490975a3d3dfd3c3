/**
 * Who owns a session or a task on a protected server (issue 31): real JWTs
 * signed with `jose` by a test issuer whose metadata and JWKS are served over
 * HTTP on 127.0.0.1, our server behind `McpAuth` with the JWT (or the
 * introspection) verifier on a real socket, raw HTTP requests.
 *
 * - principals whose claims concatenate alike (sub "alice" with client_id
 *   "x y", sub "alice x" with client_id "y") are two owners: of tasks of
 *   both eras, of request states and of sessions;
 * - a token naming no subject is refused (401), never bound to an empty owner;
 * - a token without `kid` is verified against the issuer's keys of its `alg`,
 *   at most `MAX_KEY_CANDIDATES` of them.
 */
import { assert, describe, it } from "@effect/vitest"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpServer from "effect/http/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as jose from "jose"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { headers, INIT, messagesOf } from "./httpUtil.js"

/** A JSON server on 127.0.0.1:0 answering by path and form body. */
const serveJson = (answer: (path: string, body: string) => { status: number; json: unknown }) =>
  Effect.gen(function*() {
    const server = http.createServer((req, res) => {
      let body = ""
      req.on("data", (c) => (body += c))
      req.on("end", () => {
        const { json, status } = answer(req.url ?? "/", body)
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json))
      })
    })
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
      () =>
        Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

interface Issuer {
  readonly issuer: string
  /** Signs `claims` (iss and exp added) with the `index`th key; with its `kid` unless `kid` is false. */
  readonly sign: (claims: jose.JWTPayload, options?: { readonly index?: number; readonly kid?: boolean }) => Effect.Effect<string>
  /** Signs with a key the issuer does not publish. */
  readonly signForeign: (claims: jose.JWTPayload) => Effect.Effect<string>
}

/** An issuer publishing `count` ES256 keys (k0, k1, …) in its JWKS, found through RFC 8414 metadata. */
const startIssuer = (count: number): Effect.Effect<Issuer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const pairs = yield* Effect.promise(() =>
      Promise.all(Array.from({ length: count + 1 }, () => jose.generateKeyPair("ES256", { extractable: true })))
    )
    const keys = yield* Effect.promise(() =>
      Promise.all(pairs.slice(0, count).map(async (p, i) => ({ ...(await jose.exportJWK(p.publicKey)), kid: `k${i}`, alg: "ES256", use: "sig" })))
    )
    let issuer = ""
    const origin = yield* serveJson((path) =>
      path === "/.well-known/oauth-authorization-server"
        ? { status: 200, json: { issuer, jwks_uri: `${issuer}/jwks` } }
        : path === "/jwks"
        ? { status: 200, json: { keys } }
        : { status: 404, json: {} }
    )
    issuer = origin
    const signWith = (claims: jose.JWTPayload, key: jose.CryptoKey, kid: string | undefined) =>
      Effect.promise(() =>
        new jose.SignJWT({ iss: issuer, exp: Math.floor(Date.now() / 1000) + 600, ...claims })
          .setProtectedHeader(kid === undefined ? { alg: "ES256", typ: "at+jwt" } : { alg: "ES256", typ: "at+jwt", kid })
          .sign(key)
      )
    return {
      issuer,
      sign: (claims, options = {}) => {
        const index = options.index ?? 0
        return signWith(claims, pairs[index]!.privateKey, options.kid === false ? undefined : `k${index}`)
      },
      signForeign: (claims) => signWith(claims, pairs[count]!.privateKey, undefined)
    }
  })

const Work = McpServer.tool({
  name: "work",
  execution: { taskSupport: "optional" },
  parameters: Schema.Struct({ ms: Schema.Number }),
  handler: ({ ms }) => Effect.as(Effect.sleep(ms), `worked ${ms} ms`)
})
const Ask = McpServer.tool({
  name: "ask",
  handler: () =>
    Effect.flatMap(HandlerContext, (ctx) => ctx.elicit({ message: "Name?", schema: Schema.Struct({ name: Schema.String }) }, { inputKey: "name" })).pipe(
      Effect.map(({ name }) => `hello ${name}`)
    )
})
const WhoAmI = McpServer.tool({
  name: "whoami",
  handler: () => Effect.map(McpAuth.Principal, (p) => JSON.stringify([p.subject, p.clientId]))
})

/** Our server on 127.0.0.1:0 behind `McpAuth` with `verifier`, with tasks; its URL. */
const startServer = (verifier: (resource: string) => Layer.Layer<McpAuth.TokenVerifier>) =>
  Effect.gen(function*() {
    // the resource must be known before the port: the audience is checked against this fixed URL
    const resource = "http://127.0.0.1/mcp"
    const auth = McpAuth.layer({ resource, authorizationServers: ["http://127.0.0.1"] }).pipe(Layer.provide(verifier(resource)))
    const layer = NodeStreamableHttp.layer({ port: 0 }).pipe(
      Layer.provide(auth),
      Layer.provideMerge(Layer.mergeAll(McpServer.register(Work, Ask, WhoAmI), McpTasks.layerMemory({ defaultTtl: "1 minute" }))),
      Layer.provideMerge(McpServer.layer({ name: "owners", version: "1.0.0" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    const port = "port" in server.address ? server.address.port : 0
    return { url: `http://127.0.0.1:${port}/mcp`, resource }
  })

const jwtServer = (issuer: string) =>
  startServer(() => McpAuth.layerJwtVerifier({ issuer }).pipe(Layer.provide(FetchHttpClient.layer)))

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The last JSON-RPC message of the body (JSON or SSE). */
  readonly message: { readonly result?: WireResult; readonly error?: { readonly code: number; readonly message: string } }
}

/** The fields of a result these tests read, as the methods they call answer them (a task, a tool's text, a list). */
interface WireResult {
  readonly taskId?: string
  readonly status?: string
  readonly requestState?: string
  readonly content?: ReadonlyArray<{ readonly text?: string }>
  readonly task?: { readonly taskId: string }
  readonly tasks?: ReadonlyArray<{ readonly taskId: string }>
}

let nextId = 100

const send = (url: string, token: string, method: string, params: Record<string, unknown>, extra: Record<string, string> = {}) =>
  Effect.promise(async (): Promise<Answer> => {
    const body = { jsonrpc: "2.0", id: nextId++, method, params }
    const response = await fetch(url, { method: "POST", headers: headers({ authorization: `Bearer ${token}`, ...extra }), body: JSON.stringify(body) })
    const text = await response.text()
    const type = response.headers.get("content-type") ?? ""
    const frames = type.includes("text/event-stream") ? messagesOf(text) : text === "" ? [] : [JSON.parse(text)]
    return { status: response.status, headers: response.headers, text, message: frames.at(-1) ?? {} }
  })

/** A 2025-11-25 session of `token`: its id, initialized. */
const session = (url: string, token: string) =>
  Effect.gen(function*() {
    const init = yield* Effect.promise(() =>
      fetch(url, { method: "POST", headers: headers({ authorization: `Bearer ${token}` }), body: JSON.stringify(INIT) })
    )
    assert.strictEqual(init.status, 200)
    const id = init.headers.get("mcp-session-id")!
    const extra = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" }
    yield* Effect.promise(() =>
      fetch(url, {
        method: "POST",
        headers: headers({ authorization: `Bearer ${token}`, ...extra }),
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
      })
    )
    return (method: string, params: Record<string, unknown>, as: string = token) => send(url, as, method, params, extra)
  })

const V2026 = "2026-07-28"
/** One 2026-07-28 request (no session; the tasks extension declared). */
const send2026 = (url: string, token: string, method: string, params: Record<string, unknown>) => {
  const name = (params.name ?? params.taskId) as string | undefined
  return send(url, token, method, {
    ...params,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": V2026,
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [McpTasks.EXTENSION_ID]: {} } },
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
    }
  }, { "mcp-protocol-version": V2026, "mcp-method": method, ...(name !== undefined ? { "mcp-name": name } : {}) })
}

describe("owners of sessions and tasks: one injective key per principal", () => {
  it.live("sub \"alice\" + client_id \"x y\" and sub \"alice x\" + client_id \"y\" are two owners: of 2026 tasks, request states, 2025 tasks, sessions", () =>
    Effect.gen(function*() {
      const as = yield* startIssuer(1)
      const { resource, url } = yield* jwtServer(as.issuer)
      const a = yield* as.sign({ aud: resource, sub: "alice", client_id: "x y" })
      const b = yield* as.sign({ aud: resource, sub: "alice x", client_id: "y" })

      // 2026: A's task, finished; B can neither read it (its result inlined), answer it nor cancel it
      const created = yield* send2026(url, a, "tools/call", { name: "work", arguments: { ms: 1 } })
      const taskId = created.message.result?.taskId as string
      assert.isString(taskId, created.text)
      yield* Effect.sleep("50 millis")
      const own = yield* send2026(url, a, "tasks/get", { taskId })
      assert.strictEqual(own.message.result?.status, "completed", own.text)
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
        const other = yield* send2026(url, b, method, { taskId, inputResponses: {} })
        assert.strictEqual(other.message.error?.code, -32602, `${method}: ${other.text}`)
        assert.notInclude(other.text, "worked", method)
      }

      // 2026 request state: A's, retried with B's token, is refused; with A's it completes
      const asked = yield* send2026(url, a, "tools/call", { name: "ask", arguments: {} })
      const requestState = asked.message.result?.requestState as string
      assert.isString(requestState, asked.text)
      const retry = { name: "ask", arguments: {}, inputResponses: { name: { action: "accept", content: { name: "Alice" } } }, requestState }
      const stolen = yield* send2026(url, b, "tools/call", retry)
      assert.strictEqual(stolen.message.error?.code, -32602, stolen.text)
      assert.strictEqual((yield* send2026(url, a, "tools/call", retry)).message.result?.content?.[0]?.text, "hello Alice")

      // 2025: A's task in A's session; B, in a session of its own, lists nothing and reads nothing
      const inA = yield* session(url, a)
      const task2025 = yield* inA("tools/call", { name: "work", arguments: { ms: 1 }, task: { ttl: 60_000 } })
      const id2025 = task2025.message.result?.task?.taskId as string
      assert.isString(id2025, task2025.text)
      yield* Effect.sleep("50 millis")
      // a principal's tasks of both eras are its own (one owner key)
      assert.deepStrictEqual((yield* inA("tasks/list", {})).message.result?.tasks?.map((t) => t.taskId), [taskId, id2025])
      const inB = yield* session(url, b)
      const listed = yield* inB("tasks/list", {})
      assert.deepStrictEqual(listed.message.result?.tasks, [], listed.text)
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
        const other = yield* inB(method, { taskId: id2025 })
        assert.isDefined(other.message.error, `${method}: ${other.text}`)
        assert.notInclude(other.text, "worked", method)
      }
      assert.strictEqual((yield* inA("tasks/get", { taskId: id2025 })).message.result?.status, "completed")

      // and A's session, with B's token: not found
      const replayed = yield* inA("tools/call", { name: "whoami", arguments: {} }, b)
      assert.strictEqual(replayed.status, 404)
      const mine = yield* inA("tools/call", { name: "whoami", arguments: {} })
      assert.strictEqual(mine.message.result?.content?.[0]?.text, JSON.stringify(["alice", "x y"]))
    }), 30_000)
})

describe("a token that names no subject is refused, never an empty owner", () => {
  const challenge = (answer: Answer, description: string) => {
    assert.strictEqual(answer.status, 401, answer.text)
    assert.match(answer.headers.get("www-authenticate")!, /^Bearer error="invalid_token", resource_metadata="/)
    assert.deepStrictEqual(JSON.parse(answer.text), { error: "invalid_token", error_description: description })
  }

  it.live("JWT access tokens without sub (RFC 9068 §2.2 requires it), with client_id or azp or neither: 401 saying so", () =>
    Effect.gen(function*() {
      const as = yield* startIssuer(1)
      const { resource, url } = yield* jwtServer(as.issuer)
      const a = yield* as.sign({ aud: resource, azp: "app-a", client_id: "app-a" })
      const b = yield* as.sign({ aud: resource, azp: "app-b" })
      const empty = yield* as.sign({ aud: resource, sub: "" })
      for (const token of [a, b, empty]) {
        challenge(yield* send(url, token, "initialize", INIT.params), "the token has no subject (sub), which RFC 9068 requires")
      }
      // A's token opens no session B could use; a token with a subject works as before
      const ok = yield* session(url, yield* as.sign({ aud: resource, sub: "carol" }))
      assert.strictEqual((yield* ok("tools/call", { name: "whoami", arguments: {} })).message.result?.content?.[0]?.text, JSON.stringify(["carol", undefined]))
      const asB = yield* ok("tools/call", { name: "whoami", arguments: {} }, b)
      challenge(asB, "the token has no subject (sub), which RFC 9068 requires")
    }), 30_000)

  it.live("introspection (RFC 7662, sub optional): the client is the owner without sub; neither sub nor client_id: 401", () =>
    Effect.gen(function*() {
      const tokens: Record<string, object> = {
        "app-a": { client_id: "app-a" },
        "app-b": { client_id: "app-b" },
        anonymous: { azp: "app-c" },
        blank: { sub: "", client_id: "" }
      }
      let resource = ""
      const endpoint = yield* serveJson((_path, body) => {
        const claims = tokens[new URLSearchParams(body).get("token") ?? ""]
        return { status: 200, json: claims === undefined ? { active: false } : { active: true, aud: resource, ...claims } }
      })
      const server = yield* startServer((r) => {
        resource = r
        return McpAuth.layerIntrospectionVerifier({ endpoint: `${endpoint}/introspect` }).pipe(Layer.provide(FetchHttpClient.layer))
      })
      for (const token of ["anonymous", "blank"]) {
        challenge(yield* send(server.url, token, "initialize", INIT.params), "the token names no subject (sub) nor client (client_id)")
      }
      const inA = yield* session(server.url, "app-a")
      assert.strictEqual((yield* inA("tools/call", { name: "whoami", arguments: {} })).message.result?.content?.[0]?.text, JSON.stringify([undefined, "app-a"]))
      const asB = yield* inA("tools/call", { name: "whoami", arguments: {} }, "app-b")
      assert.strictEqual(asB.status, 404, asB.text)
      const asAnonymous = yield* inA("tools/call", { name: "whoami", arguments: {} }, "anonymous")
      assert.strictEqual(asAnonymous.status, 401, asAnonymous.text)
    }), 30_000)

  it.live("a verifier of one's own returning no subject nor client id: McpAuth refuses it (401)", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer((resource) =>
        Layer.succeed(McpAuth.TokenVerifier, {
          verify: () =>
            Effect.succeed({ subject: undefined, clientId: undefined, issuer: "https://as", scopes: [], audience: [resource], expiresAt: undefined, claims: {} })
        })
      )
      challenge(yield* send(url, "any", "initialize", INIT.params), "the token names no subject (sub) nor client (client_id)")
    }), 30_000)
})

describe("a token without kid, when the issuer publishes several keys of its alg (RFC 7515: kid is optional)", () => {
  it.live("signed by the 2nd or the 3rd of 3 keys: accepted; by a key not published: 401, not signed by a key of the issuer", () =>
    Effect.gen(function*() {
      const as = yield* startIssuer(3)
      const { resource, url } = yield* jwtServer(as.issuer)
      for (const index of [1, 2, 0]) {
        const token = yield* as.sign({ aud: resource, sub: `user${index}` }, { index, kid: false })
        const inS = yield* session(url, token)
        const who = yield* inS("tools/call", { name: "whoami", arguments: {} })
        assert.strictEqual(who.message.result?.content?.[0]?.text, JSON.stringify([`user${index}`, undefined]), who.text)
      }
      const foreign = yield* as.signForeign({ aud: resource, sub: "mallory" })
      const refused = yield* send(url, foreign, "initialize", INIT.params)
      assert.strictEqual(refused.status, 401)
      assert.deepStrictEqual(JSON.parse(refused.text), { error: "invalid_token", error_description: "the token was not signed by a key of the issuer" })
      // a key that verifies the signature decides: an expired token is expired, not "no key"
      const expired = yield* as.sign({ aud: resource, sub: "late", exp: Math.floor(Date.now() / 1000) - 600 }, { index: 2, kid: false })
      assert.strictEqual(JSON.parse((yield* send(url, expired, "initialize", INIT.params)).text).error_description, "the token has expired")
    }), 30_000)

  it.live("more candidate keys than the bound (5): refused with the reason, even when signed by one of them", () =>
    Effect.gen(function*() {
      const as = yield* startIssuer(6)
      const { resource, url } = yield* jwtServer(as.issuer)
      const token = yield* as.sign({ aud: resource, sub: "alice" }, { index: 0, kid: false })
      const refused = yield* send(url, token, "initialize", INIT.params)
      assert.strictEqual(refused.status, 401)
      assert.deepStrictEqual(JSON.parse(refused.text), {
        error: "invalid_token",
        error_description: "the token names no key (kid) and the issuer has more than 5 keys it could be signed with"
      })
      // with its kid the same key is found at once
      const named = yield* as.sign({ aud: resource, sub: "alice" }, { index: 5 })
      assert.strictEqual((yield* send(url, named, "initialize", INIT.params)).status, 200)
    }), 30_000)
})
