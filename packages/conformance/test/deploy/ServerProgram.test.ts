/**
 * The conformance server as a program, driven from outside: its session
 * limits on the command line, and its stdio session's lifecycle.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import * as http from "node:http"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"
import { roundRobin } from "../../../node/test/roundRobin.js"
import { describeRedis, REDIS_URL, testPrefix } from "../../../redis/test/redis.js"

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url))

/** Starts the program; killed when the scope closes. */
const program = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, [bundled("conformance-server"), ...args], {
        cwd: repoRoot,
        stdio: ["pipe", "pipe", "pipe"],
        env: { ...process.env, ...env }
      })
    ),
    (child) => Effect.sync(() => child.kill("SIGKILL"))
  )

/** Everything the program wrote to stderr until it exited, and its exit code. */
const exitOf = (child: ChildProcessWithoutNullStreams) =>
  Effect.callback<{ readonly code: number | null; readonly stderr: string }>((resume) => {
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.once("exit", (code) => resume(Effect.succeed({ code, stderr })))
  })

/** The URL the program prints once it listens. */
const listening = (child: ChildProcessWithoutNullStreams) =>
  Effect.callback<string>((resume) => {
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8")
      const match = /listening on (\S+)/.exec(stderr)
      if (match !== null) resume(Effect.succeed(match[1]!))
    })
    child.once("exit", (code) => resume(Effect.die(new Error(`the server exited (${code}): ${stderr}`))))
  })

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const init = (protocolVersion: string, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "outside", version: "1" } }
})

const post = (url: string, body: unknown, session?: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: session === undefined ? HEADERS : { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify(body)
    })
    await response.text()
    return { status: response.status, session: response.headers.get("mcp-session-id") ?? undefined }
  })

/** Writes lines to a stdio server and reads its answers, one line each. */
const stdioPeer = (child: ChildProcessWithoutNullStreams) => {
  let buffer = ""
  const lines: Array<string> = []
  const waiting: Array<(line: string) => void> = []
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8")
    let newline: number
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
      const next = waiting.shift()
      if (next !== undefined) next(line)
      else lines.push(line)
    }
  })
  return {
    send: (message: unknown) => Effect.sync(() => child.stdin.write(`${JSON.stringify(message)}\n`)),
    next: Effect.callback<any>((resume) => {
      const line = lines.shift()
      if (line !== undefined) return resume(Effect.succeed(JSON.parse(line)))
      waiting.push((l) => resume(Effect.succeed(JSON.parse(l))))
    })
  }
}

describe("the conformance server program", () => {
  it.live("--max-sessions answers 503 past the limit; --idle-timeout closes idle sessions", () =>
    Effect.gen(function*() {
      const child = yield* program(["--port", "0", "--idle-timeout", "300ms", "--max-sessions", "2"])
      const url = yield* listening(child)
      const first = yield* post(url, init("2025-11-25"))
      assert.strictEqual(first.status, 200)
      assert.strictEqual((yield* post(url, init("2025-11-25"))).status, 200)
      assert.strictEqual((yield* post(url, init("2025-11-25"))).status, 503)
      // idle for longer than the timeout: closed, and room for new ones
      yield* Effect.sleep("1 second")
      assert.strictEqual((yield* post(url, { jsonrpc: "2.0", id: 2, method: "ping" }, first.session)).status, 404)
      assert.strictEqual((yield* post(url, init("2025-11-25"))).status, 200)
    }))

  it.live("--cors answers a page of that origin (preflight, exposed headers), refuses others; --allowed-hosts admits a public Host", () =>
    Effect.gen(function*() {
      const child = yield* program(["--port", "0", "--cors", "https://app.example.com", "--cors", "https://*.example.org", "--allowed-hosts", "mcp.example.net"])
      const url = yield* listening(child)
      const preflight = (origin: string) =>
        Effect.promise(() =>
          fetch(url, {
            method: "OPTIONS",
            headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-session-id, traceparent" }
          })
        )
      const ok = yield* preflight("https://app.example.com")
      assert.strictEqual(ok.status, 204)
      assert.strictEqual(ok.headers.get("access-control-allow-headers"), "content-type, mcp-session-id, traceparent")
      assert.strictEqual((yield* preflight("https://docs.example.org")).status, 204)
      const evil = yield* preflight("https://evil.example.com")
      assert.strictEqual(evil.status, 403)
      assert.isNull(evil.headers.get("access-control-allow-origin"))
      const page = yield* Effect.promise(() =>
        fetch(url, { method: "POST", headers: { ...HEADERS, origin: "https://app.example.com" }, body: JSON.stringify(init("2025-11-25")) })
      )
      assert.strictEqual(page.status, 200)
      assert.include(page.headers.get("access-control-expose-headers")!, "Mcp-Session-Id")
      yield* Effect.promise(() => page.text())
      // a public name in front of the server (node's fetch sets Host from the URL: a raw request says another)
      const host = (name: string) =>
        Effect.promise(() =>
          new Promise<number>((resolve, reject) => {
            const target = new URL(url)
            const body = JSON.stringify(init("2025-11-25"))
            const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { ...HEADERS, host: name, "content-length": Buffer.byteLength(body) } }, (res) => {
              res.resume()
              resolve(res.statusCode ?? 0)
            })
            req.on("error", reject)
            req.end(body)
          })
        )
      assert.strictEqual(yield* host("mcp.example.net"), 200)
      assert.strictEqual(yield* host("other.example.net"), 403)
    }))

  it.live("a bad --idle-timeout is a usage error", () =>
    Effect.gen(function*() {
      // one program start costs a second or more: one case each
      const child = yield* program(["--port", "0", "--idle-timeout", "soon"])
      const exit = yield* exitOf(child)
      assert.strictEqual(exit.code, 2)
      assert.match(exit.stderr, /invalid --idle-timeout: soon/)
    }))

  it.live("stdio: a second initialize is refused and the version stays (batches still refused)", () =>
    Effect.gen(function*() {
      const peer = stdioPeer(yield* program(["--stdio"]))
      yield* peer.send(init("2025-11-25", 1))
      assert.strictEqual((yield* peer.next).result.protocolVersion, "2025-11-25")
      yield* peer.send({ jsonrpc: "2.0", method: "notifications/initialized" })
      yield* peer.send(init("2025-03-26", 2))
      const again = yield* peer.next
      assert.strictEqual(again.id, 2)
      assert.strictEqual(again.error?.code, -32600)
      yield* peer.send([{ jsonrpc: "2.0", id: 3, method: "ping" }, { jsonrpc: "2.0", id: 4, method: "ping" }])
      const batch = yield* peer.next
      assert.isFalse(Array.isArray(batch), "a batch was answered under 2025-11-25")
      assert.strictEqual(batch.error?.code, -32600)
    }))
})

/** Our client on the 2026-07-28 era, answering the fixture's elicitations; `asked` records them. */
const mrtrClient = (url: string, asked: Array<string>) =>
  Layer.build(
    McpClient.layer({
      name: "outside",
      version: "1.0.0",
      era: "auto",
      elicitation: {
        form: (params) =>
          Effect.sync(() => {
            asked.push(params.message)
            return { action: "accept" as const, content: params.message.includes("color") ? { color: "teal" } : { name: "Ada" } }
          })
      }
    }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
  ).pipe(Effect.orDie, Effect.flatMap((context) => McpClient.McpClient.pipe(Effect.provide(context))))

describeRedis("the conformance server program with --redis", () => {
  it.live("two instances on one Redis serve one session: initialize on one, the rest on the other, DELETE ends it on both", () =>
    Effect.gen(function*() {
      const prefix = yield* testPrefix
      const [a, b] = yield* Effect.all([
        Effect.flatMap(program(["--port", "0", "--redis", REDIS_URL, "--instance-id", "a"], { REDIS_PREFIX: prefix }), listening),
        Effect.flatMap(program(["--port", "0", "--redis", REDIS_URL, "--instance-id", "b"], { REDIS_PREFIX: prefix }), listening)
      ], { concurrency: "unbounded" })
      const first = yield* post(a, init("2025-11-25"))
      assert.strictEqual(first.status, 200)
      assert.strictEqual((yield* post(b, { jsonrpc: "2.0", method: "notifications/initialized" }, first.session)).status, 202)
      assert.strictEqual((yield* post(b, { jsonrpc: "2.0", id: 2, method: "tools/list" }, first.session)).status, 200)
      const deleted = yield* Effect.promise(() =>
        fetch(b, { method: "DELETE", headers: { ...HEADERS, "mcp-session-id": first.session!, "mcp-protocol-version": "2025-11-25" } })
      )
      assert.strictEqual(deleted.status, 200)
      assert.strictEqual((yield* post(a, { jsonrpc: "2.0", id: 3, method: "ping" }, first.session)).status, 404)
    }))

  it.live("instances given the same requestState keys (flag or MCP_REQUEST_STATE_KEYS) take each other's multi-round-trip retries", () =>
    Effect.gen(function*() {
      const prefix = yield* testPrefix
      const keys = `${prefix}-new-key-of-at-least-32-bytes,${prefix}-old-key-of-at-least-32-bytes`
      const fleet = (args: ReadonlyArray<string>, env: Record<string, string>) =>
        Effect.flatMap(program(["--port", "0", "--redis", REDIS_URL, ...args], { REDIS_PREFIX: prefix, ...env }), listening)
      const [a, b, other] = yield* Effect.all([
        fleet(["--request-state-keys", keys], {}),
        fleet([], { MCP_REQUEST_STATE_KEYS: keys }),
        fleet([], { MCP_REQUEST_STATE_KEYS: `${prefix}-another-key-of-at-least-32-bytes` })
      ], { concurrency: "unbounded" })
      const port = (url: string) => Number(new URL(url).port)
      const asked: Array<string> = []
      const call = (ports: ReadonlyArray<number>) =>
        Effect.gen(function*() {
          const proxy = yield* roundRobin(ports)
          const client = yield* mrtrClient(proxy.url, asked)
          const result = yield* Effect.result(client.callTool("test_input_required_result_multi_round", {}))
          return { result, targets: proxy.routed.map((r) => r.target) }
        })
      const shared = yield* call([port(a), port(b)])
      assert.deepStrictEqual(shared.result._tag === "Success" ? shared.result.success.content : shared.result.failure, [
        { type: "text", text: "Ada likes teal" }
      ])
      // the client's discovery, then two rounds and the call that completes, alternating between the instances
      assert.deepStrictEqual(shared.targets, [0, 1, 0, 1])
      assert.deepStrictEqual(asked, ["Step 1: What is your name?", "Step 2: What is your favorite color?"])
      // another key: the state the first instance signed is refused by the second (-32602)
      const refused = yield* call([port(a), port(other)])
      assert.isTrue(refused.result._tag === "Failure")
      assert.include(String((refused.result as { failure: { message: string } }).failure.message), "Invalid requestState")
    }))

  it.live("--instance-id without --redis is a usage error", () =>
    Effect.gen(function*() {
      const exit = yield* exitOf(yield* program(["--port", "0", "--instance-id", "a"]))
      assert.strictEqual(exit.code, 2)
      assert.match(exit.stderr, /--instance-id needs --redis/)
    }))
})
