/**
 * Clients that go away or stop reading, against the node listener: what the
 * server keeps for them must end with them.
 */
import { assert, describe, it } from "@effect/vitest"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import * as net from "node:net"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import { bytesRead, headers, initialize, messagesOf, startServer, withLive } from "../httpUtil.js"

let started = 0
const Hang = McpServer.tool({
  name: "hang",
  description: "never answers",
  handler: () => Effect.andThen(Effect.sync(() => started++), Effect.never)
})
const Echo = McpServer.tool({
  name: "echo",
  description: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const Big = McpServer.tool({
  name: "big",
  description: "one 2 MiB progress message, then an answer",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(1, { message: "x".repeat(2 * 1024 * 1024) })
      return "big done"
    })
})
let floodDone = false
const Flood = McpServer.tool({
  name: "flood",
  description: "1000 progress notifications of 32 KiB each",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= 1000; i++) yield* ctx.progress(i, { message: "x".repeat(32 * 1024) })
      floodDone = true
      return "flooded"
    })
})
let blobs = 0
const Blob = McpServer.tool({
  name: "blob",
  description: "one text of `bytes` x",
  parameters: Schema.Struct({ bytes: Schema.Int }),
  handler: ({ bytes }) => Effect.sync(() => (blobs++, "x".repeat(bytes)))
})
let sent = 0
const Pour = McpServer.tool({
  name: "pour",
  description: "400 progress notifications of 256 KiB each",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= 400; i++) {
        yield* ctx.progress(i, { message: "x".repeat(256 * 1024) })
        sent = i
      }
      return "poured"
    })
})
const Features = McpServer.register(Hang, Echo, Big, Flood, Blob, Pour)

const call = (id: number, name: string, args: Record<string, unknown> = {}, progress = false) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(progress ? { _meta: { progressToken: id } } : {}) }
  })

/** A raw POST on its own socket; the socket is returned unread. */
const rawPost = (port: number, body: string, extra: Record<string, string> = {}) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      const lines = Object.entries({ ...headers(extra), host: `127.0.0.1:${port}`, "content-length": String(Buffer.byteLength(body)) })
        .map(([k, v]) => `${k}: ${v}`)
      socket.write(`POST /mcp HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`)
      resolve(socket)
    })
    socket.on("error", reject)
  })

const sleepLive = (ms: number) => withLive(Effect.sleep(ms))

/** Polls (in real time) until `done` holds, or gives up after `ms`. */
const until = (done: () => boolean, ms = 5_000) =>
  Effect.gen(function*() {
    for (let waited = 0; !done() && waited < ms; waited += 5) yield* sleepLive(5)
    return done()
  })

const gc: () => void = (() => {
  v8.setFlagsFromString("--expose-gc")
  return vm.runInNewContext("gc")
})()

const heapAfterGc = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Heap and the memory outside it (buffers), after a GC. */
const heldAfterGc = () => {
  gc()
  gc()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.external
}

describe("clients that hang up or stop reading", () => {
  for (const jsonResponse of [true, false]) {
    it.live(`stateless, ${jsonResponse ? "JSON" : "SSE"}: 1,000 hang-ups before the answer leave no session and no heap`, () =>
      Effect.gen(function*() {
        const { mcp, port } = yield* startServer(Features, { sessionPerRequest: true, jsonResponse })
        const round = (n: number) =>
          Effect.gen(function*() {
            const before = started
            const sockets = yield* Effect.promise(() =>
              Promise.all(Array.from({ length: n }, (_, i) => rawPost(port, call(i + 1, "hang"))))
            )
            // every handler runs: each POST is inside its session, waiting for its answer
            assert.isTrue(yield* until(() => started - before === n), "the handlers never started")
            for (const socket of sockets) socket.destroy()
          })
        yield* round(100)
        assert.isTrue(yield* until(() => Effect.runSync(mcp.sessionCount) === 0), "warm-up sessions left")
        const heapBefore = heapAfterGc()
        for (let i = 0; i < 9; i++) yield* round(100)
        // the server notices each hang-up
        const empty = yield* until(() => Effect.runSync(mcp.sessionCount) === 0)
        assert.strictEqual(yield* mcp.sessionCount, 0, "sessions outlived their hung-up POSTs")
        assert.isTrue(empty)
        const grown = heapAfterGc() - heapBefore
        // a leaked session is ~40 KB: 900 of them would be ~36 MB
        assert.isBelow(grown, 8 * 1024 * 1024, `heap grew by ${grown} bytes`)
      }), 30_000)
  }

  it.live("a client that never reads is cut off past its byte budget while another is served", () =>
    Effect.gen(function*() {
      const logs: Array<string> = []
      const { port, url } = yield* startServer(Features, { maxBufferedBytes: 1024 * 1024 }).pipe(
        Effect.provide(Logger.layer([Logger.make(({ message }) => logs.push(String(message)))]))
      )
      const sid = yield* initialize(url)
      const session = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
      const silent = yield* Effect.promise(() => rawPost(port, call(2, "big", {}, true), session))
      silent.pause()
      assert.isTrue(yield* until(() => logs.some((l) => /over its budget/.test(l))), `no cut in the log: ${logs.join("; ")}`)
      // another client is served meanwhile
      const other = yield* initialize(url)
      const echo = yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: headers({ "mcp-session-id": other, "mcp-protocol-version": "2025-11-25" }),
          body: call(3, "echo", { text: "served" })
        })
        return messagesOf(await response.text())
      })
      assert.deepStrictEqual(echo[0].result.content, [{ type: "text", text: "served" }])
      // what the silent client finds when it reads at last: a stream cut short, without the answer
      const text = yield* Effect.callback<string>((resume) => {
        let got = ""
        silent.setEncoding("utf8")
        silent.on("data", (chunk: string) => (got += chunk))
        silent.on("close", () => resume(Effect.succeed(got)))
        silent.on("error", () => {})
        // a reset may have closed it already, unread
        if (silent.destroyed) resume(Effect.succeed(got))
        silent.resume()
      })
      assert.notInclude(text, "big done")
    }))

  it.live("clients that never read cannot hold more than the server's budget together; another is served promptly", () =>
    Effect.gen(function*() {
      const MiB = 1024 * 1024
      const logs: Array<string> = []
      const { port, url } = yield* startServer(Features, { maxBufferedBytes: 8 * MiB, maxTotalBufferedBytes: 16 * MiB }).pipe(
        Effect.provide(Logger.layer([Logger.make(({ message }) => logs.push(String(message)))]))
      )
      const sid = yield* initialize(url)
      const session = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25", connection: "close" }
      const before = heldAfterGc()
      blobs = 0
      // 6 answers of 6 MiB (more than the kernel's buffers take at once), each under its own
      // budget, 36 MiB together: a budget of 16 holds 2
      const silent = yield* Effect.promise(() =>
        Promise.all(Array.from({ length: 6 }, (_, i) => rawPost(port, call(10 + i, "blob", { bytes: 6 * MiB }), session)))
      )
      for (const socket of silent) socket.pause()
      assert.isTrue(yield* until(() => blobs === 6), "the blobs were not all made")
      assert.isTrue(yield* until(() => logs.some((l) => /over the server's budget/.test(l))), `no cut in the log: ${logs.join("; ")}`)
      yield* sleepLive(200)
      const held = heldAfterGc() - before
      assert.isBelow(held, 20 * MiB, `the server holds ${held} bytes for clients that do not read`)
      // another client is served meanwhile, promptly
      const start = Date.now()
      const echo = yield* Effect.promise(async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: headers({ "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }),
          body: call(3, "echo", { text: "served" })
        })
        return messagesOf(await response.text())
      })
      assert.deepStrictEqual(echo[0].result.content, [{ type: "text", text: "served" }])
      assert.isBelow(Date.now() - start, 2_000)
      // what the silent clients find when they read at last: at most 2 whole answers
      const read = yield* Effect.forEach(silent, bytesRead, { concurrency: "unbounded" }).pipe(
        Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error("a silent connection never closed")) }),
        Effect.orDie
      )
      const whole = read.filter((bytes) => bytes > 6 * MiB).length
      assert.isAtMost(whole, 2, `answers read whole: ${read.join(", ")}`)
    }))

  it.live("a whole answer over the per-response budget is not held for a client that never reads", () =>
    Effect.gen(function*() {
      const MiB = 1024 * 1024
      const logs: Array<string> = []
      const { port, url } = yield* startServer(Features, { maxBufferedBytes: 4 * MiB, jsonResponse: true }).pipe(
        Effect.provide(Logger.layer([Logger.make(({ message }) => logs.push(String(message)))]))
      )
      const sid = yield* initialize(url)
      // larger than the kernel's buffers take at once (node then holds it until the client reads)
      const socket = yield* Effect.promise(() =>
        rawPost(port, call(2, "blob", { bytes: 6 * MiB }), { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" })
      )
      socket.pause()
      assert.isTrue(yield* until(() => logs.some((l) => /over its budget of 4194304/.test(l))), `no cut in the log: ${logs.join("; ")}`)
      const bytes = yield* bytesRead(socket).pipe(Effect.timeout("10 seconds"), Effect.orDie)
      assert.isBelow(bytes, 6 * MiB)
    }))

  it.live("a stream's buffer holds a bounded number of bytes for a client that stops reading: its sender waits", () =>
    Effect.gen(function*() {
      const MiB = 1024 * 1024
      const { port, url } = yield* startServer(Features, { streamBufferBytes: MiB })
      const sid = yield* initialize(url)
      sent = 0
      const silent = yield* Effect.promise(() =>
        rawPost(port, call(2, "pour", {}, true), { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" })
      )
      silent.pause()
      // until the sender waits: nothing more is sent for 300 ms
      let last = -1
      for (let i = 0; i < 50 && sent !== last; i++) {
        last = sent
        yield* sleepLive(300)
      }
      // what the kernel's buffers took, what the response holds, 1 MiB buffered, and the
      // event its sender waits with; 256 events (64 MiB) with a buffer bounded by count alone
      assert.isBelow(sent * 256 * 1024, 24 * MiB, `${sent} events of 256 KiB sent to a client that reads nothing`)
      assert.isAbove(sent, 0)
      silent.destroy()
    }))

  it.effect("a client that stops reading is cut off after the write timeout (TestClock), freeing its sender", () =>
    Effect.gen(function*() {
      floodDone = false
      const { port, url } = yield* startServer(Features, { writeTimeout: "30 seconds" })
      const sid = yield* initialize(url)
      const silent = yield* Effect.promise(() =>
        rawPost(port, call(2, "flood", {}, true), { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" })
      )
      silent.pause()
      // the writer waits on the client and the handler on the writer: nothing moves in real time
      yield* sleepLive(300)
      assert.isFalse(floodDone, "the server buffered everything for a client that reads nothing")
      yield* TestClock.adjust("20 seconds")
      yield* sleepLive(100)
      assert.isFalse(floodDone, "cut before the write timeout")
      for (let i = 0; i < 20 && !floodDone; i++) {
        yield* TestClock.adjust("10 seconds")
        yield* sleepLive(50)
      }
      assert.isTrue(floodDone, "the handler still waits on a client that reads nothing")
      silent.destroy()
    }))
})
