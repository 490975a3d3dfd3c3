/**
 * `StreamableHttpServer.toFetchHandler` on Node, driven with undici `Request`s (no listener): our
 * client and the official v2 client over both eras (initialize, a tool call with progress,
 * sampling and elicitation, DELETE); the defaults of a deployed handler (a public `Host` served,
 * the `Origin` check on); CORS on the wire (preflights, the headers of every answer, refusals
 * without CORS headers); 2025 without sessions (`sessions: false`, Cloudflare's default), whose
 * reverse calls fail saying why; `close`; our client told when it cannot read the session id.
 * The same server module (`src/server.ts`) runs under Bun, Deno and workerd in `test/runtimes`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import { ALLOWED_ORIGIN, handler, ServerLive } from "../src/server.js"
import { type Fetch, INIT, inProcess, initialize, official, officialV1, ours, POST_HEADERS, readUntil, standingGetHeld } from "./drive.js"

/** A handler for the test, closed with its scope. */
const made = (options?: Parameters<typeof handler>[0]) =>
  Effect.acquireRelease(Effect.sync(() => handler(options)), (h) => Effect.promise(() => h.close()))

const post = (fetch: Fetch, url: string, body: unknown, headers: Record<string, string> = {}) =>
  Effect.promise(() => fetch(url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(body) }))

const corsHeaders = (response: Response) =>
  Array.from(response.headers.keys()).filter((name) => name.startsWith("access-control-"))

describe("toFetchHandler: our client and the official client, both eras", () => {
  for (const era of ["2025", "2026-07-28"] as const) {
    it.live(`ours, ${era}: initialize, progress, sampling and elicitation, DELETE`, () =>
      Effect.gen(function*() {
        const h = yield* made()
        yield* ours(inProcess(h), era, { reverseCalls: true, sessions: true })
      }))

    it.live(`official v2, ${era}: initialize, progress, sampling and elicitation, DELETE`, () =>
      Effect.gen(function*() {
        const h = yield* made()
        yield* Effect.promise(() => official(inProcess(h), era, { reverseCalls: true, sessions: true }))
      }))
  }

  it.live("official v1 SDK, 2025: initialize, progress, sampling and elicitation, DELETE", () =>
    Effect.gen(function*() {
      const h = yield* made()
      yield* Effect.promise(() => officialV1(inProcess(h), { reverseCalls: true, sessions: true }))
    }))

  it.live("the standing GET carries keep-alive comments and the session's messages", () =>
    Effect.gen(function*() {
      const h = yield* made({ keepAlive: "50 millis" })
      yield* Effect.promise(() => standingGetHeld(inProcess(h), 200))
    }))

  it.live("sessions: false: 2025 calls answered per POST, reverse calls refused saying why, GET 405; 2026 whole", () =>
    Effect.gen(function*() {
      const h = yield* made({ sessions: false })
      const target = inProcess(h)
      yield* ours(target, "2025", { reverseCalls: false, sessions: false })
      yield* Effect.promise(() => official(target, "2025", { reverseCalls: false, sessions: false }))
      yield* Effect.promise(() => officialV1(target, { reverseCalls: false, sessions: false }))
      yield* ours(target, "2026-07-28", { reverseCalls: true, sessions: false })
      const initialized = yield* post(target.fetch, target.url, INIT)
      assert.strictEqual(initialized.status, 200)
      assert.isNull(initialized.headers.get("mcp-session-id"))
      const get = yield* Effect.promise(() => target.fetch(target.url, { headers: { accept: "text/event-stream" } }))
      assert.strictEqual(get.status, 405)
      assert.strictEqual(get.headers.get("allow"), "POST")
    }))

  it.live("close ends the sessions: an open standing GET ends", () =>
    Effect.gen(function*() {
      const h = handler()
      const target = inProcess(h)
      const sid = yield* Effect.promise(() => initialize(target))
      const get = yield* Effect.promise(() =>
        target.fetch(target.url, { headers: { accept: "text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" } })
      )
      assert.strictEqual(get.status, 200)
      const started = Date.now()
      const reading = readUntil(get, "never comes", 5_000)
      yield* Effect.promise(() => h.close())
      yield* Effect.promise(() => reading)
      assert.isBelow(Date.now() - started, 4_000, "the GET outlived close")
    }))
})

describe("toFetchHandler: DNS-rebinding defaults", () => {
  it.live("a public Host is served by default; with allowedHosts it is refused", () =>
    Effect.gen(function*() {
      const open = yield* made()
      const worker = (h: { fetch: (r: Request) => Promise<Response> }) =>
        Effect.promise(() =>
          h.fetch(new Request("https://my-worker.example.workers.dev/mcp", { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INIT) }))
        )
      const served = yield* worker(open)
      assert.strictEqual(served.status, 200)
      assert.isString(served.headers.get("mcp-session-id"))
      const checked = yield* made({ dnsRebindingProtection: { allowedHosts: ["localhost", "127.0.0.1"] } })
      const refused = yield* worker(checked)
      assert.strictEqual(refused.status, 403)
      assert.include((yield* Effect.promise(() => refused.text())), "Invalid Host: my-worker.example.workers.dev")
    }))

  it.live("Origin: the request's own and listed ones pass; loopback pages only on a loopback host; others 403 without CORS headers", () =>
    Effect.gen(function*() {
      const h = yield* made({ cors: { allowedOrigins: ["https://*.example.org", ALLOWED_ORIGIN] } })
      const at = (url: string, origin: string) =>
        Effect.promise(() =>
          h.fetch(new Request(url, { method: "POST", headers: { ...POST_HEADERS, origin }, body: JSON.stringify(INIT) }))
        )
      const cases: ReadonlyArray<readonly [string, string, number]> = [
        ["https://mcp.example.net/mcp", "https://mcp.example.net", 200], // its own
        ["https://mcp.example.net/mcp", "https://app.example.com", 200], // listed
        ["https://mcp.example.net/mcp", "https://APP.example.com:443", 200], // listed, as the URL standard writes it
        ["https://mcp.example.net/mcp", "https://a.b.example.org", 200], // a listed wildcard
        ["https://mcp.example.net/mcp", "https://example.org", 403], // not under the wildcard
        ["https://mcp.example.net/mcp", "http://app.example.com", 403], // another scheme
        ["http://localhost:8787/mcp", "http://localhost:5173", 200], // a loopback page, a loopback host
        ["https://mcp.example.net/mcp", "http://localhost:5173", 403], // a loopback page, a public host
        ["https://mcp.example.net/mcp", "https://evil.example.com", 403],
        ["https://mcp.example.net/mcp", "null", 403]
      ]
      for (const [url, origin, status] of cases) {
        const response = yield* at(url, origin)
        assert.strictEqual(response.status, status, `${origin} → ${url}`)
        if (status === 403) {
          assert.deepStrictEqual(corsHeaders(response), [], `${origin}: a refusal carries no CORS header`)
          assert.include(yield* Effect.promise(() => response.text()), "Invalid Origin")
        } else {
          assert.strictEqual(response.headers.get("access-control-allow-origin"), origin)
          yield* Effect.promise(() => response.text())
        }
      }
    }))
})

const preflight = (fetch: Fetch, url: string, origin: string, method: string, headers: string) =>
  Effect.promise(() =>
    fetch(url, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers }
    })
  )

const CLIENT_HEADERS =
  "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, last-event-id, traceparent, tracestate, baggage, b3"

describe("toFetchHandler: CORS", () => {
  it.live("a preflight from an allowed origin: 204 allowing the methods and every header MCP clients send, reflected", () =>
    Effect.gen(function*() {
      const { fetch, url } = inProcess(yield* made())
      const response = yield* preflight(fetch, url, ALLOWED_ORIGIN, "POST", CLIENT_HEADERS)
      assert.strictEqual(response.status, 204)
      assert.strictEqual(response.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      assert.strictEqual(response.headers.get("access-control-allow-methods"), "GET, POST, DELETE")
      assert.deepStrictEqual(response.headers.get("access-control-allow-headers")!.split(", "), CLIENT_HEADERS.split(", "))
      assert.strictEqual(response.headers.get("access-control-max-age"), "3600")
      assert.include(response.headers.get("vary")!, "Origin")
      const del = yield* preflight(fetch, url, ALLOWED_ORIGIN, "DELETE", "mcp-session-id, traceparent, b3")
      assert.strictEqual(del.status, 204)
    }))

  it.live("preflights refused with 403 and no CORS header: a header not allowed, a method, a foreign origin", () =>
    Effect.gen(function*() {
      const { fetch, url } = inProcess(yield* made())
      const header = yield* preflight(fetch, url, ALLOWED_ORIGIN, "POST", "content-type, x-evil")
      assert.strictEqual(header.status, 403)
      assert.deepStrictEqual(corsHeaders(header), [])
      assert.include(yield* Effect.promise(() => header.text()), "x-evil not allowed")
      const method = yield* preflight(fetch, url, ALLOWED_ORIGIN, "PUT", "content-type")
      assert.strictEqual(method.status, 403)
      assert.deepStrictEqual(corsHeaders(method), [])
      const foreign = yield* preflight(fetch, url, "https://evil.example.com", "POST", "content-type")
      assert.strictEqual(foreign.status, 403)
      assert.deepStrictEqual(corsHeaders(foreign), [])
    }))

  it.live("cors.allowedHeaders adds headers (names, prefixes)", () =>
    Effect.gen(function*() {
      const { fetch, url } = inProcess(
        yield* made({ cors: { allowedOrigins: [ALLOWED_ORIGIN], allowedHeaders: ["x-tenant", "x-app-*"], credentials: true } })
      )
      const response = yield* preflight(fetch, url, ALLOWED_ORIGIN, "POST", "x-tenant, x-app-build")
      assert.strictEqual(response.status, 204)
      assert.strictEqual(response.headers.get("access-control-allow-headers"), "x-tenant, x-app-build")
      assert.strictEqual(response.headers.get("access-control-allow-credentials"), "true")
    }))

  it.live("every answer to an allowed origin exposes the session headers: JSON, SSE, 202, errors, DELETE", () =>
    Effect.gen(function*() {
      const { fetch, url } = inProcess(yield* made())
      const origin = { origin: ALLOWED_ORIGIN }
      const readable = (response: Response, what: string) => {
        assert.strictEqual(response.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN, what)
        assert.strictEqual(response.headers.get("access-control-expose-headers"), "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate", what)
      }
      const init = yield* post(fetch, url, INIT, origin)
      readable(init, "initialize")
      const sid = init.headers.get("mcp-session-id")!
      yield* Effect.promise(() => init.text())
      const session = { ...origin, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
      const notified = yield* post(fetch, url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)
      assert.strictEqual(notified.status, 202)
      readable(notified, "202")
      const call = yield* post(fetch, url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "steps", arguments: { n: 2 } } }, session)
      assert.strictEqual(call.headers.get("content-type"), "text/event-stream")
      readable(call, "SSE")
      assert.include(yield* Effect.promise(() => call.text()), "did 2")
      const bad = yield* Effect.promise(() => fetch(url, { method: "POST", headers: { ...POST_HEADERS, ...session }, body: "{nope" }))
      assert.strictEqual(bad.status, 400)
      readable(bad, "400")
      const unknown = yield* post(fetch, url, { jsonrpc: "2.0", id: 3, method: "ping" }, { ...session, "mcp-session-id": "nope" })
      assert.strictEqual(unknown.status, 404)
      readable(unknown, "404")
      const del = yield* Effect.promise(() => fetch(url, { method: "DELETE", headers: session }))
      assert.strictEqual(del.status, 200)
      readable(del, "DELETE")
      // no Origin (a program, not a page): no CORS header
      const plain = yield* post(fetch, url, INIT)
      assert.deepStrictEqual(corsHeaders(plain), [])
    }))

  it.live("the path option: other paths are 404", () =>
    Effect.gen(function*() {
      const h = yield* made()
      const other = yield* Effect.promise(() => h.fetch(new Request("http://localhost/other", { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INIT) })))
      assert.strictEqual(other.status, 404)
    }))

  it.live("NodeStreamableHttp takes the same cors option", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        NodeStreamableHttp.layer({ port: 0, cors: { allowedOrigins: [ALLOWED_ORIGIN] } }).pipe(Layer.provide(ServerLive))
      ).pipe(Effect.orDie)
      const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
      const url = `http://127.0.0.1:${"port" in server.address ? server.address.port : 0}/mcp`
      const ok = yield* preflight(fetch, url, ALLOWED_ORIGIN, "POST", CLIENT_HEADERS)
      assert.strictEqual(ok.status, 204)
      assert.strictEqual(ok.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      const init = yield* post(fetch, url, INIT, { origin: ALLOWED_ORIGIN })
      assert.strictEqual(init.status, 200)
      assert.strictEqual(init.headers.get("access-control-expose-headers"), "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate")
      yield* Effect.promise(() => init.text())
      const foreign = yield* post(fetch, url, INIT, { origin: "https://evil.example.com" })
      assert.strictEqual(foreign.status, 403)
      assert.deepStrictEqual(corsHeaders(foreign), [])
    }))
})

describe("the legacy HTTP+SSE endpoints (2024-11-05): the same cors option", () => {
  it.live("preflights of the GET and the POST answered; the event stream and the 202 readable by the page; others 403 without CORS headers", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(
        NodeStreamableHttp.layer({ port: 0, legacySse: true, cors: { allowedOrigins: [ALLOWED_ORIGIN] } }).pipe(Layer.provide(ServerLive))
      ).pipe(Effect.orDie)
      const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
      const base = `http://127.0.0.1:${"port" in server.address ? server.address.port : 0}`
      const exposed = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"
      // the GET of a client that resumes (Last-Event-ID is no safelisted header) and the JSON POST are preflighted
      const get = yield* preflight(fetch, `${base}/sse`, ALLOWED_ORIGIN, "GET", "last-event-id, authorization")
      assert.strictEqual(get.status, 204)
      assert.strictEqual(get.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      assert.strictEqual(get.headers.get("access-control-allow-headers"), "last-event-id, authorization")
      const postFlight = yield* preflight(fetch, `${base}/messages`, ALLOWED_ORIGIN, "POST", "content-type")
      assert.strictEqual(postFlight.status, 204)
      assert.strictEqual(postFlight.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      assert.include(postFlight.headers.get("access-control-allow-methods")!, "POST")
      // the stream: readable, its endpoint event names where to POST
      const stream = yield* Effect.promise(() => fetch(`${base}/sse`, { headers: { origin: ALLOWED_ORIGIN, accept: "text/event-stream" } }))
      assert.strictEqual(stream.status, 200)
      assert.strictEqual(stream.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      assert.strictEqual(stream.headers.get("access-control-expose-headers"), exposed)
      const endpoint = /event: endpoint\ndata: (\S+)/.exec(yield* Effect.promise(() => readUntil(stream, "sessionId=", 5000)))![1]!
      const message = yield* post(fetch, `${base}${endpoint}`, INIT, { origin: ALLOWED_ORIGIN })
      assert.strictEqual(message.status, 202)
      assert.strictEqual(message.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      assert.strictEqual(message.headers.get("access-control-expose-headers"), exposed)
      // an error to an allowed origin is readable too; a foreign origin gets 403 and no CORS header
      const unknown = yield* post(fetch, `${base}/messages?sessionId=nope`, INIT, { origin: ALLOWED_ORIGIN })
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.headers.get("access-control-allow-origin"), ALLOWED_ORIGIN)
      for (const [path, method] of [["/sse", "GET"], ["/messages", "POST"]] as const) {
        const foreign = yield* preflight(fetch, `${base}${path}`, "https://evil.example.com", method, "content-type")
        assert.strictEqual(foreign.status, 403)
        assert.deepStrictEqual(corsHeaders(foreign), [])
      }
      const refusedHeader = yield* preflight(fetch, `${base}/messages`, ALLOWED_ORIGIN, "POST", "x-evil")
      assert.strictEqual(refusedHeader.status, 403)
      assert.deepStrictEqual(corsHeaders(refusedHeader), [])
    }))
})

describe("our client, a session id it cannot read", () => {
  it.live("an initialize answer whose Mcp-Session-Id is hidden (a browser without Access-Control-Expose-Headers): SessionIdUnreadable", () =>
    Effect.gen(function*() {
      const h = yield* made()
      const { url } = inProcess(h)
      // what a browser shows a page of a server that does not expose the header
      const hiding: Fetch = async (input, init) => {
        const response = await h.fetch(new Request(input, init))
        const headers = new Headers(response.headers)
        headers.delete("mcp-session-id")
        return new Response(response.body, { status: response.status, headers })
      }
      const exit = yield* Layer.build(
        McpClient.layer({ era: "2025", name: "ours", version: "1.0.0" }).pipe(
          Layer.provide(StreamableHttpClient.layer({ url })),
          Layer.provide(FetchHttpClient.layer),
          Layer.provide(Layer.succeed(FetchHttpClient.Fetch, hiding as typeof globalThis.fetch))
        )
      ).pipe(Effect.flatMap((context) => Effect.flatMap(Effect.provide(McpClient.McpClient, context), (client) => client.callTool("echo", { text: "x" }))), Effect.exit)
      assert.isTrue(Exit.isFailure(exit))
      const error = Exit.isFailure(exit) ? Cause.squash(exit.cause) as { readonly reason?: unknown; readonly cause?: { readonly reason?: unknown } } : {}
      const text = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
      assert.include([error.reason, error.cause?.reason], "SessionIdUnreadable", text)
      assert.include(text, "carried no Mcp-Session-Id this client could read")
      assert.include(text, "Access-Control-Expose-Headers")
      assert.notInclude(text, "header is required")
    }))
})
