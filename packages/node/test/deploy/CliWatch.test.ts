/**
 * `emcp` on what lasts: `resources subscribe` and `watch` (notifications until interrupted or
 * `--count`), a request refused with -32042 (URL elicitation: the URL shown, the completion waited
 * for, the request sent again), and the end of a call by Ctrl-C (SIGINT to the emcp process) or by
 * `--timeout`: the server must read `notifications/cancelled` for it. Against `fixtures/recording-server.mjs`,
 * which logs every message it reads.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"
import * as Fixture from "../../../conformance/src/Fixture.js"
import * as FixtureTasks from "../../../conformance/src/Tasks.js"
import { emcp, type Run } from "../cliRun.js"
import { startServer } from "../httpUtil.js"

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url))
const fixture = fileURLToPath(new URL("../fixtures/recording-server.mjs", import.meta.url))

/** A new log file and the `--stdio` command of a recording server writing to it. */
const recording = () => {
  const log = join(mkdtempSync(join(tmpdir(), "emcp-rec-")), "messages.jsonl")
  writeFileSync(log, "")
  return { log, stdio: `'${process.execPath}' '${fixture}' '${log}'` }
}
const messages = (log: string): Array<{ id?: unknown; method?: string; params?: Record<string, unknown> }> =>
  existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)) : []

/** Waits (polling, real time: another process writes it) until `found` holds for the log. */
const until = (log: string, found: (ms: ReturnType<typeof messages>) => boolean, what: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      if (found(messages(log))) return
      yield* Effect.sleep("50 millis")
    }
    assert.fail(`${what}: not in the log after 10 s: ${JSON.stringify(messages(log))}`)
  })

/** `emcp` as a process (`src/cli.ts` bundled), to be signalled. */
const emcpProcess = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn(process.execPath, [bundled("cli"), ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
      const exited = new Promise<Run>((resolve) => child.on("close", (code, signal) => resolve({ code: code ?? (signal === null ? null : -1), stdout, stderr })))
      return { child, exited: Effect.promise(() => exited) }
    }),
    ({ child }) => Effect.sync(() => void (child.exitCode === null && child.kill("SIGKILL")))
  )

const assertOk = (run: Run) => assert.strictEqual(run.code, 0, `exit code; stderr: ${run.stderr}`)

describe("emcp resources subscribe / watch", () => {
  it.live("resources subscribe URI --count 2 --json: the updates, one JSON line each", () =>
    Effect.gen(function*() {
      const { log, stdio } = recording()
      const run = yield* emcp("--stdio", stdio, "resources", "subscribe", "res://a", "--count", "2", "--json")
      assertOk(run)
      const out = run.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
      assert.deepStrictEqual(out, [
        { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "res://a" } },
        { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "res://a" } }
      ])
      assert.deepStrictEqual(messages(log).find((m) => m.method === "resources/subscribe")?.params, { uri: "res://a" })
    }), 30_000)

  it.live("watch --resource URI --count 1: one line for people", () =>
    Effect.gen(function*() {
      const { stdio } = recording()
      const run = yield* emcp("--stdio", stdio, "watch", "--resource", "res://b", "--count", "1")
      assertOk(run)
      assert.strictEqual(run.stdout, "resources/updated res://b\n")
      assert.include(run.stderr, "emcp: watching res://b")
    }), 30_000)

  it.live("Ctrl-C ends a subscription: exit 130, after the updates printed so far", () =>
    Effect.gen(function*() {
      const { stdio } = recording()
      const { child, exited } = yield* emcpProcess(["--stdio", stdio, "resources", "subscribe", "res://c"])
      // wait for the first update on stdout
      yield* Effect.promise(() => new Promise<void>((resolve) => child.stdout.on("data", () => resolve())))
      child.kill("SIGINT")
      const run = yield* exited
      assert.strictEqual(run.code, 130, run.stderr)
      assert.match(run.stdout, /^(resources\/updated res:\/\/c\n)+$/)
    }).pipe(Effect.scoped), 30_000)
})

describe("emcp resources subscribe over HTTP, in both eras (client.listen)", () => {
  // the conformance resources, and test://watched-resource updated every 100 ms
  const updating = Layer.effectDiscard(
    McpServer.notifyResourceUpdated("test://watched-resource").pipe(Effect.repeat(Schedule.spaced("100 millis")), Effect.forkScoped)
  )
  for (const protocol of ["2025-11-25", "2026-07-28"]) {
    it.live(`--protocol ${protocol}`, () =>
      Effect.gen(function*() {
        const { url } = yield* startServer(Layer.merge(Fixture.Resources, updating))
        const run = yield* emcp("--url", url, "--protocol", protocol, "resources", "subscribe", "test://watched-resource", "--count", "2")
        assertOk(run)
        assert.strictEqual(run.stdout, "resources/updated test://watched-resource\n".repeat(2))
      }).pipe(Effect.scoped), 30_000)
  }
})

describe("emcp: a URL elicitation required (-32042)", () => {
  it.live("shows the URL, waits for notifications/elicitation/complete, sends the call again", () =>
    Effect.gen(function*() {
      const { log, stdio } = recording()
      const run = yield* emcp("--stdio", stdio, "tools", "call", "url_login")
      assertOk(run)
      assert.strictEqual(run.stdout, "logged in\n")
      assert.include(run.stderr, "https://example.com/login?e=1")
      assert.include(run.stderr, "Sign in to continue")
      assert.strictEqual(messages(log).filter((m) => m.method === "tools/call").length, 2)
    }), 30_000)

  it.live("--elicit decline: the error is the failure, no second call", () =>
    Effect.gen(function*() {
      const { log, stdio } = recording()
      const run = yield* emcp("--stdio", stdio, "--elicit", "decline", "tools", "call", "url_login")
      assert.strictEqual(run.code, 1, run.stderr)
      assert.include(run.stderr, "-32042")
      assert.strictEqual(messages(log).filter((m) => m.method === "tools/call").length, 1)
    }), 30_000)
})

describe("emcp: the end of a call reaches the server as notifications/cancelled", () => {
  const cancelledFor = (log: string) => {
    const call = messages(log).find((m) => m.method === "tools/call")
    return messages(log).find((m) => m.method === "notifications/cancelled" && m.params?.requestId === call?.id)
  }

  it.live("Ctrl-C (SIGINT to emcp) in a call", () =>
    Effect.gen(function*() {
      const { log, stdio } = recording()
      const { child, exited } = yield* emcpProcess(["--stdio", stdio, "tools", "call", "hang"])
      yield* until(log, (ms) => ms.some((m) => m.method === "tools/call"), "the call")
      child.kill("SIGINT")
      const run = yield* exited
      assert.strictEqual(run.code, 130, run.stderr)
      yield* until(log, () => cancelledFor(log) !== undefined, "notifications/cancelled of the call")
    }).pipe(Effect.scoped), 30_000)

  it.live("--timeout", () =>
    Effect.gen(function*() {
      const { log, stdio } = recording()
      const run = yield* emcp("--stdio", stdio, "--timeout", "1s", "tools", "call", "hang")
      assert.strictEqual(run.code, 1, run.stderr)
      assert.include(run.stderr, "timed out after")
      yield* until(log, () => cancelledFor(log) !== undefined, "notifications/cancelled of the call")
    }), 30_000)
})

/**
 * A streamable HTTP server by hand (2025-11-25) recording what it reads: `tools/call` gets an SSE
 * stream that never answers, a notification 202, DELETE 200, GET 405.
 */
const recordingHttp = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ url: string; seen: Array<string>; close: () => Promise<void> }>((resolve) => {
      const seen: Array<string> = []
      const server = createServer((req, res) => {
        if (req.method === "DELETE") {
          seen.push("DELETE")
          return res.writeHead(200).end()
        }
        if (req.method !== "POST") return res.writeHead(405).end()
        let body = ""
        req.on("data", (d) => (body += d)).on("end", () => {
          const message = JSON.parse(body)
          seen.push(message.method === "notifications/cancelled" ? `cancelled ${message.params.requestId}` : message.method === "tools/call" ? `tools/call ${message.id}` : message.method)
          if (message.id === undefined) return res.writeHead(202).end()
          if (message.method === "initialize") {
            return res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(JSON.stringify({
              jsonrpc: "2.0",
              id: message.id,
              result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "rec", version: "1" } }
            }))
          }
          if (message.method === "tools/call") return res.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n")
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {} }))
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resolve({
          url: `http://127.0.0.1:${port}/mcp`,
          seen,
          close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()) })
        })
      })
    })
  ),
  (server) => Effect.promise(() => server.close())
)

describe("emcp over HTTP: the end of a call reaches the server as notifications/cancelled, before the DELETE", () => {
  const assertCancelledThenDeleted = (seen: ReadonlyArray<string>) => {
    const call = seen.find((s) => s.startsWith("tools/call "))
    assert.isDefined(call, JSON.stringify(seen))
    const cancelled = seen.indexOf(`cancelled ${call!.slice("tools/call ".length)}`)
    assert.isAtLeast(cancelled, 0, `no notifications/cancelled of the call: ${JSON.stringify(seen)}`)
    assert.isAbove(seen.indexOf("DELETE"), cancelled, JSON.stringify(seen))
  }

  it.live("--timeout", () =>
    Effect.gen(function*() {
      const server = yield* recordingHttp
      const run = yield* emcp("--url", server.url, "--protocol", "2025-11-25", "--timeout", "1s", "tools", "call", "hang")
      assert.strictEqual(run.code, 1, run.stderr)
      assert.include(run.stderr, "timed out after")
      assertCancelledThenDeleted(server.seen)
    }).pipe(Effect.scoped), 30_000)

  it.live("Ctrl-C (SIGINT to emcp)", () =>
    Effect.gen(function*() {
      const server = yield* recordingHttp
      const { child, exited } = yield* emcpProcess(["--url", server.url, "--protocol", "2025-11-25", "tools", "call", "hang"])
      for (let i = 0; i < 200 && !server.seen.some((s) => s.startsWith("tools/call")); i++) yield* Effect.sleep("50 millis")
      child.kill("SIGINT")
      const run = yield* exited
      assert.strictEqual(run.code, 130, run.stderr)
      assertCancelledThenDeleted(server.seen)
    }).pipe(Effect.scoped), 30_000)
})

describe("emcp tools call --task: the end of the command cancels the task", () => {
  // on 2026 a task outlives the connection, so another emcp can ask for it (a 2025 task is the session's)
  for (const protocol of ["2026-07-28"]) {
    it.live(`--timeout, --protocol ${protocol}: tasks/get then says cancelled`, () =>
      Effect.gen(function*() {
        const { url } = yield* startServer(FixtureTasks.TasksLive)
        const run = yield* emcp("--url", url, "--protocol", protocol, "--timeout", "1s", "tools", "call", "slow_compute", `{"seconds":60}`, "--task")
        assert.strictEqual(run.code, 1, run.stderr)
        assert.include(run.stderr, "timed out after")
        const taskId = /^task ([0-9a-f-]{36}) /m.exec(run.stderr)?.[1]
        assert.isDefined(taskId, run.stderr)
        const got = yield* emcp("--url", url, "--protocol", protocol, "--json", "call", "tasks/get", JSON.stringify({ taskId }))
        assertOk(got)
        assert.strictEqual(JSON.parse(got.stdout).status, "cancelled", got.stdout)
      }).pipe(Effect.scoped), 30_000)
  }
})
