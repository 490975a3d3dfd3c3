/**
 * Shutting the HTTP server down (what SIGINT/SIGTERM do under
 * `NodeRuntime.runMain`): sessions end, their streams end after the last whole
 * event, every connection closes and the port is released; a connection that
 * never finishes is cut after the grace period (`closeGrace`, on the Clock:
 * TestClock drives it, no real sleep).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import * as TestClock from "effect/testing/TestClock"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as http from "node:http"
import * as net from "node:net"
import { headers, initialize, startServer, withLive } from "./httpUtil.js"

/** Waits for a real event, failing the test after 10 s of real time instead of hanging it. */
const realWait = <A>(what: string, effect: Effect.Effect<A>) =>
  effect.pipe(Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error(`no ${what}`)) }), Effect.orDie, withLive)

/** A standing GET over its own keep-alive connection: resolves when its headers arrive. */
const openStream = (url: string, sid: string) =>
  Effect.callback<{ readonly ended: Promise<string>; readonly socketClosed: Promise<void> }>((resume) => {
    const agent = new http.Agent({ keepAlive: true })
    const request = http.request(url, {
      agent,
      method: "GET",
      headers: { ...headers({ "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }), accept: "text/event-stream" }
    }, (response) => {
      const socketClosed = new Promise<void>((done) => response.socket.once("close", () => done()))
      const ended = new Promise<string>((done, fail) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.once("end", () => done(text))
        response.once("aborted", () => fail(new Error("the stream was cut")))
      })
      resume(Effect.succeed({ ended, socketClosed }))
    })
    request.end()
  })

describe("NodeStreamableHttp shutdown", () => {
  it.effect("closing the layer ends the open streams whole, closes their connections and releases the port, with no time passing", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      // with an hour of grace that never passes, only closing on their own lets connections go
      const { port, url } = yield* startServer(McpServer.register(), { closeGrace: "1 hour" }).pipe(Scope.provide(scope))
      const sid = yield* realWait("initialize", initialize(url))
      const stream = yield* realWait("stream headers", openStream(url, sid))
      const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
      const text = yield* realWait("end of the stream", Effect.promise(() => stream.ended))
      assert.isTrue(text === "" || text.endsWith("\n\n"), `the stream ended inside an event: ${JSON.stringify(text)}`)
      // the clock never moves: the connection closes because its response ended, not after the grace period
      yield* realWait("close of the stream's connection", Effect.promise(() => stream.socketClosed))
      yield* realWait("the layer's close", Fiber.join(closing))
      const refused = yield* realWait(
        "a connection attempt",
        Effect.callback<boolean>((resume) => {
          const socket = net.connect(port, "127.0.0.1")
          socket.once("connect", () => (socket.destroy(), resume(Effect.succeed(false))))
          socket.once("error", () => resume(Effect.succeed(true)))
        })
      )
      assert.isTrue(refused, "the port still accepts connections")
    }))

  it.effect("a connection whose request never finishes is cut after the grace period", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const { port } = yield* startServer(McpServer.register(), { closeGrace: "1 hour" }).pipe(Scope.provide(scope))
      // headers of a POST whose body never comes: the server waits for it
      const socket = net.connect(port, "127.0.0.1")
      const socketClosed = new Promise<void>((done) => socket.once("close", () => done()))
      yield* realWait("connect", Effect.callback<void>((resume) => void socket.once("connect", () => resume(Effect.void))))
      socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
      const closing = yield* Effect.forkChild(Scope.close(scope, Exit.void))
      yield* realWait("a turn of the event loop", Effect.promise(() => new Promise((done) => setImmediate(done))))
      assert.isUndefined(closing.pollUnsafe(), "the server closed before the grace period")
      yield* TestClock.adjust("59 minutes")
      yield* realWait("a turn of the event loop", Effect.promise(() => new Promise((done) => setImmediate(done))))
      assert.isUndefined(closing.pollUnsafe(), "the server closed before the grace period")
      assert.isFalse(socket.destroyed, "the connection was cut before the grace period")
      yield* TestClock.adjust("1 minute")
      yield* realWait("close of the unfinished connection", Effect.promise(() => socketClosed))
      yield* realWait("the layer's close", Fiber.join(closing))
    }))
})
