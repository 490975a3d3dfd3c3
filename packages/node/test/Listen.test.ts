/**
 * NodeStreamableHttp's listen failure names what happened, on a real port:
 * a port in use is a TransportError naming EADDRINUSE and host:port, not
 * `ServeError: An error has occurred`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { TransportError } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as HttpServer from "effect/http/HttpServer"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Fiber from "effect/Fiber"
import { createServer, request, type Server } from "node:http"
import * as net from "node:net"
import type { AddressInfo } from "node:net"
import { connectSoon, freePort } from "./httpUtil.js"

/** A plain node server holding a port on 127.0.0.1 for the life of the scope. */
const occupied = Effect.acquireRelease(
  Effect.callback<Server>((resume) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
)

/** The status line of the answer to `request` written on `socket`, or undefined after `ms`. */
const statusLine = (socket: net.Socket, request: string, ms: number) =>
  Effect.callback<string | undefined>((resume) => {
    let text = ""
    const timer = setTimeout(() => resume(Effect.succeed(undefined)), ms)
    socket.setEncoding("latin1")
    socket.on("data", (chunk: string) => {
      text += chunk
      const end = text.indexOf("\r\n")
      if (end >= 0) {
        clearTimeout(timer)
        resume(Effect.succeed(text.slice(0, end)))
      }
    })
    socket.on("error", () => {})
    socket.write(request)
    return Effect.sync(() => clearTimeout(timer))
  })

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "early", version: "1" } }
})

describe("NodeStreamableHttp listen", () => {
  it.live("nothing is accepted before the endpoint is built: a POST sent on the first connection accepted is answered", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      // the endpoint's build takes 500 ms here (a fleet store that subscribes slowly)
      const fleet = yield* SessionStore.makeMemoryFleet()
      const store = fleet.instance("a")
      let subscribed = false
      const slow: SessionStore.SessionStoreShape = {
        ...store,
        subscribe: (handler) =>
          Effect.sleep("500 millis").pipe(
            Effect.andThen(store.subscribe(handler)),
            Effect.andThen(Effect.sync(() => (subscribed = true)))
          )
      }
      const starting = yield* NodeStreamableHttp.layer({ port, sessionStore: slow }).pipe(
        Layer.provide(McpServer.layer({ name: "t", version: "1" })),
        Layer.build,
        Effect.forkChild
      )
      const socket = yield* connectSoon(port)
      yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()))
      assert.isTrue(subscribed, "a connection was accepted before the endpoint was built")
      const head = yield* statusLine(
        socket,
        `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
          `accept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(INITIALIZE)}\r\n\r\n${INITIALIZE}`,
        5_000
      )
      assert.strictEqual(head, "HTTP/1.1 200 OK", "the early POST was never answered")
      yield* Fiber.join(starting)
    }))

  it.live("a port in use is a TransportError naming EADDRINUSE and host:port", () =>
    Effect.gen(function*() {
      const holder = yield* occupied
      const port = (holder.address() as AddressInfo).port
      const error = yield* NodeStreamableHttp.layer({ port }).pipe(
        Layer.provide(McpServer.layer({ name: "t", version: "1" })),
        Layer.build,
        Effect.flip
      )
      assert.instanceOf(error, TransportError)
      assert.strictEqual(error.reason, "Listen")
      assert.strictEqual(
        error.message,
        `Cannot listen on 127.0.0.1:${port}: the address is already in use (another process listens on it) (EADDRINUSE)`
      )
      assert.strictEqual((error.cause as { code?: string }).code, "EADDRINUSE")
    }))

  it.live("an address that is not this machine's is named with its code", () =>
    Effect.gen(function*() {
      // TEST-NET-1 (RFC 5737): never assigned to a local interface
      const error = yield* NodeStreamableHttp.layer({ port: 0, host: "192.0.2.1" }).pipe(
        Layer.provide(McpServer.layer({ name: "t", version: "1" })),
        Layer.build,
        Effect.flip
      )
      assert.strictEqual(error.message, "Cannot listen on 192.0.2.1:0: the address is not one of this machine's (EADDRNOTAVAIL)")
    }))

  it.live("idle keep-alive connections are kept 65 s (Node's 5 s loses POSTs of clients that reuse them)", () =>
    Effect.gen(function*() {
      const context = yield* NodeStreamableHttp.layer({ port: 0 }).pipe(
        Layer.provide(McpServer.layer({ name: "t", version: "1" })),
        Layer.build
      )
      const address = (yield* Effect.provide(HttpServer.HttpServer, context)).address
      const port = "port" in address ? address.port : 0
      // what the server tells a pooling client on the wire
      const keepAlive = yield* Effect.callback<string>((resume) => {
        const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "GET", headers: { connection: "keep-alive" } }, (res) => {
          res.resume()
          resume(Effect.succeed(String(res.headers["keep-alive"])))
        })
        req.end()
      })
      assert.strictEqual(keepAlive, "timeout=65")
    }))
})
