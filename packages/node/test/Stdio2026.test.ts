/**
 * Stdio on 2026-07-28, with a real child process (the conformance server, `--stdio`): the era
 * is chosen from the connection's first message. `server/discover` first → 2026 (stateless
 * requests, each with its envelope; a bare request is -32602, a batch -32600); `initialize`
 * first → 2025, unchanged. Every 2026 message is validated against the 2026-07-28 JSON Schema.
 */
import { assert, describe, it } from "@effect/vitest"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"
import { assertValid2026 } from "../../mcp/test/utils/wire2026.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
}

const spawnServer = Effect.gen(function*() {
  const child = yield* NodeStdio.makeClient({
    command: process.execPath,
    args: [bundled("conformance-server"), "--stdio"],
    cwd: repo
  })
  const inbox = yield* Queue.unbounded<JsonRpc.Frame>()
  yield* Transport.incoming(child.transport).pipe(Stream.runForEach((f) => Queue.offer(inbox, f)), Effect.ignore, Effect.forkScoped)
  const send = (message: unknown) => child.transport.send(message as JsonRpc.Outgoing)
  const call = (id: number, method: string, params?: unknown) =>
    Effect.gen(function*() {
      yield* send({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) })
      while (true) {
        const frame = yield* Queue.take(inbox)
        if (!JsonRpc.isBatch(frame) && !JsonRpc.isNotification(frame) && !JsonRpc.isRequest(frame) && frame.id === id) {
          return frame as JsonRpc.Response & { result?: any; error?: any }
        }
      }
    })
  return { call, send, inbox }
})

describe("stdio: the era from the first message", () => {
  it.live("server/discover first: a 2026 connection, stateless requests answered with resultType and serverInfo", () =>
    Effect.gen(function*() {
      const { call, inbox, send } = yield* spawnServer
      const discover = yield* call(1, "server/discover", { _meta: envelope })
      assertValid2026(discover, "server/discover")
      assert.deepStrictEqual(discover.result.supportedVersions, ["2026-07-28"])
      const echo = yield* call(2, "tools/call", { _meta: envelope, name: "echo", arguments: { text: "hi" } })
      assertValid2026(echo, "tools/call")
      assert.deepStrictEqual(echo.result.content, [{ type: "text", text: "hi" }])
      assert.strictEqual(echo.result._meta["io.modelcontextprotocol/serverInfo"].name, "mcp-conformance-test-server")
      const bare = yield* call(3, "tools/list", {})
      assert.strictEqual(bare.error.code, -32602)
      const ping = yield* call(4, "ping", { _meta: envelope })
      assert.strictEqual(ping.error.code, -32601)
      const unsupported = yield* call(5, "tools/list", {
        _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2099-01-01" }
      })
      assert.deepStrictEqual(unsupported.error.data, { supported: ["2026-07-28"], requested: "2099-01-01" })
      yield* send([{ jsonrpc: "2.0", id: 6, method: "tools/list", params: { _meta: envelope } }])
      const batch = (yield* Queue.take(inbox)) as JsonRpc.Response & { error?: { code: number } }
      assert.strictEqual(batch.error?.code, -32600)
    }), 30_000)

  it.live("initialize first: a 2025 session, unchanged", () =>
    Effect.gen(function*() {
      const { call, send } = yield* spawnServer
      const init = yield* call(1, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" }
      })
      assert.strictEqual(init.result.protocolVersion, "2025-11-25")
      yield* send({ jsonrpc: "2.0", method: "notifications/initialized" })
      const echo = yield* call(2, "tools/call", { name: "echo", arguments: { text: "hi" } })
      assert.deepStrictEqual(echo.result, { content: [{ type: "text", text: "hi" }] })
      const ping = yield* call(3, "ping")
      assert.deepStrictEqual(ping.result, {})
    }), 30_000)
})
