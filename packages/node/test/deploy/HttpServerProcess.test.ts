/**
 * The conformance server as a process, as users deploy it: a request sent the
 * moment its port accepts (a load balancer's probe, a client started beside
 * it) is answered; clients that ask for large answers and never read cannot
 * pin its memory, and others are served meanwhile.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import { bytesRead, connectSoon, freePort } from "../httpUtil.js"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url))
const MiB = 1024 * 1024

/** The conformance server on `port`; its stderr gathered; killed when the scope closes. */
const program = (port: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn(process.execPath, [bundled("conformance-server"), "--port", String(port)], {
        cwd: repoRoot,
        stdio: ["pipe", "pipe", "pipe"]
      })
      const out = { child, stderr: "" }
      child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString("utf8")))
      return out
    }),
    ({ child }) => Effect.sync(() => child.kill("SIGKILL"))
  )

/** Waits (real time, bounded) until the program printed `listening`. */
const listening = (out: { readonly child: ChildProcessWithoutNullStreams; stderr: string }) =>
  Effect.gen(function*() {
    for (let i = 0; i < 2_000 && !/listening on/.test(out.stderr); i++) yield* Effect.sleep(5)
    assert.match(out.stderr, /listening on/)
  })

const HEAD = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "outside", version: "1" } }
}

/** A raw POST on `socket`; the socket is returned as it is (paused when `unread`). */
const writePost = (socket: net.Socket, port: number, body: unknown, extra: Record<string, string> = {}) => {
  const text = JSON.stringify(body)
  const fields = { ...HEAD, ...extra, host: `127.0.0.1:${port}`, "content-length": String(Buffer.byteLength(text)) }
  socket.write(`POST /mcp HTTP/1.1\r\n${Object.entries(fields).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n${text}`)
  return socket
}

/** The status line of what comes on `socket`, or undefined after `ms`. */
const statusLine = (socket: net.Socket, ms: number) =>
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
    return Effect.sync(() => clearTimeout(timer))
  })

/**
 * Whether the server began to answer on a socket this process reads nothing of: bytes wait in
 * its kernel receive queue, or the connection is no longer established (read from
 * /proc/net/tcp, as the socket is paused).
 */
const answered = (socket: net.Socket): boolean => {
  const local = `0100007F:${socket.localPort!.toString(16).toUpperCase().padStart(4, "0")}`
  for (const line of fs.readFileSync("/proc/net/tcp", "utf8").split("\n")) {
    const fields = line.trim().split(/\s+/)
    if (fields[1] !== local) continue
    const rxQueue = parseInt(fields[4]!.split(":")[1]!, 16)
    return rxQueue > 0 || fields[3] !== "01"
  }
  return true
}

/** The process's resident memory, from /proc. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024

describe("the HTTP server as a process", () => {
  it.live("a POST sent the moment the port accepts a connection is answered", () =>
    Effect.gen(function*() {
      for (let round = 0; round < 3; round++) {
        const port = yield* freePort
        yield* program(port)
        const socket = yield* connectSoon(port)
        yield* Effect.addFinalizer(() => Effect.sync(() => socket.destroy()))
        writePost(socket, port, INIT)
        const head = yield* statusLine(socket, 10_000)
        assert.strictEqual(head, "HTTP/1.1 200 OK", `round ${round}: the first POST was never answered`)
      }
    }))

  it.live("clients that ask for large answers and never read do not pin its memory; another is served promptly", () =>
    Effect.gen(function*() {
      const port = yield* freePort
      const out = yield* program(port)
      yield* listening(out)
      const url = `http://127.0.0.1:${port}/mcp`
      const init = yield* Effect.promise(() => fetch(url, { method: "POST", headers: HEAD, body: JSON.stringify(INIT) }))
      yield* Effect.promise(() => init.text())
      const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" }
      yield* Effect.promise(() =>
        fetch(url, { method: "POST", headers: { ...HEAD, ...session }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' })
          .then((r) => r.text())
      )
      const rssBefore = rssOf(out.child.pid!)
      const silent = (bytes: number, n: number, first: number) =>
        Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) =>
          Effect.map(connectSoon(port), (socket) =>
            writePost(
              socket,
              port,
              { jsonrpc: "2.0", id: first + i, method: "tools/call", params: { name: "blob", arguments: { bytes } } },
              { ...session, connection: "close" }
            ).pause()))
      // 8 answers of 32 MiB, each over the per-response default; then 8 of 20 MiB, 160 MiB
      // together, over the default total of 128 MiB (6 fit)
      const large = yield* silent(32 * MiB, 8, 100)
      const medium = yield* silent(20 * MiB, 8, 200)
      yield* Effect.addFinalizer(() => Effect.sync(() => [...large, ...medium].forEach((s) => s.destroy())))
      // every answer was made, and written or cut (its making takes seconds on a busy machine)
      const all = [...large, ...medium]
      for (let i = 0; i < 600 && !all.every(answered); i++) yield* Effect.sleep(50)
      assert.isTrue(all.every(answered), "the answers were not all made in 30 s")
      yield* Effect.sleep("500 millis")
      const rss = rssOf(out.child.pid!) - rssBefore
      // another client is served promptly meanwhile
      const start = Date.now()
      const echo = yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: { ...HEAD, ...session },
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: "served" } } })
        })
        return response.text()
      })
      assert.include(echo, "served")
      assert.isBelow(Date.now() - start, 3_000)
      const readLarge = yield* Effect.forEach(large, bytesRead, { concurrency: "unbounded" })
      const readMedium = yield* Effect.forEach(medium, bytesRead, { concurrency: "unbounded" })
      // what it holds (at most the 128 MiB budget; 416 MiB without the budgets) and the garbage
      // of making the answers, not yet collected
      assert.isBelow(rss, 400 * MiB, `the server grew by ${Math.round(rss / MiB)} MiB`)
      assert.match(out.stderr, /over the server's budget of 134217728/)
      assert.strictEqual(readLarge.filter((b) => b > 32 * MiB).length, 0, `32 MiB answers read whole: ${readLarge.join(", ")}`)
      assert.isAtMost(readMedium.filter((b) => b > 20 * MiB).length, 6, `20 MiB answers read whole: ${readMedium.join(", ")}`)
    }), 60_000)
})
