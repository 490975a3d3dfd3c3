import { assert, describe, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Sse from "../src/internal/httpClient/sse.js"

const parseAll = (chunks: ReadonlyArray<string>, maxEventSize?: number) => {
  const events: Array<Sse.SseEvent> = []
  const parser = Sse.makeParser((e) => events.push(e), { maxEventSize })
  const errors = chunks.map((c) => parser.feed(c)).filter((e) => e !== undefined)
  return { events, errors }
}

const STREAM = 'id: s_0\nretry: 500\ndata: \n\n: a comment\nevent: message\nid: s_1\ndata: {"a":1}\n\ndata: line one\r\ndata: line two\r\n\r\nevent: endpoint\rdata: /messages?x=1\r\r'

const EXPECTED = [
  { _tag: "Retry", ms: 500 },
  { _tag: "Event", event: "message", id: "s_0", data: "" },
  { _tag: "Event", event: "message", id: "s_1", data: '{"a":1}' },
  { _tag: "Event", event: "message", id: "s_1", data: "line one\nline two" },
  { _tag: "Event", event: "endpoint", id: "s_1", data: "/messages?x=1" }
]

const simplify = (events: ReadonlyArray<Sse.SseEvent>) =>
  events.map((e) => (e._tag === "Retry" ? { _tag: "Retry", ms: Duration.toMillis(e.duration) } : { ...e }))

describe("the SSE parser", () => {
  it("parses ids, retry, comments, multi-line data and every line ending", () => {
    assert.deepStrictEqual(simplify(parseAll([STREAM]).events), EXPECTED)
  })

  it("gives the same events however the text is split, \\r\\n across chunks included", () => {
    for (let at = 0; at <= STREAM.length; at++) {
      assert.deepStrictEqual(simplify(parseAll([STREAM.slice(0, at), STREAM.slice(at)]).events), EXPECTED, `split at ${at}`)
    }
    assert.deepStrictEqual(simplify(parseAll(STREAM.split("")).events), EXPECTED, "one character at a time")
  })

  // how fast is the benchmark's business (16 MiB over SSE); here: that it arrives whole, once
  it("takes a 16 Mi event in 64 Ki pieces", () => {
    const payload = "x".repeat(16 * 1024 * 1024)
    const text = `id: big\ndata: ${payload}\n\n`
    const chunks: Array<string> = []
    for (let i = 0; i < text.length; i += 65536) chunks.push(text.slice(i, i + 65536))
    const { events } = parseAll(chunks)
    assert.strictEqual(events.length, 1)
    assert.strictEqual((events[0] as { data: string }).data, payload)
  })

  it("refuses an event past the maximum size", () => {
    const { errors } = parseAll(["data: ", "y".repeat(100), "y".repeat(100)], 150)
    assert.strictEqual(errors.length, 1)
  })
})
