/**
 * Our client signs in, end to end: a real authorization server
 * (`oidc-provider`, dynamic registration, PKCE, resource indicators, JWT
 * access tokens, auto-consent), our server behind `McpAuth`, our
 * streamable HTTP client with `McpOAuth` and the headless redirect.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { Transport } from "@effect-mcp/mcp/Transport"
import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { type AuthServerOptions, startAuthServerWith } from "./authServer.js"
import { emcp, emcpWith } from "./cliRun.js"

const WhoAmI = McpServer.tool({
  name: "whoami",
  handler: () => Effect.map(McpAuth.Principal, (p) => `${p.subject} ${p.scopes.join(" ")}`)
})
const Admin = McpServer.tool({ name: "admin", scopes: ["mcp:admin"], handler: () => Effect.succeed("done") })

const freePort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const port = (probe.address() as net.AddressInfo).port
    probe.close(() => resume(Effect.succeed(port)))
  })
})

/** What went to the authorization server, by path and grant type. */
const recorder = () => {
  const seen: Array<string> = []
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    const body = init?.body instanceof URLSearchParams ? init.body : undefined
    seen.push(`${init?.method ?? "GET"} ${url.pathname}${body?.get("grant_type") ? ` ${body.get("grant_type")}` : ""}`)
    return globalThis.fetch(input, init)
  }
  return { seen, fetch }
}

const setup = (asOptions: AuthServerOptions = {}, resourcePath = "/mcp") =>
  Effect.gen(function*() {
    const as = yield* startAuthServerWith(asOptions)
    const port = yield* freePort
    const url = `http://127.0.0.1:${port}/mcp`
    const auth = McpAuth.layer({
      resource: `http://127.0.0.1:${port}${resourcePath}`,
      authorizationServers: [as.issuer],
      scopesSupported: ["mcp:tools"],
      methodScopes: { "tools/call": ["mcp:tools"] }
    }).pipe(Layer.provide(McpAuth.layerJwtVerifier({ issuer: as.issuer })), Layer.provide(FetchHttpClient.layer))
    yield* Layer.build(
      NodeStreamableHttp.layer({ port, legacySse: true }).pipe(
        Layer.provide(auth),
        Layer.provideMerge(McpServer.register(WhoAmI, Admin)),
        Layer.provideMerge(McpServer.layer({ name: "protected", version: "1.0.0" }))
      )
    ).pipe(Effect.orDie)
    return { as, url }
  })

/** A client of `url` signing in with `options`; `redirects` counts the interactive steps. */
const connect = (
  url: string,
  options: McpOAuth.Options,
  redirect = McpOAuth.makeHeadless(),
  store = McpOAuth.makeMemoryStore(),
  over: "HttpClient" | "fetch" = "HttpClient"
) =>
  Effect.gen(function*() {
    const redirects = { count: 0 }
    const counted: McpOAuth.AuthorizationRedirectShape = {
      redirectUri: redirect.redirectUri,
      authorize: (u) => Effect.andThen(Effect.sync(() => redirects.count++), redirect.authorize(u))
    }
    const auth = yield* McpOAuth.make(options).pipe(
      Effect.provideService(McpOAuth.AuthorizationRedirect, counted),
      Effect.provideService(McpOAuth.TokenStore, store)
    )
    const client = yield* (over === "fetch"
      // the fetch transport: no HttpClient provided (it loads effect/http's own for `auth`)
      ? McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideServiceEffect(Transport, FetchStreamableHttpClient.make({ url, auth, listen: false }))
      )
      : McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideServiceEffect(Transport, StreamableHttpClient.make({ url, auth, listen: false })),
        Effect.provide(FetchHttpClient.layer)
      ))
    return { client, redirects }
  })

const text = (result: { readonly content: ReadonlyArray<unknown> }) => (result.content[0] as { text: string }).text

/**
 * The official v1 client's OAuth provider, in memory; its browser is our headless redirect
 * (which follows oidc-provider's interaction redirects with their cookies).
 */
const officialProvider = () => {
  const headless = McpOAuth.makeHeadless()
  const state: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; code?: string | undefined } = {}
  const provider: OAuthClientProvider = {
    redirectUrl: headless.redirectUri,
    clientMetadata: {
      client_name: "official-v1",
      redirect_uris: [headless.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    },
    clientInformation: () => state.client,
    saveClientInformation: (info) => void (state.client = info),
    tokens: () => state.tokens,
    saveTokens: (tokens) => void (state.tokens = tokens),
    redirectToAuthorization: async (url) => {
      const back = await Effect.runPromise(headless.authorize(url))
      state.code = back.searchParams.get("code") ?? undefined
    },
    saveCodeVerifier: (verifier) => void (state.verifier = verifier),
    codeVerifier: () => state.verifier!
  }
  return { provider, state }
}

describe("McpOAuth, end to end against oidc-provider", () => {
  it.live("the official v1 client's OAuth provider signs in to our protected server: 401, discovery, registration, PKCE, resource, token, the call", () =>
    Effect.gen(function*() {
      const { url } = yield* setup()
      const { provider, state } = officialProvider()
      const result = yield* Effect.promise(async () => {
        const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider })
        const refused = await new Client({ name: "official", version: "1" }).connect(first).then(() => undefined, (e: unknown) => e)
        assert.instanceOf(refused, UnauthorizedError)
        await first.finishAuth(state.code!)
        const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider })
        const client = new Client({ name: "official", version: "1" })
        await client.connect(transport)
        try {
          return await client.callTool({ name: "whoami", arguments: {} })
        } finally {
          await client.close()
        }
      })
      assert.strictEqual((result.content as Array<{ text: string }>)[0]!.text, "user mcp:tools")
      assert.isString(state.tokens?.access_token)
    }))


  it.live("first call 401 → discovery → registration → authorization → token → the call succeeds", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const { fetch, seen } = recorder()
      const { client, redirects } = yield* connect(url, { fetch })
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(redirects.count, 1)
      assert.strictEqual(new URL(as.issuer).pathname, "/")
      // oidc-provider serves OpenID discovery only: RFC 8414's location first, then OpenID's
      assert.deepStrictEqual(seen, [
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-authorization-server",
        "GET /.well-known/openid-configuration",
        "POST /reg",
        "POST /token authorization_code"
      ])
    }))

  it.live("over FetchStreamableHttpClient too: 401 → sign-in → the call succeeds", () =>
    Effect.gen(function*() {
      const { url } = yield* setup()
      const { fetch } = recorder()
      const { client, redirects } = yield* connect(url, { fetch }, McpOAuth.makeHeadless(), McpOAuth.makeMemoryStore(), "fetch")
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(redirects.count, 1)
    }))

  it.live("on 2026-07-28 too: our client speaking the stateless era signs in, every request carries the token, step-up included", () =>
    Effect.gen(function*() {
      const { url } = yield* setup()
      const auth = yield* McpOAuth.make({}).pipe(
        Effect.provideService(McpOAuth.AuthorizationRedirect, McpOAuth.makeHeadless()),
        Effect.provideService(McpOAuth.TokenStore, McpOAuth.makeMemoryStore())
      )
      const client = yield* McpClient.make({ era: "2026-07-28", name: "c", version: "1" }).pipe(
        Effect.provideServiceEffect(Transport, StreamableHttpClient.make({ url, auth, listen: false })),
        Effect.provide(FetchHttpClient.layer)
      )
      assert.strictEqual(client.era, "2026")
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(text(yield* client.callTool("admin", {})), "done")
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools mcp:admin")
    }))

  it.effect("an expired access token is refreshed, without signing in again", () =>
    Effect.gen(function*() {
      const { url } = yield* setup()
      const { fetch, seen } = recorder()
      const { client, redirects } = yield* connect(url, { fetch })
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      yield* TestClock.adjust("301 seconds")
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(redirects.count, 1)
      assert.deepStrictEqual(seen.filter((s) => s.startsWith("POST /token")), [
        "POST /token authorization_code",
        "POST /token refresh_token"
      ])
    }))

  it.live("a refused stored token: the stored refresh token gets a new one, without signing in again", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const store = McpOAuth.makeMemoryStore()
      const first = yield* connect(url, {}, undefined, store)
      assert.strictEqual(text(yield* first.client.callTool("whoami", {})), "user mcp:tools")
      const stored = (yield* store.tokens(as.issuer, url))!
      assert.isString(stored.refresh_token)
      yield* store.saveTokens(as.issuer, url, { ...stored, access_token: "revoked" })
      const { fetch, seen } = recorder()
      const second = yield* connect(url, { fetch }, undefined, store)
      assert.strictEqual(text(yield* second.client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(second.redirects.count, 0)
      assert.deepStrictEqual(seen.filter((s) => s.startsWith("POST")), ["POST /token refresh_token"])
      assert.notStrictEqual((yield* store.tokens(as.issuer, url))!.access_token, "revoked")
    }))

  it.live("403 insufficient_scope: steps up with the scope asked for added, then the call succeeds", () =>
    Effect.gen(function*() {
      const { url } = yield* setup()
      const { client, redirects } = yield* connect(url, {})
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(text(yield* client.callTool("admin", {})), "done")
      assert.strictEqual(redirects.count, 2)
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools mcp:admin")
    }))

  it.live("step-up limit: a scope never granted fails the call after 3 step-ups, naming the scope", () =>
    Effect.gen(function*() {
      const { url } = yield* setup({ grantable: ["mcp:tools"] })
      const { client, redirects } = yield* connect(url, {})
      const errors: Array<string> = []
      for (let i = 0; i < 3; i++) errors.push(String(yield* Effect.flip(client.callTool("admin", {}))))
      // 1 sign-in, then 3 step-ups at most; the refused exchanges say why
      assert.strictEqual(redirects.count, 4)
      assert.match(errors[0]!, /HTTP 403/)
      assert.match(errors[1]!, /still refuses the token for lack of scope \(mcp:tools mcp:admin\) after 3 step-ups/)
      assert.match(errors[2]!, /after 3 step-ups/)
      // the token it has still serves what it may
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
    }))

  /** A fetch that answers `path` on the authorization server or the resource with `rewrite` of the real body. */
  const rewriting = (path: string, rewrite: (body: string) => string) => {
    const { fetch: inner, seen } = recorder()
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await inner(input, init)
      if (new URL(input instanceof Request ? input.url : input).pathname !== path) return response
      return new Response(rewrite(await response.text()), { status: response.status, headers: response.headers })
    }
    return { fetch, seen }
  }

  const refused = (url: string, options: McpOAuth.Options, redirect?: McpOAuth.AuthorizationRedirectShape) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Effect.flatMap(connect(url, options, redirect), ({ client }) => client.callTool("whoami", {})))
      return String(error)
    })

  it.live("bad metadata, bad redirects, garbage: a clear error naming what was wrong, no token requested", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const wrongIssuer = rewriting("/.well-known/openid-configuration", (b) => b.replaceAll(`"${as.issuer}"`, `"http://evil.example"`))
      assert.match(yield* refused(url, { fetch: wrongIssuer.fetch }), /names the issuer "http:\/\/evil\.example", not "http:\/\/127\.0\.0\.1:\d+": refused/)
      const wrongResource = rewriting("/.well-known/oauth-protected-resource/mcp", (b) => b.replace(url, "http://127.0.0.1:1/other"))
      assert.match(yield* refused(url, { fetch: wrongResource.fetch }), /is for "http:\/\/127\.0\.0\.1:1\/other", not for .*: refused/)
      const garbage = rewriting("/.well-known/openid-configuration", () => "<html>oops")
      assert.match(yield* refused(url, { fetch: garbage.fetch }), /openid-configuration: answered something that is not JSON/)
      const headless = McpOAuth.makeHeadless()
      const tamper = (param: string, value: string): McpOAuth.AuthorizationRedirectShape => ({
        redirectUri: headless.redirectUri,
        authorize: (u) =>
          Effect.map(headless.authorize(u), (back) => {
            back.searchParams.set(param, value)
            return back
          })
      })
      const wrongState = recorder()
      assert.match(yield* refused(url, { fetch: wrongState.fetch }, tamper("state", "forged")), /authorization response .* was refused: .*"state"/)
      const wrongIss = recorder()
      assert.match(yield* refused(url, { fetch: wrongIss.fetch }, tamper("iss", "http://evil.example")), /authorization response .* was refused: .*"iss"/)
      for (const { seen } of [wrongIssuer, wrongResource, garbage, wrongState, wrongIss]) {
        assert.isFalse(seen.some((s) => s.startsWith("POST /token")), seen.join(", "))
      }
    }))

  it.live("emcp --token: the bearer token on every request, never printed", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const token = yield* as.token("alice", url)
      const ok = yield* emcp("--url", url, "--token", token, "tools", "call", "whoami")
      assert.strictEqual(ok.code, 0, ok.stderr)
      assert.strictEqual(ok.stdout, "alice mcp:tools\n")
      const other = yield* as.token("bob", "http://127.0.0.1:1/other")
      const refused = yield* emcp("--url", url, "--token", other, "tools", "call", "whoami")
      assert.strictEqual(refused.code, 1)
      assert.match(refused.stderr, /401/)
      assert.notInclude(refused.stderr + refused.stdout, other)
      const conflict = yield* emcp("--url", url, "--token", token, "--header", "Authorization: Bearer x", "tools", "list")
      assert.match(conflict.stderr, /--token and --header 'Authorization: …' conflict/)
      assert.notInclude(conflict.stderr, token)
    }))

  it.live("loopback redirect and file store: the browser's redirect comes back to 127.0.0.1; the next client signs in from the file", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emcp-oauth-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
      const file = path.join(dir, "sub", "tokens.json")
      // the "browser": follows the authorization server's redirects, then requests the redirect URI
      const opened: Array<string> = []
      const callback = { uri: "" }
      const loopback: McpOAuth.AuthorizationRedirectShape = yield* NodeOAuth.makeLoopback({
        open: (u) =>
          Effect.gen(function*() {
            opened.push(u.origin)
            const back = yield* Effect.orDie(
              McpOAuth.makeHeadless({ redirectUri: callback.uri }).authorize(u)
            )
            const response = yield* Effect.promise(() => fetch(back))
            assert.strictEqual(response.status, 200)
            assert.match(yield* Effect.promise(() => response.text()), /Signed in/)
          }).pipe(Effect.forkDetach, Effect.asVoid)
      })
      callback.uri = loopback.redirectUri
      assert.match(loopback.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/)
      const first = yield* connect(url, {}, loopback, NodeOAuth.makeFileStore(file))
      assert.strictEqual(text(yield* first.client.callTool("whoami", {})), "user mcp:tools")
      assert.deepStrictEqual(opened, [as.issuer])
      assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600)
      const stored = JSON.parse(fs.readFileSync(file, "utf8")) as { clients: object; tokens: object }
      assert.deepStrictEqual(Object.keys(stored.clients), [as.issuer])
      assert.deepStrictEqual(Object.keys(stored.tokens), [`${as.issuer} ${url}`])
      // a new client with the same file: no sign-in
      const second = yield* connect(url, {}, loopback, NodeOAuth.makeFileStore(file))
      assert.strictEqual(text(yield* second.client.callTool("whoami", {})), "user mcp:tools")
      assert.strictEqual(second.redirects.count, 0)
      // a callback nobody waits for is refused
      const stray = yield* Effect.promise(() => fetch(`${loopback.redirectUri}?code=x&state=y`))
      assert.strictEqual(stray.status, 404)
    }))

  it.live("the streamable client falling back to HTTP+SSE keeps its authorization: the legacy stream and posts carry the token", () =>
    Effect.gen(function*() {
      const { url } = yield* setup({}, "/")
      const sse = new URL("/sse", url).href
      const mcp: Array<string> = []
      const recording: typeof globalThis.fetch = (input, init) => {
        const request = new Request(input, init)
        const auth = request.headers.get("authorization")
        mcp.push(`${request.method} ${new URL(request.url).pathname}${auth === null ? "" : " (token)"}`)
        return globalThis.fetch(request)
      }
      const auth = yield* McpOAuth.make({}).pipe(
        Effect.provideService(McpOAuth.AuthorizationRedirect, McpOAuth.makeHeadless()),
        Effect.provideService(McpOAuth.TokenStore, McpOAuth.makeMemoryStore())
      )
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideServiceEffect(Transport, StreamableHttpClient.make({ url: sse, auth, listen: false })),
        Effect.provide(FetchHttpClient.layer),
        Effect.provideService(FetchHttpClient.Fetch, recording)
      )
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
      // the initialize POST is refused (405: the path serves GET only), the legacy GET gets the 401 and signs in
      // through the same authorized client; every later exchange carries the token
      assert.deepStrictEqual(mcp.slice(0, 3), ["POST /sse", "GET /sse", "GET /sse (token)"])
      assert.isTrue(mcp.slice(3).every((m) => m.endsWith("(token)")), mcp.join(", "))
      assert.isTrue(mcp.some((m) => m.startsWith("POST /messages")), mcp.join(", "))
    }))

  it.live("the legacy HTTP+SSE transport signs in too (a resource covering its /sse endpoint)", () =>
    Effect.gen(function*() {
      const { url } = yield* setup({}, "/")
      const sse = new URL("/sse", url).href
      const auth = yield* McpOAuth.make({}).pipe(
        Effect.provideService(McpOAuth.AuthorizationRedirect, McpOAuth.makeHeadless()),
        Effect.provideService(McpOAuth.TokenStore, McpOAuth.makeMemoryStore())
      )
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideServiceEffect(Transport, LegacySseClient.make({ url: sse, auth })),
        Effect.provide(FetchHttpClient.layer)
      )
      assert.strictEqual(text(yield* client.callTool("whoami", {})), "user mcp:tools")
    }))

  /**
   * `emcp` with its token store in a temporary directory (`EMCP_CONFIG_DIR`)
   * and a "browser": when emcp prints the authorization URL on stderr, it
   * follows the authorization server's redirects and requests the redirect
   * URI, which is emcp's loopback listener.
   */
  const signingIn = Effect.gen(function*() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emcp-login-"))
    const before = process.env.EMCP_CONFIG_DIR
    process.env.EMCP_CONFIG_DIR = dir
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        if (before === undefined) delete process.env.EMCP_CONFIG_DIR
        else process.env.EMCP_CONFIG_DIR = before
        fs.rmSync(dir, { recursive: true, force: true })
      })
    )
    const browsed: Array<string> = []
    const browser = (text: string) => {
      const printed = /open this URL in a browser:\n {2}(\S+)/.exec(text)
      if (printed === null) return
      const url = new URL(printed[1]!)
      browsed.push(url.origin)
      Effect.runFork(
        Effect.gen(function*() {
          const back = yield* McpOAuth.makeHeadless({ redirectUri: url.searchParams.get("redirect_uri")! }).authorize(url)
          yield* Effect.promise(() => fetch(back).then((r) => r.text()))
        })
      )
    }
    const file = path.join(dir, "tokens.json")
    const stored = () =>
      fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { tokens: Record<string, { access_token: string }> }).tokens : {}
    return { run: (...args: ReadonlyArray<string>) => emcpWith(browser, ...args), browsed, file, stored }
  })

  it.live("emcp signs in on a 401 through its loopback listener, caches the token in the file store, and reuses it", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const { browsed, file, run, stored } = yield* signingIn
      const first = yield* run("--url", url, "tools", "call", "whoami")
      assert.strictEqual(first.code, 0, first.stderr)
      assert.strictEqual(first.stdout, "user mcp:tools\n")
      assert.deepStrictEqual(browsed, [as.issuer])
      assert.match(first.stderr, /^emcp: sign in: open this URL in a browser:\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\?/)
      assert.match(first.stderr, /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/)
      assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600)
      const tokens = stored()
      assert.deepStrictEqual(Object.keys(tokens), [`${as.issuer} ${url}`])
      const token = tokens[`${as.issuer} ${url}`]!.access_token
      // the second command: the stored token, no sign-in, nothing printed on stderr
      const second = yield* run("--url", url, "tools", "call", "whoami", "--json")
      assert.strictEqual(second.code, 0, second.stderr)
      assert.strictEqual(second.stderr, "")
      assert.deepStrictEqual(browsed, [as.issuer])
      for (const r of [first, second]) assert.notInclude(r.stdout + r.stderr, token)
      // logout forgets it; then --no-login refuses with one line, exit 1, no URL printed
      const out = yield* run("--url", url, "logout")
      assert.strictEqual(out.code, 0, out.stderr)
      assert.strictEqual(out.stdout, `signed out of ${url}\n`)
      assert.deepStrictEqual(stored(), {})
      assert.strictEqual((yield* run("--url", url, "logout")).stdout, `not signed in to ${url}: nothing to forget\n`)
      const refused = yield* run("--url", url, "--no-login", "tools", "call", "whoami")
      assert.strictEqual(refused.code, 1, refused.stderr)
      assert.deepStrictEqual(refused.stderr.split("\n").filter((l) => l !== "").length, 1, refused.stderr)
      assert.match(refused.stderr, /^emcp: .*requires signing in at .*signing in is turned off/)
      assert.strictEqual(refused.stdout, "")
      assert.deepStrictEqual(browsed, [as.issuer])
    }))

  it.live("emcp login signs in again and stores the token; --no-login then uses it; flags are checked", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup()
      const { browsed, run, stored } = yield* signingIn
      const login = yield* run("--url", url, "--scope", "mcp:tools", "login")
      assert.strictEqual(login.code, 0, login.stderr)
      assert.strictEqual(login.stdout, `signed in to ${url} at ${as.issuer}\n`)
      const token = stored()[`${as.issuer} ${url}`]!.access_token
      // login again: the stored token is forgotten first, so it signs in again
      assert.strictEqual((yield* run("--url", url, "login")).code, 0)
      assert.strictEqual(browsed.length, 2)
      assert.notStrictEqual(stored()[`${as.issuer} ${url}`]!.access_token, token)
      const ok = yield* run("--url", url, "--no-login", "tools", "call", "whoami")
      assert.strictEqual(ok.code, 0, ok.stderr)
      assert.strictEqual(ok.stdout, "user mcp:tools\n")
      assert.notInclude(login.stdout + login.stderr, token)
      const usage = (r: { code: number | null; stderr: string }, pattern: RegExp) => {
        assert.strictEqual(r.code, 2, r.stderr)
        assert.match(r.stderr, pattern)
      }
      usage(yield* run("--stdio", "node x.js", "login"), /emcp login needs --url/)
      usage(yield* run("--stdio", "node x.js", "--no-login", "ping"), /--no-login apply to --url only/)
      usage(yield* run("--url", url, "--no-login", "login"), /emcp login and --no-login conflict/)
      usage(yield* run("--url", url, "--token", "t", "logout"), /emcp logout does not go with --token/)
      usage(yield* run("--url", url, "--token", "t", "--scope", "a", "ping"), /conflict with --token/)
      usage(yield* run("--url", url, "--client-secret", "s", "ping"), /--client-secret needs --client-id/)
      assert.strictEqual(browsed.length, 2)
    }))
})
