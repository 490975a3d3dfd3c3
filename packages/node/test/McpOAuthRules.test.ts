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
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as net from "node:net"
import { type Script, type ScriptedServer, startScripted } from "./scriptedAuthServer.js"

const Echo = McpServer.tool({ name: "echo", handler: () => Effect.succeed("ok") })

const freePort = Effect.async<number>((resume) => {
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
  it.scopedLive("a registration answered with a secret but no client_secret_expires_at is used (RFC 7591 servers in the field omit it)", () =>
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

  it.scopedLive("a registration answer without client_id, or not JSON: a clear error, no authorization", () =>
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

  it.scopedLive("client_secret_basic: the credentials percent-encoded as encodeURIComponent does (unreserved characters as they are)", () =>
    Effect.gen(function*() {
      const { as, url } = yield* setup({
        metadata: (_, base) => ({ ...base, token_endpoint_auth_methods_supported: ["client_secret_basic"] })
      })
      yield* call(url, { clientId: "pre-registered.client_1", clientSecret: "se-cret~!:x y" })
      const header = tokenRequests(as)[0]!.headers.authorization!
      assert.strictEqual(Buffer.from(header.slice("Basic ".length), "base64").toString(), "pre-registered.client_1:se-cret~!%3Ax%20y")
    }))
})
