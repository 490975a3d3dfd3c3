import { describe, expect, it } from "@effect/vitest"
import * as MediaType from "../src/internal/mediaType.js"

describe("MediaType.isJson (Content-Type)", () => {
  it("accepts application/json in any case, with parameters and a UTF-8 charset", () => {
    for (
      const value of [
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        "application/json ; charset=\"utf-8\"",
        "application/json;charset=utf8",
        "application/json; foo=bar",
        "application/json;"
      ]
    ) expect(MediaType.isJson(value), value).toBe(true)
  })

  it("refuses anything that merely contains application/json", () => {
    for (
      const value of [
        "text/plain;x=application/json",
        "text/plain; charset=application/json",
        "application/jsonp",
        "application/json-seq",
        "application/vnd.api+json",
        "multipart/form-data;boundary=application/json",
        "application/x-www-form-urlencoded;a=application/json",
        "application/json, text/plain",
        "application/json;charset=iso-8859-1",
        "application/json;charset",
        "application/json;x=\"unterminated",
        "application /json",
        "application/ json",
        "application",
        "/json",
        "",
        undefined
      ]
    ) expect(MediaType.isJson(value), String(value)).toBe(false)
  })

  it("reads quoted parameter values, escapes included", () => {
    const media = MediaType.parse("Text/Plain; Name=\"a\\\"b;c\"; x=y")
    expect(media?.type).toBe("text")
    expect(media?.subtype).toBe("plain")
    expect(media?.parameters.get("name")).toBe("a\"b;c")
    expect(media?.parameters.get("x")).toBe("y")
  })
})

describe("MediaType.accepts (Accept)", () => {
  const cases: ReadonlyArray<readonly [string | undefined, string, boolean]> = [
    ["application/json, text/event-stream", "application/json", true],
    ["application/json, text/event-stream", "text/event-stream", true],
    ["APPLICATION/JSON", "application/json", true],
    ["*/*", "application/json", true],
    ["application/*", "application/json", true],
    ["text/*;q=0.1", "text/event-stream", true],
    ["application/json;charset=utf-8", "application/json", true],
    ["text/html, application/json;q=0.9", "application/json", true],
    // substrings are not media types
    ["application/jsonp", "application/json", false],
    ["text/plain;x=application/json", "application/json", false],
    ["multipart/mixed;boundary=\"application/json, text/event-stream\"", "text/event-stream", false],
    ["text/event-streams", "text/event-stream", false],
    ["text/html", "application/json", false],
    // q=0 means not acceptable, and the most specific range decides
    ["application/json;q=0", "application/json", false],
    ["application/json;q=0, */*", "application/json", false],
    ["application/*;q=0, */*", "application/json", false],
    ["*/*;q=0, application/json", "application/json", true],
    ["text/event-stream;q=0.000, */*", "text/event-stream", false],
    // malformed ranges are ignored; the rest still counts
    ["application/json;q=2", "application/json", false],
    ["garbage, application/json", "application/json", true],
    ["a/b;x=\"q,application/json\", text/html", "application/json", false],
    ["", "application/json", false],
    [undefined, "application/json", false]
  ]
  it("matches media ranges by type, subtype and q-value", () => {
    for (const [accept, type, expected] of cases) {
      expect(MediaType.accepts(accept, type), `${accept} ⊇ ${type}`).toBe(expected)
      // a second time through the cache
      expect(MediaType.accepts(accept, type), `${accept} ⊇ ${type} (cached)`).toBe(expected)
    }
  })
})
