/**
 * Failures of the HTTP client transports over real sockets: each cause is
 * named (a closed port, a name that cannot resolve, TLS against a plain HTTP
 * port, a timeout, a server killed mid-call), and reaches the caller as a
 * `TransportError`, never as an `McpError` the peer did not send.
 */
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClient from "effect/http/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { assert, describe, it } from "@effect/vitest"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { initializeResult, openSse, readBody, sendJson, serve, sseEvent } from "./utils/httpClientServers.js"
import { testHttp } from "./utils/testHttp.js"

/** A port nothing listens on: bound, then released. */
const closedPort = Effect.callback<number>((resume) => {
  const server = Http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

const clientLayer = (
  options: StreamableHttpClient.StreamableHttpClientOptions,
  http: Layer.Layer<HttpClient.HttpClient> = testHttp.layer
) =>
  McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(
    Layer.provide(StreamableHttpClient.layer(options)),
    Layer.provide(http)
  )

/** Builds a client that cannot initialize; its error must be the transport's, with the cause. */
const initializeFailure = (layer: Layer.Layer<McpClient.McpClient, unknown>) =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(Layer.build(layer))
    assert.instanceOf(error, ProtocolError)
    assert.strictEqual((error as ProtocolError).reason, "Transport")
    const cause = (error as ProtocolError).cause
    assert.instanceOf(cause, TransportError)
    assert.strictEqual((error as ProtocolError).message, (cause as TransportError).message)
    return cause as TransportError
  })

describe("HTTP client transport failures name their cause", () => {
  it.live("nothing listening: ECONNREFUSED and the URL (undici, FetchHttpClient, FetchStreamableHttpClient)", () =>
    Effect.gen(function*() {
      const url = `http://127.0.0.1:${yield* closedPort}/mcp`
      for (const http of [testHttp.layer, FetchHttpClient.layer]) {
        const cause = yield* initializeFailure(clientLayer({ url }, http))
        assert.strictEqual(cause.reason, "Connect")
        assert.strictEqual(cause.code, "ECONNREFUSED")
        assert.include(cause.message, "ECONNREFUSED")
        assert.include(cause.message, url)
      }
      // the fetch transport (no HttpClient): the same words
      const cause = yield* initializeFailure(
        McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(Layer.provide(FetchStreamableHttpClient.layer({ url })))
      )
      assert.strictEqual(cause.reason, "Connect")
      assert.strictEqual(cause.code, "ECONNREFUSED")
      assert.include(cause.message, url)
    }))

  it.live("a host that does not resolve: ENOTFOUND and the host", () =>
    Effect.gen(function*() {
      const cause = yield* initializeFailure(clientLayer({ url: "http://nonexistent.invalid/mcp" }))
      assert.strictEqual(cause.reason, "Connect")
      assert.oneOf(cause.code, ["ENOTFOUND", "EAI_AGAIN"])
      assert.include(cause.message, "DNS lookup failed for nonexistent.invalid")
    }))

  it.live("TLS to a plain HTTP port: the handshake failure, named", () =>
    Effect.gen(function*() {
      const server = yield* serve((_req, res) => res.writeHead(200).end("plain"))
      const url = server.url.replace("http:", "https:")
      const cause = yield* initializeFailure(clientLayer({ url }))
      assert.strictEqual(cause.reason, "Connect")
      assert.include(cause.message, "TLS handshake with 127.0.0.1")
      assert.match(cause.code ?? "", /^(ERR_SSL|EPROTO)/)
    }))

  it.live("a POST the server never answers: a Timeout naming the URL", () =>
    Effect.gen(function*() {
      const server = yield* serve((req, res, body) => {
        const m = body as { readonly id?: number; readonly method?: string }
        if (req.method === "GET") return void res.writeHead(405).end()
        if (m?.method === "initialize") {
          return void sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s" })
        }
        if (m?.method === "notifications/initialized") return void res.writeHead(202).end()
        // anything else: never answered
      })
      const transport = yield* StreamableHttpClient.make({ url: server.url, requestTimeout: "150 millis", deleteOnClose: false })
      const error = yield* Effect.flip(transport.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }))
      assert.strictEqual(error.reason, "Timeout")
      assert.include(error.message, server.url)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici)))

  /** A server that answers a call on an SSE stream, sends `events`, and dies `after` ms later. */
  const dyingServer = (events: ReadonlyArray<string>, after: number) =>
    Effect.gen(function*() {
      const server = Http.createServer((req, res) => {
        void readBody(req).then((text) => {
          if (req.method === "GET") return void res.writeHead(405).end()
          if (req.method === "DELETE") return void res.writeHead(200).end()
          const m = JSON.parse(text) as { readonly id?: number; readonly method?: string }
          if (m.method === "initialize") {
            return sendJson(res, { jsonrpc: "2.0", id: m.id, result: initializeResult() }, { "mcp-session-id": "s" })
          }
          if (m.id === undefined) return void res.writeHead(202).end()
          openSse(res)
          for (const id of events) sseEvent(res, { id, data: "" })
          setTimeout(kill, after)
        })
      })
      const kill = () => {
        server.close()
        server.closeAllConnections()
      }
      const port = yield* Effect.callback<number>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
      })
      yield* Effect.addFinalizer(() => Effect.sync(kill))
      const url = `http://127.0.0.1:${port}/mcp`
      const context = yield* Layer.build(
        clientLayer({ url, reconnect: { initialDelay: "10 millis", jitter: 0 }, maxRetries: 2, deleteOnClose: false })
      )
      const client = Context.get(context, McpClient.McpClient)
      const exit = yield* Effect.exit(client.callTool("t", {}))
      const error = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined
      assert.strictEqual(error?._tag, "ProtocolError", String(error?.message))
      return { url, error: error as ProtocolError }
    })

  it.live("a server killed mid-call, its stream resumable: the call fails saying the server went away, with the URL", () =>
    Effect.gen(function*() {
      const { error, url } = yield* dyingServer(["e1"], 50)
      assert.strictEqual(error.reason, "ConnectionClosed", error.message)
      assert.include(error.message, "The server went away: Connection refused (ECONNREFUSED)")
      assert.include(error.message, url)
      assert.notInclude(error.message, "could not be resumed")
    }))

  it.live("a server killed mid-call before any event: the call fails saying the connection was lost", () =>
    Effect.gen(function*() {
      const { error, url } = yield* dyingServer([], 20)
      assert.strictEqual(error.reason, "Transport", error.message)
      assert.include(error.message, `The server at ${url} closed the connection`)
    }))

  it.live("legacy HTTP+SSE: nothing listening fails the layer with ECONNREFUSED and the URL", () =>
    Effect.gen(function*() {
      const url = `http://127.0.0.1:${yield* closedPort}/sse`
      const error = yield* Effect.flip(Layer.build(LegacySseClient.layer({ url }).pipe(Layer.provide(NodeHttpClient.layerUndici))))
      assert.strictEqual(error.reason, "Connect")
      assert.strictEqual(error.code, "ECONNREFUSED")
      assert.include(error.message, url)
    }))
})
