import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import { TransportError } from "@effect-mcp/mcp/McpError"
import * as NdJson from "@effect-mcp/node/NdJson"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { PassThrough, Writable } from "node:stream"
import { afterEach, vi } from "vitest"

const line = (message: JsonRpc.Message) => JsonRpc.encode(message) + "\n"
const bytes = (text: string) => Buffer.from(text, "utf8")

const pushAll = (decoder: NdJson.Decoder, chunks: ReadonlyArray<Uint8Array>) => {
  const out: Array<JsonRpc.Frame> = []
  for (const c of chunks) out.push(...decoder.push(c))
  return out
}

const expectInvalid = (frame: JsonRpc.Frame | undefined, code: number) => {
  assert.isDefined(frame)
  assert.isTrue(JsonRpc.isInvalid(frame!), `expected Invalid, got ${JSON.stringify(frame)}`)
  const invalid = frame as JsonRpc.Invalid
  assert.strictEqual(invalid.error.code, code)
  assert.strictEqual(invalid.id, null)
  assert.isTrue(invalid.respond)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe("NdJson.makeDecoder", () => {
  it("decodes a multi-byte UTF-8 message split at every byte offset", () => {
    const message = JsonRpc.request(7, "tools/call", { text: "héllo € 𝄞 日本語 ✓" })
    const data = bytes(line(message))
    for (let i = 1; i < data.length; i++) {
      const decoder = NdJson.makeDecoder()
      const frames = pushAll(decoder, [data.subarray(0, i), data.subarray(i)])
      assert.deepStrictEqual(frames, [message], `split at ${i}`)
    }
    // and one byte at a time
    const decoder = NdJson.makeDecoder()
    const chunks = Array.from(data, (b) => Uint8Array.of(b))
    assert.deepStrictEqual(pushAll(decoder, chunks), [message])
  })

  it("emits every frame of one read together", () => {
    const a = JsonRpc.notification("a")
    const b = JsonRpc.request(1, "b")
    const c = JsonRpc.request("x", "c", { n: 1 })
    const decoder = NdJson.makeDecoder()
    assert.deepStrictEqual(decoder.push(bytes(line(a) + line(b) + line(c))), [a, b, c])
  })

  it("tolerates a BOM at the start of the stream, even split across reads", () => {
    const message = JsonRpc.notification("hello")
    const data = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes(line(message) + line(message))])
    assert.deepStrictEqual(NdJson.makeDecoder().push(data), [message, message])
    for (let i = 1; i <= 3; i++) {
      const decoder = NdJson.makeDecoder()
      assert.deepStrictEqual(pushAll(decoder, [data.subarray(0, i), data.subarray(i)]), [message, message])
    }
    // a BOM later in the stream is not one
    const later = NdJson.makeDecoder()
    const frames = later.push(Buffer.concat([bytes(line(message)), Buffer.from([0xef, 0xbb, 0xbf]), bytes(line(message))]))
    assert.deepStrictEqual(frames[0], message)
    expectInvalid(frames[1], JsonRpc.ErrorCode.ParseError)
  })

  it("accepts CRLF line ends", () => {
    const a = JsonRpc.request(1, "a")
    const b = JsonRpc.request(2, "b")
    const data = bytes(JsonRpc.encode(a) + "\r\n" + JsonRpc.encode(b) + "\r\n")
    assert.deepStrictEqual(NdJson.makeDecoder().push(data), [a, b])
    // \r and \n in different reads
    const decoder = NdJson.makeDecoder()
    const text = JsonRpc.encode(a) + "\r"
    assert.deepStrictEqual(pushAll(decoder, [bytes(text), bytes("\n")]), [a])
  })

  it("ignores blank lines", () => {
    const a = JsonRpc.notification("a")
    const decoder = NdJson.makeDecoder()
    assert.deepStrictEqual(decoder.push(bytes("\n\n  \n\t\r\n\r\n" + line(a) + "\n \n")), [a])
    assert.deepStrictEqual(decoder.end(), [])
  })

  it("decodes a final line without a newline at the end of input", () => {
    const a = JsonRpc.notification("a")
    const decoder = NdJson.makeDecoder()
    assert.deepStrictEqual(decoder.push(bytes(JsonRpc.encode(a))), [])
    assert.deepStrictEqual(decoder.end(), [a])
  })

  it("reports non-JSON as -32700 and JSON that is not JSON-RPC as -32600", () => {
    const decoder = NdJson.makeDecoder()
    const frames = decoder.push(bytes("not json\n{\"foo\":1}\n42\n[]\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ok\"}\n"))
    assert.strictEqual(frames.length, 5)
    expectInvalid(frames[0], JsonRpc.ErrorCode.ParseError)
    expectInvalid(frames[1], JsonRpc.ErrorCode.InvalidRequest)
    expectInvalid(frames[2], JsonRpc.ErrorCode.InvalidRequest)
    expectInvalid(frames[3], JsonRpc.ErrorCode.InvalidRequest)
    assert.deepStrictEqual(frames[4], JsonRpc.request(1, "ok"))
  })

  it("discards a line over maxMessageBytes, reports -32700 once, and goes on", () => {
    const ok = JsonRpc.request(1, "ok")
    const big = JsonRpc.request(2, "big", { data: "x".repeat(500) })
    // in one read
    const decoder = NdJson.makeDecoder({ maxMessageBytes: 100 })
    const frames = decoder.push(bytes(line(big) + line(ok)))
    assert.strictEqual(frames.length, 2)
    expectInvalid(frames[0], JsonRpc.ErrorCode.ParseError)
    assert.match((frames[0] as JsonRpc.Invalid).error.message, /maximum size of 100 bytes/)
    assert.deepStrictEqual(frames[1], ok)
    // across many reads: reported as soon as it is known, once, and nothing is buffered after
    const streaming = NdJson.makeDecoder({ maxMessageBytes: 100 })
    const data = bytes(line(big) + line(ok))
    const perChunk: Array<Array<JsonRpc.Frame>> = []
    for (let i = 0; i < data.length; i += 16) perChunk.push(streaming.push(data.subarray(i, i + 16)))
    const all = perChunk.flat()
    assert.strictEqual(all.length, 2)
    expectInvalid(all[0], JsonRpc.ErrorCode.ParseError)
    assert.deepStrictEqual(all[1], ok)
    assert.isTrue(perChunk.findIndex((c) => c.length > 0) < 10, "reported before the end of the long line")
    // held under the limit, then completed over it: reported, and nothing is joined
    const completed = NdJson.makeDecoder({ maxMessageBytes: 100 })
    const concat = vi.spyOn(Buffer, "concat")
    assert.deepStrictEqual(completed.push(bytes("{".repeat(90))), [])
    const after = completed.push(bytes("}".repeat(50) + "\n" + line(ok)))
    expectInvalid(after[0], JsonRpc.ErrorCode.ParseError)
    assert.deepStrictEqual(after.slice(1), [ok])
    assert.strictEqual(concat.mock.calls.length, 0)
    // an unterminated long line at the end of input is reported once, not decoded
    const tail = NdJson.makeDecoder({ maxMessageBytes: 100 })
    assert.strictEqual(tail.push(bytes("y".repeat(300))).length, 1)
    assert.deepStrictEqual(tail.end(), [])
  })

  it("accepts a line of exactly maxMessageBytes, with or without \\r", () => {
    const base = JsonRpc.encode(JsonRpc.request(1, "m", { s: "" }))
    const message = JsonRpc.request(1, "m", { s: "z".repeat(100 - base.length) })
    const text = JsonRpc.encode(message)
    assert.strictEqual(Buffer.byteLength(text), 100)
    assert.deepStrictEqual(NdJson.makeDecoder({ maxMessageBytes: 100 }).push(bytes(text + "\n")), [message])
    const split = NdJson.makeDecoder({ maxMessageBytes: 100 })
    assert.deepStrictEqual(pushAll(split, [bytes(text + "\r"), bytes("\n")]), [message])
    const over = NdJson.makeDecoder({ maxMessageBytes: 99 })
    expectInvalid(over.push(bytes(text + "\n"))[0], JsonRpc.ErrorCode.ParseError)
  })

  it("is linear: a 16 MiB message in 64 KiB reads is concatenated once", () => {
    const payload = "é".repeat(8 * 1024 * 1024) // 16 MiB of UTF-8
    const message = JsonRpc.request(1, "big", { payload })
    const data = bytes(line(message))
    assert.isAbove(data.length, 16 * 1024 * 1024)
    const concat = vi.spyOn(Buffer, "concat")
    const decoder = NdJson.makeDecoder()
    const chunk = 64 * 1024
    let frames: Array<JsonRpc.Frame> = []
    let reads = 0
    for (let i = 0; i < data.length; i += chunk) {
      // an odd offset splits the two-byte characters across reads
      const piece = data.subarray(i === 0 ? 0 : i + 1, Math.min(data.length, i + chunk + 1))
      frames = frames.concat(decoder.push(piece))
      reads++
    }
    assert.isAbove(reads, 256)
    assert.strictEqual(frames.length, 1)
    assert.strictEqual(((frames[0] as JsonRpc.Request).params as { payload: string }).payload, payload)
    // one concatenation of the whole line, not one per read
    assert.strictEqual(concat.mock.calls.length, 1)
    const copied = concat.mock.calls.reduce((n, [list]) => n + list.reduce((m, b) => m + b.length, 0), 0)
    assert.strictEqual(copied, data.length - 1)
  })

  it("refuses a line nested past maxJsonDepth with -32700 before parsing it, and goes on", () => {
    const parse = vi.spyOn(JSON, "parse")
    const decoder = NdJson.makeDecoder()
    // 16 MiB: 8 Mi levels of arrays
    const deep = "[".repeat(8 * 1024 * 1024) + "]".repeat(8 * 1024 * 1024)
    const frames = decoder.push(bytes(deep + "\n" + line(JsonRpc.request(2, "ping"))))
    assert.strictEqual(frames.length, 2)
    expectInvalid(frames[0], JsonRpc.ErrorCode.ParseError)
    assert.include((frames[0] as JsonRpc.Invalid).error.message, `nested deeper than ${JsonRpc.DEFAULT_MAX_DEPTH}`)
    assert.deepStrictEqual(frames[1], JsonRpc.request(2, "ping"))
    // the deep line never reached the parser
    assert.strictEqual(parse.mock.calls.length, 1)
    // the limit is the transport's to set
    const shallow = NdJson.makeDecoder({ maxJsonDepth: 2 })
    expectInvalid(shallow.push(bytes('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[]}}\n'))[0], JsonRpc.ErrorCode.ParseError)
    assert.isTrue(JsonRpc.isRequest(shallow.push(bytes('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}\n'))[0]!))
  })
})

describe("NdJson.fromReadable", () => {
  it.live("emits one chunk per read and ends with the readable", () =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const a = JsonRpc.notification("a")
      const b = JsonRpc.request(1, "b")
      const fiber = yield* NdJson.fromReadable(input).pipe(Stream.chunks, Stream.runCollect, Effect.forkChild)
      yield* Effect.sleep("10 millis")
      input.write(line(a) + line(b) + line(a))
      yield* Effect.sleep("10 millis")
      input.write(JsonRpc.encode(b).slice(0, 5))
      yield* Effect.sleep("10 millis")
      input.end(JsonRpc.encode(b).slice(5) + "\n")
      const chunks = yield* Fiber.join(fiber)
      assert.deepStrictEqual(chunks, [[a, b, a], [b]])
    }))

  it.live("fails with a TransportError when the readable errors", () =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const fiber = yield* NdJson.fromReadable(input).pipe(Stream.runDrain, Effect.flip, Effect.forkChild)
      yield* Effect.sleep("10 millis")
      input.destroy(new Error("boom"))
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error._tag, "TransportError")
      assert.strictEqual(error.reason, "Read")
      assert.match(error.message, /boom/)
    }))

  it.live("ends when the readable is already finished", () =>
    Effect.gen(function*() {
      const input = new PassThrough()
      input.end(line(JsonRpc.notification("a")))
      const frames = yield* NdJson.fromReadable(input).pipe(Stream.runCollect)
      assert.strictEqual(frames.length, 1)
    }))
})

describe("NdJson.makeReader feed", () => {
  const feedOf = (reader: NdJson.Reader, accept: () => boolean = () => true) => {
    const reads: Array<ReadonlyArray<JsonRpc.Frame>> = []
    const ends: Array<Effect.Effect<never, unknown>> = []
    const control = reader.feed({
      frames: (frames) => {
        reads.push(frames)
        return accept()
      },
      end: (how) => void ends.push(how)
    })
    return { reads, ends, control }
  }

  it.live("hands each read's frames over as the stream emits them, a line split across reads too", () =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const reader = yield* NdJson.makeReader(input)
      const a = JsonRpc.notification("a")
      const b = JsonRpc.request(1, "b")
      const fed = feedOf(reader)
      input.write(line(a) + line(b))
      yield* Effect.sleep("10 millis")
      assert.deepStrictEqual(fed.reads, [[a, b]])
      input.write(JsonRpc.encode(b).slice(0, 5))
      yield* Effect.sleep("10 millis")
      input.write(JsonRpc.encode(b).slice(5) + "\n")
      yield* Effect.sleep("10 millis")
      assert.deepStrictEqual(fed.reads, [[a, b], [b]])
      assert.strictEqual(fed.ends.length, 0)
      input.end(JsonRpc.encode(a))
      yield* Effect.sleep("10 millis")
      // the last line without a newline comes before the end, and the end is the peer closing
      assert.deepStrictEqual(fed.reads, [[a, b], [b], [a]])
      assert.strictEqual(fed.ends.length, 1)
      const how = yield* Effect.flip(fed.ends[0]!)
      assert.deepStrictEqual(how, Option.none())
    }))

  it.live("pauses the readable while the target is behind, and reads again on resume", () =>
    Effect.gen(function*() {
      const input = new PassThrough()
      const reader = yield* NdJson.makeReader(input)
      let accepting = false
      const fed = feedOf(reader, () => accepting)
      input.write(line(JsonRpc.notification("a")))
      yield* Effect.sleep("10 millis")
      assert.strictEqual(fed.reads.length, 1)
      assert.isTrue(input.isPaused())
      input.write(line(JsonRpc.notification("b")))
      yield* Effect.sleep("10 millis")
      assert.strictEqual(fed.reads.length, 1)
      accepting = true
      fed.control.resume()
      yield* Effect.sleep("10 millis")
      assert.deepStrictEqual(fed.reads.map((r) => r.map((f) => (f as JsonRpc.Notification).method)), [["a"], ["b"]])
      assert.isFalse(input.isPaused())
    }))

  it.live("ends with the readable's error as a TransportError, and at once when it had ended already", () =>
    Effect.gen(function*() {
      const broken = new PassThrough()
      const fed = feedOf(yield* NdJson.makeReader(broken))
      broken.destroy(new Error("boom"))
      yield* Effect.sleep("10 millis")
      assert.strictEqual(fed.ends.length, 1)
      const error = yield* Effect.flip(fed.ends[0]!)
      assert.isTrue(Option.isSome(error as Option.Option<unknown>))
      const transportError = (error as Option.Some<{ _tag: string; reason: string; message: string }>).value
      assert.strictEqual(transportError._tag, "TransportError")
      assert.strictEqual(transportError.reason, "Read")
      assert.match(transportError.message, /boom/)

      const done = new PassThrough()
      done.end()
      done.resume()
      yield* Effect.sleep("10 millis")
      const late = feedOf(yield* NdJson.makeReader(done))
      assert.strictEqual(late.ends.length, 1)
    }))
})

describe("NdJson.makeWriter", () => {
  const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

  it.effect("a response after a progress in the same turn is written progressGap later, in a write of its own", () =>
    Effect.gen(function*() {
      const output = new PassThrough()
      const write = vi.spyOn(output, "write")
      const written = () => write.mock.calls.map((call) => String(call[0]))
      const writer = yield* NdJson.makeWriter(output, { progressGap: "3 millis" })
      const progress = JsonRpc.notification("notifications/progress", { progressToken: 1, progress: 100 })
      const log = JsonRpc.notification("notifications/message", { level: "info", data: "x" })
      const result = JsonRpc.success(1, { content: [] })
      yield* writer.send(log)
      yield* writer.send(progress)
      yield* writer.send(result)
      // the progress (and what came before it) goes at once; the response waits for the gap
      assert.deepStrictEqual(written(), [line(log) + line(progress)])
      yield* turn
      yield* TestClock.adjust("2 millis")
      yield* turn
      assert.strictEqual(write.mock.calls.length, 1)
      yield* TestClock.adjust("1 millis")
      yield* turn
      assert.deepStrictEqual(written(), [line(log) + line(progress), line(result)])
      // with no progress before it, a response goes with the rest of its turn
      const other = JsonRpc.success(2, {})
      yield* writer.send(log)
      yield* writer.send(other)
      yield* turn
      assert.deepStrictEqual(written().slice(2), [line(log) + line(other)])
    }))

  it.live("writes the sends of one tick with a single write", () =>
    Effect.gen(function*() {
      const output = new PassThrough()
      const write = vi.spyOn(output, "write")
      const writer = yield* NdJson.makeWriter(output)
      const messages = Array.from({ length: NdJson.DEFAULT_MAX_LINES_PER_WRITE - 1 }, (_, i) => JsonRpc.request(i, "m"))
      yield* Effect.forEach(messages, writer.send, { concurrency: "unbounded", discard: true })
      // sends complete at once; the write happens on the next tick, once for all of them
      assert.strictEqual(write.mock.calls.length, 0)
      yield* Effect.sleep("1 millis")
      assert.strictEqual(write.mock.calls.length, 1)
      assert.strictEqual(String(output.read()), messages.map(line).join(""))
      yield* writer.send(JsonRpc.notification("later"))
      yield* Effect.sleep("1 millis")
      assert.strictEqual(write.mock.calls.length, 2)
    }))

  it.live("a send that waited for room completes when its own write filled the stream and it drained", () =>
    Effect.gen(function*() {
      // every write is held until released: each one fills the stream (over its high-water mark)
      const held: Array<(error?: Error | null) => void> = []
      const output = new Writable({ highWaterMark: 1024, write: (_chunk, _encoding, callback) => void held.push(callback) })
      const writer = yield* NdJson.makeWriter(output)
      const big = (n: number) => JsonRpc.notification("big", { n, data: "x".repeat(4096) })
      yield* writer.send(big(1))
      yield* Effect.sleep("5 millis")
      assert.strictEqual(held.length, 1)
      // full: this send waits for 'drain'
      const second = yield* Effect.forkChild(writer.send(big(2)))
      yield* Effect.sleep("5 millis")
      assert.isUndefined(second.pollUnsafe())
      // 'drain': its line is written, and fills the stream again; nothing else is queued
      held.shift()!()
      yield* Effect.sleep("5 millis")
      assert.strictEqual(held.length, 1)
      // the next 'drain' has no line to write: it is the room the send waited for
      held.shift()!()
      yield* Fiber.join(second).pipe(Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail(new Error("the send still waits")) }))
      // and the writer goes on
      yield* writer.send(JsonRpc.notification("after"))
      yield* Effect.sleep("5 millis")
      assert.strictEqual(held.length, 1)
    }))

  it.live("sendNow: undefined when the line is queued (written at the tick's end); an effect when full or failed", () =>
    Effect.gen(function*() {
      const output = new PassThrough({ highWaterMark: 1024 })
      const writer = yield* NdJson.makeWriter(output)
      const first = JsonRpc.request(1, "m")
      assert.isUndefined(writer.sendNow(first))
      yield* Effect.sleep("1 millis")
      assert.strictEqual(String(output.read()), line(first))
      // a write past the high-water mark: the next send waits for 'drain'
      assert.isUndefined(writer.sendNow(JsonRpc.notification("big", { data: "x".repeat(64 * 1024) })))
      yield* Effect.sleep("20 millis")
      const waiting = writer.sendNow(JsonRpc.request(3, "m"))
      assert.isDefined(waiting)
      const waiter = yield* Effect.forkChild(waiting!)
      yield* Effect.sleep("20 millis")
      assert.isUndefined(waiter.pollUnsafe())
      output.on("data", () => {})
      yield* Fiber.join(waiter)
      writer.fail(new TransportError({ reason: "Closed", message: "gone" }))
      const failed = writer.sendNow(JsonRpc.request(4, "m"))
      assert.isDefined(failed)
      assert.strictEqual((yield* Effect.flip(failed!)).message, "gone")
    }))

  it.live("writes a full batch at once, the rest of the tick's sends at its end", () =>
    Effect.gen(function*() {
      const output = new PassThrough()
      const write = vi.spyOn(output, "write")
      const writer = yield* NdJson.makeWriter(output, { maxLinesPerWrite: 4 })
      const messages = Array.from({ length: 10 }, (_, i) => JsonRpc.request(i, "m"))
      const written = () => write.mock.calls.map((call) => String(call[0]))
      // the 4th and the 8th send write their batch before returning, so a peer can start on
      // the first answers while the rest are computed (one write for all would hold them all)
      for (const [i, message] of messages.entries()) {
        yield* writer.send(message)
        assert.strictEqual(write.mock.calls.length, Math.floor((i + 1) / 4), `after send ${i}`)
      }
      assert.deepStrictEqual(written(), [
        messages.slice(0, 4).map(line).join(""),
        messages.slice(4, 8).map(line).join("")
      ])
      yield* Effect.sleep("1 millis")
      assert.deepStrictEqual(written().slice(2), [messages.slice(8).map(line).join("")])
      assert.strictEqual(String(output.read()), messages.map(line).join(""))
    }))

  it.live("joins at most DEFAULT_MAX_LINES_PER_WRITE lines by default", () =>
    Effect.gen(function*() {
      const output = new PassThrough()
      const write = vi.spyOn(output, "write")
      const writer = yield* NdJson.makeWriter(output)
      const n = NdJson.DEFAULT_MAX_LINES_PER_WRITE
      yield* Effect.forEach(Array.from({ length: 2 * n + 1 }, (_, i) => JsonRpc.request(i, "m")), writer.send, {
        concurrency: "unbounded",
        discard: true
      })
      assert.strictEqual(write.mock.calls.length, 2)
      yield* Effect.sleep("1 millis")
      assert.deepStrictEqual(write.mock.calls.map((call) => String(call[0]).split("\n").length - 1), [n, n, 1])
    }))

  it.live("waits for 'drain' when write() returns false", () =>
    Effect.gen(function*() {
      const output = new PassThrough({ highWaterMark: 1024 })
      const write = vi.spyOn(output, "write")
      const writer = yield* NdJson.makeWriter(output)
      const big = JsonRpc.notification("big", { data: "x".repeat(64 * 1024) })
      const first = yield* Effect.forkChild(writer.send(big))
      yield* Effect.sleep("20 millis")
      const second = yield* Effect.forkChild(writer.send(JsonRpc.notification("next")))
      yield* Effect.sleep("20 millis")
      // the first write filled the buffer: nothing more is written until it drains, and
      // the next sender waits for room (the first completed when its line was queued)
      assert.strictEqual(write.mock.calls.length, 1)
      assert.isDefined(first.pollUnsafe())
      assert.isUndefined(second.pollUnsafe())
      const received: Array<Buffer> = []
      output.on("data", (b: Buffer) => received.push(b))
      yield* Fiber.join(first)
      yield* Fiber.join(second)
      assert.strictEqual(write.mock.calls.length, 2)
      yield* Effect.sleep("10 millis")
      assert.strictEqual(Buffer.concat(received).toString(), line(big) + line(JsonRpc.notification("next")))
    }))

  it.live("fails with a TransportError, never throws, on a dead writable", () =>
    Effect.gen(function*() {
      const output = new PassThrough()
      const writer = yield* NdJson.makeWriter(output)
      output.destroy(new Error("EPIPE-ish"))
      yield* Effect.sleep("10 millis")
      const error = yield* Effect.flip(writer.send(JsonRpc.notification("x")))
      assert.strictEqual(error._tag, "TransportError")
      const ended = new PassThrough()
      const writer2 = yield* NdJson.makeWriter(ended)
      ended.end()
      const error2 = yield* Effect.flip(writer2.send(JsonRpc.notification("x")))
      assert.strictEqual(error2.reason, "Closed")
    }))
})
