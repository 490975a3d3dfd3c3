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
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))
const mjsFixture = (name: string): NodeStdio.ClientOptions => ({
  command: process.execPath,
  args: [fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url))],
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
      const collect = Logger.make(({ fiber, logLevel, message }) => {
        const text = Array.isArray(message) ? message.join(" ") : String(message)
        const annotations = fiber.getRef(References.CurrentLogAnnotations)
        warnings.push({ level: logLevel.toUpperCase(), message: text, stream: annotations["mcp.stdio.stream"] })
      })
      const scope = yield* Scope.make()
      const child = yield* NodeStdio.makeClient(mjsFixture("noisy-server.mjs")).pipe(
        Effect.provide(Logger.layer([collect])),
        Scope.provide(scope)
      )
      const engine = yield* Protocol.make(child.transport, {
        side: "client",
        onRequest: () => Effect.die("no requests expected"),
        onNotification: () => Effect.void
      }).pipe(Scope.provide(scope))
      assert.deepStrictEqual(yield* engine.request("first"), { echo: "first" })
      assert.deepStrictEqual(yield* engine.request("second"), { echo: "second" })
      const lines = yield* child.unparsedStdout.pipe(Stream.take(4), Stream.runCollect, Effect.timeout("5 seconds"))
      const banner = `banner ${"=".repeat(493)}… (2007 characters)`
      assert.deepStrictEqual(lines, [
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
      const received = (yield* child.stderr.pipe(Stream.runCollect)).filter((l) => l.startsWith("received: "))
      assert.deepStrictEqual(
        received.map((l) => JSON.parse(l.slice("received: ".length)).method),
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

interface Run {
  readonly stdout: ReadonlyArray<string>
  readonly stderr: string
  readonly code: number | null
}

/**
 * Runs `node program args`, writes `requests` (one JSON per line) to its stdin,
 * ends stdin once the last request is answered (and sends SIGTERM with `sigterm`,
 * for a program that serves until it is stopped), and collects what it wrote.
 */
const runStdio = (program: string, args: ReadonlyArray<string>, requests: ReadonlyArray<object>, sigterm = false) =>
  Effect.callback<Run, Error>((resume) => {
    const child = spawn(process.execPath, [program, ...args], { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    const lastId = (requests.filter((r) => "id" in r).at(-1) as { id: number }).id
    child.stdout.on("data", (b: Buffer) => {
      stdout += b.toString()
      const answered = stdout.split("\n").some((line) => {
        try {
          return (JSON.parse(line) as { id?: unknown }).id === lastId
        } catch {
          return false
        }
      })
      if (answered) {
        child.stdin.end()
        if (sigterm) child.kill("SIGTERM")
      }
    })
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
    child.on("error", (e) => resume(Effect.fail(e)))
    child.on("close", (code) => resume(Effect.succeed({ stdout: stdout.split("\n").filter((l) => l !== ""), stderr, code })))
    for (const request of requests) child.stdin.write(JSON.stringify(request) + "\n")
    return Effect.sync(() => child.kill("SIGKILL"))
  }).pipe(Effect.timeoutOrElse({ duration: "15 seconds", orElse: () => Effect.fail(new Error(`${program} ${args.join(" ")} did not finish`)) }))

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }
}
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" }

/** A 2026-07-28 call whose handler elicits: answered with a signed `requestState`. */
const ask2026 = {
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: {
    name: "ask",
    arguments: {},
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
      "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }
    }
  }
}

/** Every line is a JSON-RPC message (what the official client requires of stdout). */
const assertOnlyJsonRpc = (stdout: ReadonlyArray<string>) => {
  for (const line of stdout) {
    let message: { jsonrpc?: unknown } | undefined
    try {
      message = JSON.parse(line)
    } catch {
      assert.fail(`a line on stdout is not JSON: ${line}`)
    }
    assert.strictEqual(message?.jsonrpc, "2.0", `a line on stdout is not JSON-RPC: ${line}`)
  }
}

const resultOf = (stdout: ReadonlyArray<string>, id: number) =>
  stdout.map((l) => JSON.parse(l) as { id?: unknown; result?: unknown }).find((m) => m.id === id)?.result

describe("NodeStdio server: stdout carries protocol frames only", () => {
  it.live("the README app (NodeRuntime.runMain): its start-up and handler logs go to stderr", () =>
    Effect.gen(function*() {
      const run = yield* runStdio(bundled("stdio-app"), [], [initialize, initialized, {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "add", arguments: { a: 1, b: 2 } }
      }])
      assertOnlyJsonRpc(run.stdout)
      assert.deepStrictEqual(resultOf(run.stdout, 2), {
        content: [{ type: "text", text: "{\"sum\":3}" }],
        structuredContent: { sum: 3 }
      })
      assert.include(run.stderr, "my-server: serving on stdio")
      assert.include(run.stderr, "add 1 + 2")
      assert.strictEqual(run.code, 0)
    }))

  it.live("the official client talks to the README app and sees no stdout line it cannot parse", () =>
    Effect.gen(function*() {
      const errors: Array<string> = []
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" })
          const transport = new StdioClientTransport({ command: process.execPath, args: [bundled("stdio-app")], cwd: packageDir, stderr: "pipe" })
          await client.connect(transport)
          const onerror = transport.onerror
          transport.onerror = (error) => {
            errors.push(error.message)
            onerror?.(error)
          }
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const result = yield* Effect.promise(() => client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))
      assert.deepStrictEqual(result.structuredContent, { sum: 5 })
      assert.deepStrictEqual(errors, [])
    }))

  it.live("a start-up failure that runMain reports after the server's scope closed goes to stderr", () =>
    Effect.gen(function*() {
      const run = yield* runStdio(bundled("stdio-entries"), ["fail-at-startup"], [initialize])
      assert.deepStrictEqual(run.stdout, [])
      assert.include(run.stderr, "database unreachable")
      assert.strictEqual(run.code, 1)
    }))

  it.live("whatever the runtime entry, Effect.log, Console.log, console.log (also one captured at start-up) and process.stdout.write from start-up and a handler go to stderr; no requestState warning", () =>
    Effect.forEach(["runMain", "runMain-plain", "runPromise", "launch"], (entry) =>
      Effect.gen(function*() {
        const run = yield* runStdio(bundled("stdio-entries"), [entry], [initialize, initialized, {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "shout", arguments: {} }
        }, ask2026], entry === "launch")
        assertOnlyJsonRpc(run.stdout)
        assert.deepStrictEqual(resultOf(run.stdout, 2), { content: [{ type: "text", text: "shouted" }] }, entry)
        assert.strictEqual((resultOf(run.stdout, 3) as { resultType?: unknown }).resultType, "input_required", entry)
        // a stdio server is one process per client: its random requestState key cannot be a problem
        assert.notInclude(run.stderr, "requestState is signed with a random key", entry)
        for (
          const log of [
            "startup: a layer's Effect.log",
            "startup: main's Effect.log",
            "handler: Effect.logInfo",
            "handler: Effect.logWarning",
            "handler: Console.log",
            "handler: console.log",
            "handler: console.info",
            "handler: console.debug",
            "handler: a console.log captured at start-up",
            "handler: process.stdout.write"
          ]
        ) {
          // once: the pretty logger of runMain is not doubled by a second one
          assert.strictEqual(run.stderr.split(log).length - 1, 1, `${entry}: ${log} in ${run.stderr}`)
        }
        // `launch` serves until SIGTERM: Effect 4's runMain exits 130 for an interruption from
        // outside (Effect 3's exited 0); the others end with stdin, their program done
        assert.strictEqual(run.code, entry === "launch" ? 130 : 0, entry)
      }), { concurrency: "unbounded", discard: true }))
})
