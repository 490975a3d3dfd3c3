/**
 * A scripted authorization server for the MCP rules of our OAuth client:
 * on node:http at 127.0.0.1:0, its metadata, registration, authorization
 * and token endpoints answer what the test says (by default a permissive
 * server that grants what is asked), and every request is recorded. Unlike
 * `oidc-provider` it can be made to answer anything: metadata another
 * issuer's, a registration without `client_secret_expires_at`, a token error,
 * a DPoP nonce, garbage. Its tokens are checked by `verifier`, for our server
 * behind `McpAuth`.
 */
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface Recorded {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: http.IncomingHttpHeaders
  /** The form body (token requests) or the JSON body (registration) as text. */
  readonly body: string
  readonly form: URLSearchParams
}

export interface Answer {
  readonly status: number
  readonly headers?: Record<string, string>
  readonly body: unknown
}

export interface Script {
  /** Changes to the metadata document (served at every RFC 8414/OpenID location). */
  readonly metadata?: (issuer: string, base: Record<string, unknown>) => Record<string, unknown> | undefined
  /** The answer to a registration (default 201 with `client_id` and the metadata sent back). */
  readonly register?: (request: Recorded, json: Record<string, unknown>) => Answer | undefined
  /** The redirect of an authorization (default: `code`, `state` and `iss`). */
  readonly authorize?: (request: Recorded, redirect: URL) => URL | Answer | undefined
  /** The answer to a token request (default: a new Bearer token with the scope asked for). */
  readonly token?: (request: Recorded) => Answer | undefined
  /** The path under the origin that is the issuer ("" by default). */
  readonly issuerPath?: string
  /** Requests never answered (an authorization server that hangs). */
  readonly hang?: (request: Recorded) => boolean
}

export interface ScriptedServer {
  readonly issuer: string
  readonly origin: string
  readonly requests: Array<Recorded>
  /** The paths (with method) of the requests so far: `POST /token`. */
  readonly seen: () => ReadonlyArray<string>
  /** Tokens it minted, with their scopes and resource. */
  readonly tokens: Map<string, { readonly scope: string; readonly resource: string | undefined }>
  /** A `TokenVerifier` that accepts the tokens this server minted for `resource`. */
  readonly verifier: Layer.Layer<McpAuth.TokenVerifier>
  /** Mints a token (as the token endpoint would). */
  readonly mint: (scope: string, resource: string | undefined) => string
}

const json = (res: http.ServerResponse, answer: Answer) => {
  res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
  res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body))
}

export const startScripted = (script: Script = {}): Effect.Effect<ScriptedServer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const server = http.createServer()
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const issuer = `${origin}${script.issuerPath ?? ""}`
    const requests: Array<Recorded> = []
    const tokens = new Map<string, { scope: string; resource: string | undefined }>()
    let counter = 0
    const mint = (scope: string, resource: string | undefined) => {
      const token = `tok-${++counter}`
      tokens.set(token, { scope, resource })
      return token
    }
    const base: Record<string, unknown> = {
      issuer,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true
    }
    const wellKnown = script.issuerPath === undefined || script.issuerPath === ""
      ? ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]
      : [
        `/.well-known/oauth-authorization-server${script.issuerPath}`,
        `/.well-known/openid-configuration${script.issuerPath}`,
        `${script.issuerPath}/.well-known/openid-configuration`
      ]
    server.on("request", (req, res) => {
      let body = ""
      req.setEncoding("utf8")
      req.on("data", (chunk: string) => (body += chunk))
      req.on("end", () => {
        const url = new URL(req.url ?? "/", origin)
        const request: Recorded = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          form: new URLSearchParams(req.headers["content-type"]?.startsWith("application/x-www-form-urlencoded") ? body : "")
        }
        requests.push(request)
        if (script.hang?.(request) === true) return
        if (req.method === "GET" && wellKnown.includes(url.pathname)) {
          const metadata = script.metadata === undefined ? base : script.metadata(issuer, { ...base })
          return metadata === undefined ? json(res, { status: 404, body: {} }) : json(res, { status: 200, body: metadata })
        }
        if (req.method === "POST" && url.pathname === "/register") {
          const sent = JSON.parse(body) as Record<string, unknown>
          const answer = script.register?.(request, sent) ??
            { status: 201, body: { ...sent, client_id: `client-${requests.length}` } }
          return json(res, answer)
        }
        if (req.method === "GET" && url.pathname === "/authorize") {
          const redirect = new URL(url.searchParams.get("redirect_uri")!)
          redirect.searchParams.set("code", `code-${url.searchParams.get("scope") ?? ""}`)
          const state = url.searchParams.get("state")
          if (state !== null) redirect.searchParams.set("state", state)
          redirect.searchParams.set("iss", issuer)
          const answer = script.authorize?.(request, redirect) ?? redirect
          if (answer instanceof URL) {
            res.writeHead(302, { location: answer.href })
            return res.end()
          }
          return json(res, answer)
        }
        if (req.method === "POST" && url.pathname === "/token") {
          const scripted = script.token?.(request)
          if (scripted !== undefined) return json(res, scripted)
          const form = request.form
          const scope = form.get("scope") ??
            (form.get("grant_type") === "authorization_code" ? form.get("code")!.slice("code-".length) : "")
          const access = mint(scope, form.get("resource") ?? undefined)
          return json(res, {
            status: 200,
            body: {
              access_token: access,
              // a token request with a DPoP proof gets a DPoP-bound token (RFC 9449 §5)
              token_type: request.headers.dpop === undefined ? "Bearer" : "DPoP",
              expires_in: 3600,
              refresh_token: `refresh-${access}`,
              ...(scope === "" ? {} : { scope })
            }
          })
        }
        json(res, { status: 404, body: { error: "not_found" } })
      })
    })
    const verifier = Layer.succeed(McpAuth.TokenVerifier, {
      verify: (token, resource) => {
        const minted = tokens.get(token)
        if (minted === undefined || (minted.resource !== undefined && minted.resource !== resource)) {
          return Effect.fail(new McpAuth.AuthError({ reason: "Invalid", message: "unknown token" }))
        }
        return Effect.succeed({
          subject: "user",
          clientId: undefined,
          issuer,
          scopes: minted.scope === "" ? [] : minted.scope.split(" "),
          audience: [resource],
          expiresAt: undefined,
          claims: {}
        })
      }
    })
    return {
      issuer,
      origin,
      requests,
      seen: () => requests.map((r) => `${r.method} ${r.path}`),
      tokens,
      verifier,
      mint
    }
  })

/** What the stub resource server answers to a request before MCP sees it (undefined: let it through). */
export type Gate = (request: Recorded) => Answer | undefined

export interface StubResource {
  readonly url: string
  readonly requests: Array<Recorded>
}

/**
 * A stub MCP server (stateless streamable HTTP, JSON answers: initialize,
 * tools/list, tools/call `echo`) whose authorization is the test's `gate`:
 * for what `McpAuth` does not do (DPoP, a resource that moves to another
 * authorization server).
 */
export const startStubResource = (gate: Gate): Effect.Effect<StubResource, never, Scope.Scope> =>
  Effect.gen(function*() {
    const server = http.createServer()
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const requests: Array<Recorded> = []
    server.on("request", (req, res) => {
      let body = ""
      req.setEncoding("utf8")
      req.on("data", (chunk: string) => (body += chunk))
      req.on("end", () => {
        const url = new URL(req.url ?? "/", origin)
        const request: Recorded = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body,
          form: new URLSearchParams()
        }
        requests.push(request)
        const refused = gate(request)
        if (refused !== undefined) return json(res, refused)
        if (req.method !== "POST") {
          res.writeHead(req.method === "DELETE" ? 200 : 405)
          return res.end()
        }
        const message = JSON.parse(body) as { id?: number | string; method: string; params?: { protocolVersion?: string } }
        if (message.id === undefined) {
          res.writeHead(202)
          return res.end()
        }
        const result = message.method === "initialize"
          ? {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "stub", version: "1.0.0" }
          }
          : message.method === "tools/list"
          ? { tools: [{ name: "echo", inputSchema: { type: "object" } }] }
          : message.method === "tools/call"
          ? { content: [{ type: "text", text: "ok" }] }
          : undefined
        json(res, {
          status: 200,
          body: result === undefined
            ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } }
            : { jsonrpc: "2.0", id: message.id, result }
        })
      })
    })
    return { url: `${origin}/mcp`, requests }
  })
