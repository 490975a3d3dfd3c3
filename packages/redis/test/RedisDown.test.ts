/**
 * Redis unreachable mid-session: a redis-server of the test's own on a free
 * port, stopped and started again under a running instance.
 */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as HttpServer from "effect/http/HttpServer"
import { assert, it } from "@effect/vitest"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as RedisFleet from "../src/RedisFleet.js"
import { describeRedis } from "./redis.js"

// This test starts (and stops) a Redis of its own, so it needs the `redis-server` binary; without it
// the test is skipped on a user's machine, and fails under MCP_REQUIRE_REDIS=1 (CI) like the others.
const hasRedisServer = spawnSync("redis-server", ["--version"]).status === 0 ||
  process.env.MCP_REQUIRE_REDIS === "1"

const freePort = Effect.callback<number>((resume) => {
  const server = net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as net.AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** A redis-server on `port`, its data in `dir` (saved on shutdown, loaded on start); stopped with the scope. */
const redisServer = (port: number, dir: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly stop: Effect.Effect<void> }>((resume) => {
      const child = spawn("redis-server", [
        "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
        "--dir", dir, "--dbfilename", "dump.rdb"
      ], { stdio: ["ignore", "pipe", "pipe"] })
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      let out = ""
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes("Ready to accept connections")) {
          resume(Effect.succeed({
            // SHUTDOWN SAVE: the data survives to the next start, as with a persistent Redis
            stop: Effect.promise(() => {
              if (child.exitCode !== null) return exited
              spawnSync("redis-cli", ["-p", String(port), "shutdown", "save"])
              return exited
            })
          }))
        }
      })
    }),
    (server) => server.stop
  )

const post = (url: string, body: unknown, sid?: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(sid === undefined ? {} : { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" })
      },
      body: JSON.stringify(body)
    })
    return { status: response.status, sid: response.headers.get("mcp-session-id"), text: await response.text() }
  })

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}
const PING = { jsonrpc: "2.0", id: 2, method: "ping" }

describeRedis("Redis unreachable mid-session", () => {
  it.live.skipIf(!hasRedisServer)("requests that need Redis get 503 with a JSON-RPC error; the server stays up and recovers by itself", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-redis-down-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
      let redis = yield* redisServer(port, dir)
      const endpoint = Layer.unwrap(Effect.gen(function*() {
        const sessionStore = yield* SessionStore.SessionStore
        const eventStore = yield* EventStore.EventStore
        return NodeStreamableHttp.layer({ port: 0, sessionStore, eventStore, jsonResponse: true })
      }))
      const context = yield* Layer.build(endpoint.pipe(
        Layer.provideMerge(McpServer.layer({ name: "down", version: "1.0.0" })),
        Layer.provideMerge(RedisFleet.layer({ url: `redis://127.0.0.1:${port}`, prefix: "down", commandTimeout: "500 millis" }))
      ))
      const http = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
      const url = `http://127.0.0.1:${http.address._tag === "UnixPathAddress" ? 0 : http.address.port}/mcp`
      const init = yield* post(url, INIT)
      assert.strictEqual(init.status, 200)
      const sid = init.sid!
      assert.strictEqual((yield* post(url, PING, sid)).status, 200)

      yield* redis.stop
      for (const attempt of [yield* post(url, PING, sid), yield* post(url, INIT)]) {
        assert.strictEqual(attempt.status, 503)
        const body = JSON.parse(attempt.text)
        assert.strictEqual(body.jsonrpc, "2.0")
        assert.strictEqual(body.error.code, -32000)
        assert.include(body.error.message, "session store cannot be reached")
      }

      redis = yield* redisServer(port, dir)
      let status = 0
      for (let i = 0; i < 50 && status !== 200; i++) {
        yield* Effect.sleep("100 millis")
        status = (yield* post(url, PING, sid)).status
      }
      // the same session, back without a restart of the server
      assert.strictEqual(status, 200)
    }), 30_000)
})
