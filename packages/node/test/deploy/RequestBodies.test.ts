import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as net from "node:net"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { afterEach, vi } from "vitest"
import { chunkedRequest, headers, initialize, INIT, messagesOf, rawRequest, startPlatform, startServer } from "../httpUtil.js"

// Request bodies as an attacker sends them: too long, without a length, nested without end,
// labelled JSON without being JSON; on the node listener (/mcp), the legacy endpoint and the
// endpoint as an @effect/platform app.

const Features = Layer.empty
const S = (sid: string) => ({ "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" })

afterEach(() => {
  vi.restoreAllMocks()
})

/** Opens a legacy SSE session; its messages URL. The stream is read until the scope closes. */
const legacySession = (port: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const controller = new AbortController()
      const response = await fetch(`http://127.0.0.1:${port}/sse`, { headers: { accept: "text/event-stream" }, signal: controller.signal })
      const reader = response.body!.getReader()
      let buffer = ""
      while (!buffer.includes("\n\n")) buffer += new TextDecoder().decode((await reader.read()).value)
      const sessionId = /sessionId=([0-9a-f]+)/.exec(buffer)![1]!
      return { controller, reader, url: `http://127.0.0.1:${port}/messages?sessionId=${sessionId}` }
    }),
    ({ controller }) => Effect.sync(() => controller.abort())
  )

/**
 * A POST over a raw socket whose chunked body is never finished: `chunks` go
 * out, then nothing. Resolves with what the server sent once it closes the
 * connection; a server waiting for the end of the body never resolves.
 */
const unfinishedPost = (url: string, extra: Record<string, string>, chunks: ReadonlyArray<string>) =>
  Effect.callback<{ readonly status: number; readonly head: string; readonly body: string }>((resume) => {
    const target = new URL(url)
    const socket = net.connect(Number(target.port), "127.0.0.1")
    let data = ""
    socket.setEncoding("utf8")
    socket.on("data", (text: string) => (data += text))
    // writes after the server closed fail with EPIPE or ECONNRESET: expected
    socket.on("error", () => {})
    socket.on("close", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n")
      resume(Effect.succeed({ status: Number(head.split(" ")[1]), head: head.toLowerCase(), body }))
    })
    const fields = { host: target.host, "content-type": "application/json", accept: "application/json, text/event-stream", ...extra }
    socket.write(
      `POST ${target.pathname}${target.search} HTTP/1.1\r\n` +
        Object.entries(fields).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
        "transfer-encoding: chunked\r\n\r\n"
    )
    for (const chunk of chunks) socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`)
    return Effect.sync(() => socket.destroy())
  })

/**
 * A POST over a raw socket that does not read while it sends: the head, a pause (the server
 * decides 413 from it, or from the first chunk), then `body` in 64 KiB writes, each after the
 * last was taken; then it reads. Resolves with the status line it finds, and the first write
 * error if any (what a client whose peer reset the connection gets).
 */
const busyPost = (url: string, head: Record<string, string>, body: Buffer, chunked: boolean) =>
  Effect.callback<{ readonly status: string; readonly writeError: string | undefined }>((resume) => {
    const target = new URL(url)
    const socket = net.connect(Number(target.port), "127.0.0.1")
    socket.pause()
    let writeError: string | undefined
    let data = ""
    const read = () => {
      socket.setEncoding("latin1")
      socket.on("data", (text: string) => {
        data += text
        // a whole answer on a connection kept alive (the body was read to its end) is an answer too
        const [head, body = ""] = data.split("\r\n\r\n")
        const length = /\r\ncontent-length: (\d+)/i.exec(head ?? "")
        if (length !== null && Buffer.byteLength(body, "latin1") >= Number(length[1])) socket.destroy()
      })
      socket.resume()
    }
    socket.on("error", (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message))
    const done = () => resume(Effect.succeed({ status: data.split("\r\n")[0] ?? "", writeError }))
    socket.on("close", done)
    const fields = { host: target.host, "content-type": "application/json", accept: "application/json, text/event-stream", ...head }
    socket.write(
      `POST ${target.pathname}${target.search} HTTP/1.1\r\n` + Object.entries(fields).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
        (chunked ? "transfer-encoding: chunked\r\n" : `content-length: ${body.length}\r\n`) + "\r\n"
    )
    let offset = 0
    const next = () => {
      if (socket.destroyed) return
      if (offset >= body.length) {
        if (chunked) socket.write("0\r\n\r\n")
        return read()
      }
      const piece = body.subarray(offset, offset + 64 * KiB)
      offset += piece.length
      const framed = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece
      if (socket.write(framed)) setImmediate(next)
      else socket.once("drain", next)
    }
    const timer = setTimeout(next, 50)
    return Effect.sync(() => {
      clearTimeout(timer)
      socket.destroy()
    })
  })

/** The largest stall of this process's event loop while `effect` runs, in ms. */
const worstStall = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const histogram = monitorEventLoopDelay({ resolution: 10 })
      histogram.enable()
      return histogram
    }),
    (histogram) => Effect.map(effect, (a) => [a, histogram.max / 1e6] as const),
    (histogram) => Effect.sync(() => histogram.disable())
  )

const KiB = 1024
const MiB = 1024 * KiB

describe("request bodies", () => {
  it.live("a chunked body over the limit is answered 413 as soon as the limit is crossed, and the connection closed", () =>
    Effect.gen(function*() {
      const { port, url } = yield* startServer(Features, { maxBodyBytes: 64 * KiB, legacySse: true })
      const platform = yield* startPlatform(Features, { maxBodyBytes: 64 * KiB })
      const legacy = yield* legacySession(port)
      const sid = yield* initialize(url)
      // 96 KiB sent, the end of the body never: a server that reads to the end never answers
      const chunks = Array.from({ length: 12 }, () => "x".repeat(8 * KiB))
      const targets = [["node", url, S(sid)], ["legacy", legacy.url, {}], ["platform", platform, {}]] as const
      // at once: a platform request's connection is cut after its drain's grace (5 s)
      const answers = yield* Effect.forEach(targets, ([where, target, extra]) =>
        unfinishedPost(target, extra, chunks).pipe(
          Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error(`${where}: no answer before the end of the body`)) })
        ), { concurrency: "unbounded" })
      for (const [i, [where]] of targets.entries()) {
        const answer = answers[i]!
        assert.strictEqual(answer.status, 413, where)
        // the node listener closes after its 413; a platform request's is drained behind it for
        // a bounded time (then cut: this answer came back), so the 413 keeps the connection
        if (where === "node") assert.include(answer.head, "connection: close", where)
        else assert.notInclude(answer.head, "connection: close", where)
        assert.include(answer.body, "Payload Too Large", where)
      }
      // every server goes on serving
      const ok = yield* rawRequest(url, { method: "POST", headers: headers(S(sid)), body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) })
      assert.deepStrictEqual(messagesOf(ok.text)[0], { jsonrpc: "2.0", id: 9, result: {} })
      const legacyOk = yield* rawRequest(legacy.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":9,"method":"ping"}' })
      assert.strictEqual(legacyOk.status, 202)
      const platformInit = yield* rawRequest(platform, { method: "POST", headers: headers(), body: JSON.stringify(INIT) })
      assert.strictEqual(platformInit.status, 200)
    }))

  it.live("a client still sending a body over the limit reads the 413: the server reads on, not resetting the connection", () =>
    Effect.gen(function*() {
      const { port, url } = yield* startServer(Features, { legacySse: true })
      const platform = yield* startPlatform(Features)
      const legacy = yield* legacySession(port)
      const sid = yield* initialize(url)
      // declared too long, 4 MiB + 1 (decided from the head), and chunked, 8 MiB (decided once
      // the limit is crossed, with 4 MiB still to send); on the MCP endpoint, the legacy one and
      // the endpoint as an @effect/platform app
      const declared = Buffer.alloc(4 * MiB + 1, "x")
      const chunked = Buffer.alloc(8 * MiB, "x")
      for (let round = 0; round < 3; round++) {
        const targets = [["node", url, S(sid)], ["legacy", legacy.url, {}], ["platform", platform, {}]] as const
        for (const [where, target, extra] of targets) {
          for (const [body, isChunked] of [[declared, false], [chunked, true]] as const) {
            const answer = yield* busyPost(target, extra, body, isChunked).pipe(
              Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error("the connection never closed")) })
            )
            const what = `round ${round}, ${where}, ${isChunked ? "chunked" : "declared"}`
            assert.strictEqual(answer.status, "HTTP/1.1 413 Payload Too Large", `${what}: ${answer.writeError}`)
            assert.isUndefined(answer.writeError, what)
          }
        }
      }
      const ok = yield* rawRequest(url, { method: "POST", headers: headers(S(sid)), body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) })
      assert.deepStrictEqual(messagesOf(ok.text)[0], { jsonrpc: "2.0", id: 9, result: {} })
    }))

  it.live("legacy POST /messages reads a chunked body in linear time, copying it once", () =>
    Effect.gen(function*() {
      const { port } = yield* startServer(Features, { legacySse: true, maxBodyBytes: 8 * MiB })
      const legacy = yield* legacySession(port)
      const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping", params: { pad: "x".repeat(4 * MiB) } })
      const concat = vi.spyOn(Buffer, "concat")
      const chunks = Array.from({ length: Math.ceil(body.length / (16 * KiB)) }, (_, i) => body.slice(i * 16 * KiB, (i + 1) * 16 * KiB))
      const accepted = yield* chunkedRequest(legacy.url, { "content-type": "application/json" }, chunks)
      assert.strictEqual(accepted.status, 202)
      // the platform's reader concatenates the whole body again for every read: hundreds of MiB here
      const copied = concat.mock.calls.reduce((n, [list]) => n + list.reduce((m, b) => m + b.length, 0), 0)
      assert.isBelow(copied, 2 * body.length)
      const answer = yield* Effect.promise(async () => {
        let buffer = ""
        while (!buffer.includes('"id":3')) buffer += new TextDecoder().decode((await legacy.reader.read()).value)
        return buffer
      })
      assert.include(answer, '{"jsonrpc":"2.0","id":3,"result":{}}')
    }))

  it.live("deep nesting is 400 -32700 on every path, refused without stalling the event loop, and others are served meanwhile", () =>
    Effect.gen(function*() {
      // 12 MiB bodies: parsing one would block for seconds, refusing it takes milliseconds
      const maxBodyBytes = 12 * MiB
      const { port, url } = yield* startServer(Features, { legacySse: true, maxBodyBytes })
      const platform = yield* startPlatform(Features, { maxBodyBytes })
      const legacy = yield* legacySession(port)
      const sid = yield* initialize(url)
      const deep = "[".repeat(6 * MiB) + "]".repeat(6 * MiB)
      const post = (target: string, extra: Record<string, string>) =>
        rawRequest(target, { method: "POST", headers: headers(extra), body: deep })
      const [answers, stall] = yield* worstStall(Effect.all([
        post(url, S(sid)),
        post(url, {}),
        post(legacy.url, {}),
        post(platform, {}),
        rawRequest(url, { method: "POST", headers: headers(S(sid)), body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }) })
      ], { concurrency: "unbounded" }))
      // the longest the event loop was held (a generous bound: this machine is shared)
      assert.isBelow(stall, 1000)
      const ping = answers.pop()!
      for (const answer of answers) {
        assert.strictEqual(answer.status, 400)
        assert.strictEqual(JSON.parse(answer.text).error.code, -32700)
        assert.include(JSON.parse(answer.text).error.message, "nested deeper than")
      }
      assert.deepStrictEqual(messagesOf(ping.text)[0], { jsonrpc: "2.0", id: 4, result: {} })
    }))

  it.live("the nesting limit is configurable; a message at it is served", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(Features, { maxJsonDepth: 3 })
      const sid = yield* initialize(url)
      const at = yield* rawRequest(url, { method: "POST", headers: headers(S(sid)), body: '{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":[]}}' })
      assert.deepStrictEqual(messagesOf(at.text)[0], { jsonrpc: "2.0", id: 5, result: {} })
      const over = yield* rawRequest(url, { method: "POST", headers: headers(S(sid)), body: '{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":[{}]}}' })
      assert.strictEqual(over.status, 400)
      assert.strictEqual(JSON.parse(over.text).error.code, -32700)
    }))
})

describe("media types", () => {
  const NOT_JSON = [
    "text/plain;x=application/json",
    "application/jsonp",
    "multipart/form-data;boundary=application/json",
    "application/json;charset=iso-8859-1"
  ]
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" })

  it.live("Content-Type must be application/json itself, on every path", () =>
    Effect.gen(function*() {
      const { port, url } = yield* startServer(Features, { legacySse: true })
      const platform = yield* startPlatform(Features)
      const legacy = yield* legacySession(port)
      const sid = yield* initialize(url)
      for (const contentType of NOT_JSON) {
        for (const [where, target, extra] of [["node", url, S(sid)], ["legacy", legacy.url, {}], ["platform", platform, {}]] as const) {
          const answer = yield* rawRequest(target, { method: "POST", headers: headers({ ...extra, "content-type": contentType }), body: ping })
          assert.strictEqual(answer.status, 415, `${where}: ${contentType}`)
        }
      }
      for (const contentType of ["Application/JSON; charset=UTF-8", "application/json ; charset=\"utf-8\""]) {
        const answer = yield* rawRequest(url, { method: "POST", headers: headers({ ...S(sid), "content-type": contentType }), body: ping })
        assert.deepStrictEqual(messagesOf(answer.text)[0], { jsonrpc: "2.0", id: 7, result: {} }, contentType)
        const old = yield* rawRequest(legacy.url, { method: "POST", headers: { "content-type": contentType }, body: ping })
        assert.strictEqual(old.status, 202, contentType)
      }
    }))

  it.live("Accept is read as media ranges with q-values, on every path", () =>
    Effect.gen(function*() {
      const { port, url } = yield* startServer(Features, { legacySse: true })
      const platform = yield* startPlatform(Features)
      const sid = yield* initialize(url)
      for (
        const accept of [
          "application/jsonp, text/event-stream",
          "application/json, text/event-streams",
          "text/plain;x=application/json, text/event-stream",
          "application/json;q=0, text/event-stream, */*"
        ]
      ) {
        for (const [where, target, extra] of [["node", url, S(sid)], ["platform", platform, {}]] as const) {
          const answer = yield* rawRequest(target, { method: "POST", headers: headers({ ...extra, accept }), body: where === "node" ? ping : JSON.stringify(INIT) })
          assert.strictEqual(answer.status, 406, `${where} POST: ${accept}`)
        }
      }
      const getStream = yield* rawRequest(url, { method: "GET", headers: { ...S(sid), accept: "text/event-streams" } })
      assert.strictEqual(getStream.status, 406)
      for (const accept of ["text/html", "text/event-stream;q=0", "application/json;x=text/event-stream"]) {
        const answer = yield* rawRequest(`http://127.0.0.1:${port}/sse`, { method: "GET", headers: { accept } })
        assert.strictEqual(answer.status, 406, `legacy GET: ${accept}`)
      }
      const wildcard = yield* rawRequest(url, { method: "POST", headers: headers({ ...S(sid), accept: "*/*" }), body: ping })
      assert.deepStrictEqual(messagesOf(wildcard.text)[0], { jsonrpc: "2.0", id: 7, result: {} })
    }))
})
