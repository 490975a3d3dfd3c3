import { assert, describe, it } from "@effect/vitest"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"

/** A port nothing listens on: bound, then released. */
const closedPort = Effect.callback<number>((resume) => {
  const server = Http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

/**
 * A 2025 server that counts its connections: initialize answered in JSON, notifications with a
 * chunked 202 (as `res.writeHead(202); res.end()` sends it), the standing GET held open.
 */
const countingServer = Effect.gen(function*() {
  const seen = { connections: 0, requests: [] as Array<string> }
  const listening = yield* Deferred.make<void>()
  const server = Http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.method !== "POST") {
        seen.requests.push(req.method ?? "")
        if (req.method === "GET") res.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n")
        else res.writeHead(200).end()
        if (req.method === "GET") Deferred.doneUnsafe(listening, Effect.void)
        return
      }
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: number; method: string }
      seen.requests.push(`POST ${message.method}`)
      if (message.id === undefined) {
        res.writeHead(202)
        res.end()
        return
      }
      const result = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "counting", version: "1.0.0" } }
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" })
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }))
    })
  })
  server.on("connection", () => seen.connections++)
  const port = yield* Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
    }),
    () => Effect.sync(() => server.closeAllConnections())
  )
  return { url: `http://127.0.0.1:${port}/mcp`, seen, listening: Deferred.await(listening) }
})

describe("NodeStreamableHttpClient", () => {
  it.live("opening a session takes one connection: notifications/initialized and the standing GET wait for undici to free the answer's", () =>
    Effect.gen(function*() {
      const { listening, seen, url } = yield* countingServer
      yield* Layer.build(
        McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
      )
      yield* listening
      assert.deepStrictEqual(seen.requests, ["POST initialize", "POST notifications/initialized", "GET"])
      assert.strictEqual(seen.connections, 1)
    }))

  it.live("nothing listening: the client fails with a TransportError naming ECONNREFUSED and the URL", () =>
    Effect.gen(function*() {
      const url = `http://127.0.0.1:${yield* closedPort}/mcp`
      const error = yield* Effect.flip(Layer.build(
        McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
      ))
      assert.instanceOf(error, ProtocolError)
      const cause = (error as ProtocolError).cause
      assert.instanceOf(cause, TransportError)
      assert.strictEqual((cause as TransportError).reason, "Connect")
      assert.strictEqual(
        (error as ProtocolError).message,
        `Connection refused (ECONNREFUSED): nothing is listening at ${url}`
      )
    }))
})
