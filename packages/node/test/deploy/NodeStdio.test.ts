import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import { ErrorResponse } from "@effect-mcp/mcp/McpError"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import { fromStream, incoming, Transport, type TransportShape } from "@effect-mcp/mcp/Transport"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { PassThrough } from "node:stream"
import { fileURLToPath } from "node:url"
import { bundled, type Program } from "../../../../vitest.bundled.js"

const packageDir = fileURLToPath(new URL("../..", import.meta.url))
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url))

/** Runs a TypeScript fixture, bundled from the workspace sources (`vitest.bundles.ts`). */
const tsFixture = (name: Program): NodeStdio.ClientOptions => ({
  command: process.execPath,
  args: [bundled(name)],
  cwd: packageDir
})
const mjsFixture = (name: string): NodeStdio.ClientOptions => ({
  command: process.execPath,
  args: [fixture(name)],
  cwd: packageDir
})

const clientEngine = (transport: TransportShape) =>
  Protocol.make(transport, {
    side: "client",
    onRequest: ({ request }) => Effect.fail(ErrorResponse.methodNotFound(request.method)),
    onNotification: () => Effect.void
  })

/** Whether a process exists and is not a zombie (an orphan waits for init to reap it). */
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z"
  } catch {
    return process.platform !== "linux"
  }
}

const waitForStderr = (child: NodeStdio.StdioChildShape, pattern: RegExp) =>
  child.stderr.pipe(
    Stream.filter((line) => pattern.test(line)),
    Stream.take(1),
    Stream.runHead,
    Effect.map((line) => line._tag === "Some" ? line.value : ""),
    Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error(`no stderr line matching ${pattern}`)) })
  )

describe("NodeStdio server side", () => {
  it.live("serves the engine over given streams and closes when stdin ends", () =>
    Effect.gen(function*() {
      const stdin = new PassThrough()
      const stdout = new PassThrough()
      const transport = yield* NodeStdio.makeServer({ stdin, stdout, maxMessageBytes: 1024 })
      const engine = yield* Protocol.make(transport, {
        side: "server",
        onRequest: ({ request }) => Effect.succeed({ echo: request.params ?? {} }),
        onNotification: () => Effect.void
      })
      const lines: Array<string> = []
      let buffered = ""
      stdout.on("data", (b: Buffer) => {
        buffered += b.toString()
        const parts = buffered.split("\n")
        buffered = parts.pop()!
        lines.push(...parts)
      })
      stdin.write(JsonRpc.encode(JsonRpc.request(1, "x", { a: "é" })) + "\n{oops\n")
      stdin.write(JsonRpc.encode(JsonRpc.request(2, "big", { s: "x".repeat(2000) })) + "\n")
      stdin.write(JsonRpc.encode(JsonRpc.request(3, "y")) + "\n")
      yield* Effect.sleep("50 millis")
      const messages = lines.map((l) => JSON.parse(l))
      assert.deepStrictEqual(messages[0], JsonRpc.success(1, { echo: { a: "é" } }))
      assert.deepStrictEqual(messages[1], { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: invalid JSON" } })
      assert.strictEqual(messages[2].id, null)
      assert.strictEqual(messages[2].error.code, -32700)
      assert.deepStrictEqual(messages[3], JsonRpc.success(3, { echo: {} }))
      stdin.end()
      yield* engine.closed.pipe(Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail(new Error("not closed")) }))
    }))

  it.live("a server process exits promptly with code 0 when its stdin ends", () =>
    Effect.gen(function*() {
      const options = tsFixture("echo-server")
      const child = spawn(options.command, options.args!, { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (b: Buffer) => (stdout += b.toString()))
      child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
      child.stdin.write(JsonRpc.encode(JsonRpc.request(1, "hello", { n: 1 })) + "\n")
      yield* Effect.callback<void>((resume) => {
        const poll = setInterval(() => {
          if (stdout.includes("\n")) {
            clearInterval(poll)
            resume(Effect.void)
          }
        }, 10)
        return Effect.sync(() => clearInterval(poll))
      }).pipe(Effect.timeout("10 seconds"))
      const ended = Date.now()
      child.stdin.end()
      const [code, signal] = yield* Effect.callback<[number | null, NodeJS.Signals | null]>((resume) => {
        child.once("exit", (code, signal) => resume(Effect.succeed([code, signal])))
      }).pipe(Effect.timeout("5 seconds"))
      const elapsed = Date.now() - ended
      assert.deepStrictEqual(JSON.parse(stdout.trim()), JsonRpc.success(1, { echo: { n: 1 } }))
      assert.strictEqual(code, 0, stderr)
      assert.isNull(signal)
      assert.isBelow(elapsed, 1000)
      // stdout carried protocol messages only: Effect's logger went to stderr
      assert.strictEqual(stdout.trim().split("\n").length, 1)
      assert.include(stderr, "echo-server logging through Effect")
    }))

  it.live("a server process stops reading stdin while its read loop is behind, then answers everything in order; a cancelled request is never answered", () =>
    Effect.gen(function*() {
      const options = tsFixture("echo-server")
      const child = spawn(options.command, options.args!, { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGKILL")))
      yield* Effect.callback<void>((resume) => {
        let stderr = ""
        child.stderr.on("data", (b: Buffer) => {
          stderr += b.toString()
          if (stderr.includes("echo-server ready")) resume(Effect.void)
        })
      }).pipe(Effect.timeoutOrElse({ duration: "20 seconds", orElse: () => Effect.fail(new Error("the server did not start")) }))
      const ids: Array<unknown> = []
      let buffered = ""
      child.stdout.on("data", (b: Buffer) => {
        const parts = (buffered + b.toString()).split("\n")
        buffered = parts.pop()!
        for (const part of parts) ids.push((JSON.parse(part) as { id: unknown }).id)
      })
      const pings = 20_000
      // the read loop sleeps: the frames after the notification queue behind it, and past a backlog the
      // server stops reading its stdin, so that most of what we wrote stays on our side of the pipe
      const lines = [JsonRpc.request(0, "hang"), JsonRpc.notification("sleep", { ms: 6000 })]
      for (let i = 1; i <= pings; i++) lines.push(JsonRpc.request(i, "ping"))
      lines.push(JsonRpc.notification("notifications/cancelled", { requestId: 0 }))
      lines.push(JsonRpc.request(pings + 1, "echo", { last: true }))
      // written in small chunks: `writableLength` counts a chunk until all of it is written
      let total = 0
      for (let i = 0; i < lines.length; i += 20) {
        const chunk = lines.slice(i, i + 20).map((m) => JsonRpc.encode(m) + "\n").join("")
        total += chunk.length
        child.stdin.write(chunk)
      }
      /** What is left unwritten of our input, once it stopped changing for two seconds. */
      const settledUnread = Effect.callback<number>((resume) => {
        let last = -1
        let same = 0
        const poll = setInterval(() => {
          const now = child.stdin.writableLength
          same = now === last ? same + 1 : 0
          last = now
          if (same >= 20) {
            clearInterval(poll)
            resume(Effect.succeed(now))
          }
        }, 100)
        return Effect.sync(() => clearInterval(poll))
      })
      const unread = yield* settledUnread
      assert.isAbove(unread, total / 2, "the server stopped reading its stdin")
      assert.deepStrictEqual(ids, [], "the read loop still sleeps")
      yield* Effect.callback<void>((resume) => {
        const poll = setInterval(() => {
          if (ids.at(-1) === pings + 1) {
            clearInterval(poll)
            resume(Effect.void)
          }
        }, 50)
        return Effect.sync(() => clearInterval(poll))
      }).pipe(Effect.timeoutOrElse({ duration: "60 seconds", orElse: () => Effect.fail(new Error(`${ids.length} answers`)) }))
      assert.deepStrictEqual(ids, Array.from({ length: pings + 1 }, (_, i) => i + 1))
      child.stdin.end()
      const code = yield* Effect.callback<number | null>((resume) => {
        child.once("exit", (code) => resume(Effect.succeed(code)))
      }).pipe(Effect.timeout("10 seconds"))
      assert.strictEqual(code, 0)
    }).pipe(Effect.scoped), 90_000)
})

describe("NodeStdio engine over real stdio", () => {
  const EchoServer = NodeStdio.layerClient(tsFixture("echo-server"))

  it.live("64 concurrent requests", () =>
    Effect.gen(function*() {
      const transport = yield* Transport
      const engine = yield* clientEngine(transport)
      const results = yield* Effect.forEach(
        Array.from({ length: 64 }, (_, i) => i),
        (i) => engine.request("echo", { i, text: `n°${i} ✓` }),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(results, Array.from({ length: 64 }, (_, i) => ({ echo: { i, text: `n°${i} ✓` } })))
    }).pipe(Effect.scoped, Effect.provide(EchoServer)))

  it.live("a 16 MiB message each way", () =>
    Effect.gen(function*() {
      const transport = yield* Transport
      const engine = yield* clientEngine(transport)
      const data = "abcdefgh".repeat(2 * 1024 * 1024) + "é€𝄞"
      const result = yield* engine.request("echo", { data })
      assert.strictEqual((result.echo as { data: string }).data, data)
      // and the connection is still fine
      assert.deepStrictEqual(yield* engine.request("small"), { echo: {} })
    }).pipe(Effect.scoped, Effect.provide(EchoServer)))

  it.live("a malformed line gets a -32700 response with id null and the connection keeps working", () =>
    Effect.gen(function*() {
      const child = yield* NodeStdio.StdioChild
      const seen: Array<JsonRpc.Frame> = []
      const transport: TransportShape = {
        ...child.transport,
        ...fromStream(incoming(child.transport).pipe(Stream.tap((frame) => Effect.sync(() => seen.push(frame)))))
      }
      const engine = yield* clientEngine(transport)
      assert.deepStrictEqual(yield* engine.request("before"), { echo: {} })
      yield* child.writeRaw("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\n")
      assert.deepStrictEqual(yield* engine.request("after", { ok: true }), { echo: { ok: true } })
      const errors = seen.filter((f) => !JsonRpc.isBatch(f) && JsonRpc.isResponse(f) && "error" in f)
      assert.deepStrictEqual(errors, [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: invalid JSON" } }])
    }).pipe(Effect.scoped, Effect.provide(EchoServer)))

  it.live("stderr is a Stream of lines; closing ends stdin and the server exits by itself with code 0", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const child = yield* NodeStdio.makeClient(tsFixture("echo-server")).pipe(Scope.provide(scope))
      const ready = yield* waitForStderr(child, /echo-server ready/)
      assert.strictEqual(ready, `echo-server ready pid=${child.pid}`)
      const engine = yield* clientEngine(child.transport).pipe(Scope.provide(scope))
      assert.deepStrictEqual(yield* engine.request("x"), { echo: {} })
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      assert.isBelow(Date.now() - started, 1500)
      assert.deepStrictEqual(yield* child.exit, { code: 0, signal: null })
      assert.isFalse(isAlive(child.pid))
      // after close, stderr replays its last lines and ends
      const lines = yield* child.stderr.pipe(Stream.runCollect, Effect.timeout("2 seconds"))
      assert.isTrue([...lines].some((l) => l.includes("echo-server ready")))
    }))
})

describe("NodeStdio child lifecycle", () => {
  it.live("a child that ignores SIGTERM is SIGKILLed: closing the scope is bounded", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const child = yield* NodeStdio.makeClient({
        ...mjsFixture("ignore-sigterm.mjs"),
        closeTimeout: "300 millis",
        killTimeout: "300 millis"
      }).pipe(Scope.provide(scope))
      yield* waitForStderr(child, /ready/)
      const started = Date.now()
      yield* Scope.close(scope, Exit.void)
      const elapsed = Date.now() - started
      assert.isAtLeast(elapsed, 550)
      assert.isBelow(elapsed, 3000)
      assert.deepStrictEqual(yield* child.exit, { code: null, signal: "SIGKILL" })
      assert.isFalse(isAlive(child.pid))
      const tail = yield* child.stderrTail
      assert.isTrue(tail.some((l) => l.includes("stdin ended, staying")), tail.join("\n"))
    }))

  it.live("closing kills the whole process group, grandchildren included", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const child = yield* NodeStdio.makeClient({
        ...mjsFixture("group-leader.mjs"),
        closeTimeout: "1 second",
        killTimeout: "300 millis"
      }).pipe(Scope.provide(scope))
      const line = yield* waitForStderr(child, /grandchild pid=/)
      const grandchild = Number(line.split("=")[1])
      assert.isTrue(isAlive(grandchild))
      yield* Scope.close(scope, Exit.void)
      assert.deepStrictEqual(yield* child.exit, { code: 0, signal: null })
      // the grandchild ignores SIGTERM: it went with the group's SIGKILL
      yield* Effect.sleep("50 millis")
      assert.isFalse(isAlive(grandchild), `grandchild ${grandchild} survived`)
    }))

  it.live("a child exiting mid-call fails the pending request with its exit code and last stderr line", () =>
    Effect.gen(function*() {
      const child = yield* NodeStdio.StdioChild
      const engine = yield* clientEngine(child.transport)
      yield* waitForStderr(child, /started/)
      const started = Date.now()
      const error = yield* Effect.flip(engine.request("anything"))
      assert.isBelow(Date.now() - started, 2000)
      assert.strictEqual(error._tag, "ProtocolError")
      if (error._tag !== "ProtocolError") return
      assert.strictEqual(error.reason, "ConnectionClosed")
      assert.match(error.message, /exited with code 3/)
      assert.match(error.message, /fatal: crashing on purpose/)
      // the engine is closed, and writing to the dead child fails, never throws
      yield* engine.closed
      const sendError = yield* Effect.flip(child.transport.send(JsonRpc.notification("late")))
      assert.strictEqual(sendError._tag, "TransportError")
      assert.match(sendError.message, /exited with code 3/)
    }).pipe(Effect.scoped, Effect.provide(NodeStdio.layerClient(mjsFixture("crash-on-request.mjs")))))

  it.live("an engine child exiting mid-call (TypeScript fixture, method exit)", () =>
    Effect.gen(function*() {
      const child = yield* NodeStdio.StdioChild
      const engine = yield* clientEngine(child.transport)
      const pending = yield* Effect.forkChild(engine.request("hang"))
      const error = yield* Effect.flip(engine.request("exit"))
      assert.strictEqual(error._tag, "ProtocolError")
      assert.match(error.message, /exited with code 3.*\n(.*\n)*fatal: exiting on request/)
      const other = yield* Effect.flip(Fiber.join(pending))
      assert.strictEqual(other._tag, "ProtocolError")
      assert.strictEqual((other as { reason?: string }).reason, "ConnectionClosed")
    }).pipe(Effect.scoped, Effect.provide(NodeStdio.layerClient(tsFixture("echo-server")))))

  it.live("a child killed with SIGKILL mid-call fails the pending request promptly", () =>
    Effect.gen(function*() {
      const child = yield* NodeStdio.StdioChild
      const engine = yield* clientEngine(child.transport)
      yield* waitForStderr(child, /silent: ready/)
      const pending = yield* Effect.forkChild(engine.request("never-answered"))
      yield* Effect.sleep("50 millis")
      const killed = Date.now()
      process.kill(child.pid, "SIGKILL")
      const error = yield* Effect.flip(Fiber.join(pending))
      assert.isBelow(Date.now() - killed, 1500)
      assert.strictEqual(error._tag, "ProtocolError")
      if (error._tag !== "ProtocolError") return
      assert.strictEqual(error.reason, "ConnectionClosed")
      assert.match(error.message, /killed by signal SIGKILL/)
      assert.match(error.message, /silent: ready/)
    }).pipe(Effect.scoped, Effect.provide(NodeStdio.layerClient(mjsFixture("silent.mjs")))))

  it.live("a command that cannot start fails the layer with a TransportError", () =>
    Effect.gen(function*() {
      const error = yield* Layer.build(NodeStdio.layerClient({ command: "/nonexistent/mcp-server-xyz" })).pipe(
        Effect.scoped,
        Effect.flip
      )
      assert.strictEqual(error._tag, "TransportError")
      assert.match(error.message, /could not start .*ENOENT/)
    }))
})
