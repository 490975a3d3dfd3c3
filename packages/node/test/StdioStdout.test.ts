/**
 * A stdio server's stdout, seen from the client, over a real child process:
 * lines that are not JSON are reported (a warning on the client's log and
 * `unparsedStdout`) and never answered; a server that exits before answering
 * `initialize` fails it saying how it exited, not with a timeout.
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ProtocolError } from "@effect-mcp/mcp/McpError"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as NdJson from "@effect-mcp/node/NdJson"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import { assert, describe, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"

const packageDir = fileURLToPath(new URL("..", import.meta.url))
const mjsFixture = (name: string): NodeStdio.ClientOptions => ({
  command: process.execPath,
  args: [fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))],
  cwd: packageDir
})

describe("NdJson onUnparsedLine", () => {
  it("passes lines that are not JSON to the callback instead of framing them; JSON that is not JSON-RPC is still framed", () => {
    const unparsed: Array<string> = []
    const decoder = NdJson.makeDecoder({ onUnparsedLine: (line) => unparsed.push(line) })
    const frames = [
      ...decoder.push(Buffer.from("hello\r\n{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{\"not\":\"rpc\"}\n{\"jsonrpc\"")),
      ...decoder.end()
    ]
    assert.deepStrictEqual(unparsed, ["hello", "{\"jsonrpc\""])
    assert.deepStrictEqual(frames.map((f) => "method" in f ? f.method : (f as { error?: { code: number } }).error?.code), ["a", -32600])
  })
})

describe("NodeStdio client: the server's stdout", () => {
  it.live("non-JSON lines are logged as warnings (truncated) and published, never answered; the protocol goes on", () =>
    Effect.gen(function*() {
      const warnings: Array<{ readonly level: string; readonly message: string; readonly stream: unknown }> = []
      const collect = Logger.make(({ annotations, logLevel, message }) => {
        const text = Array.isArray(message) ? message.join(" ") : String(message)
        warnings.push({ level: logLevel.label, message: text, stream: [...annotations].find(([k]) => k === "mcp.stdio.stream")?.[1] })
      })
      const scope = yield* Scope.make()
      const child = yield* NodeStdio.makeClient(mjsFixture("noisy-server.mjs")).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, collect)),
        Scope.extend(scope)
      )
      const engine = yield* Protocol.make(child.transport, {
        side: "client",
        onRequest: () => Effect.die("no requests expected"),
        onNotification: () => Effect.void
      }).pipe(Scope.extend(scope))
      assert.deepStrictEqual(yield* engine.request("first"), { echo: "first" })
      assert.deepStrictEqual(yield* engine.request("second"), { echo: "second" })
      const lines = yield* child.unparsedStdout.pipe(Stream.take(4), Stream.runCollect, Effect.timeout("5 seconds"))
      const banner = `banner ${"=".repeat(493)}… (2007 characters)`
      assert.deepStrictEqual(Chunk.toReadonlyArray(lines), [
        "Server starting on stdio...",
        banner,
        "handling first",
        "handling second"
      ])
      const stdoutLogs = warnings.filter((w) => w.stream === "stdout")
      assert.deepStrictEqual(stdoutLogs.map((w) => w.level), ["WARN", "WARN", "WARN", "WARN"])
      assert.strictEqual(
        stdoutLogs[0]!.message,
        "the MCP server wrote a line to stdout that is not JSON (ignored): Server starting on stdio..."
      )
      assert.include(stdoutLogs[1]!.message, banner)
      // what the server read: our two requests, and no -32700 answer to its prints
      yield* Scope.close(scope, Exit.void)
      const received = (yield* child.stderr.pipe(Stream.runCollect)).pipe(Chunk.filter((l) => l.startsWith("received: ")))
      assert.deepStrictEqual(
        Chunk.toReadonlyArray(received).map((l) => JSON.parse(l.slice("received: ".length)).method),
        ["first", "second"]
      )
    }))

  it.live("a server that exits before answering initialize fails it with its exit code and last stderr lines", () =>
    Effect.gen(function*() {
      const error = yield* McpClient.make({ era: "2025", name: "t", version: "1" }).pipe(
        Effect.provide(NodeStdio.layerClient(mjsFixture("crash-on-request.mjs"))),
        Effect.scoped,
        Effect.flip,
        Effect.timeout("10 seconds")
      )
      assert.instanceOf(error, ProtocolError)
      assert.strictEqual((error as ProtocolError).method, "initialize")
      assert.match(error.message, /exited with code 3; last stderr lines:\n(.*\n)*fatal: crashing on purpose/)
    }))
})
