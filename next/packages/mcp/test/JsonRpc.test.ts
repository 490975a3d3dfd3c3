import { describe, expect, it } from "@effect/vitest"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

describe("JsonRpc.parse", () => {
  it("keeps ids as sent, 0 and empty string included", () => {
    for (const id of [0, "", 1, "0", -5, "abc", 1.5]) {
      const frame = JsonRpc.parse(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }))
      expect(JsonRpc.isRequest(frame)).toBe(true)
      expect((frame as JsonRpc.Request).id).toStrictEqual(id)
    }
  })

  it("classifies the four shapes", () => {
    expect(JsonRpc.isRequest(JsonRpc.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{}}'))).toBe(true)
    expect(JsonRpc.isNotification(JsonRpc.parse('{"jsonrpc":"2.0","method":"m"}'))).toBe(true)
    expect(JsonRpc.isResponse(JsonRpc.parse('{"jsonrpc":"2.0","id":1,"result":{}}'))).toBe(true)
    const error = JsonRpc.parse('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}')
    expect(JsonRpc.isResponse(error)).toBe(true)
  })

  it("answers text that is not JSON with -32700 and id null", () => {
    expect(JsonRpc.parse("{nope")).toStrictEqual(JsonRpc.invalid(null, -32700, "Parse error: invalid JSON"))
  })

  it.each([
    ["a number", "42", null],
    ["a string", '"x"', null],
    ["a wrong version", '{"jsonrpc":"1.0","id":7,"method":"m"}', 7],
    ["a missing version", '{"id":"a","method":"m"}', "a"],
    ["a non-string method", '{"jsonrpc":"2.0","id":3,"method":5}', 3],
    ["array params", '{"jsonrpc":"2.0","id":4,"method":"m","params":[1]}', 4],
    ["a null id", '{"jsonrpc":"2.0","id":null,"method":"m"}', null],
    ["an object id", '{"jsonrpc":"2.0","id":{},"method":"m"}', null],
    ["no method, result nor error", '{"jsonrpc":"2.0","id":9}', 9],
    ["an empty batch", "[]", null]
  ])("answers %s with -32600", (_, text, id) => {
    const frame = JsonRpc.parse(text)
    expect(JsonRpc.isInvalid(frame)).toBe(true)
    const invalid = frame as JsonRpc.Invalid
    expect(invalid.error.code).toBe(-32600)
    expect(invalid.id).toStrictEqual(id)
    expect(invalid.respond).toBe(true)
  })

  it("never answers a broken response", () => {
    const frame = JsonRpc.parse('{"jsonrpc":"2.0","id":1,"result":5}') as JsonRpc.Invalid
    expect(frame.respond).toBe(false)
    const err = JsonRpc.parse('{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}') as JsonRpc.Invalid
    expect(err.respond).toBe(false)
  })

  it("decodes batches element by element", () => {
    const frame = JsonRpc.parse('[{"jsonrpc":"2.0","id":1,"method":"a"},{"bad":true},{"jsonrpc":"2.0","method":"n"}]')
    expect(JsonRpc.isBatch(frame)).toBe(true)
    const batch = frame as ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>
    expect(batch.length).toBe(3)
    expect(JsonRpc.isRequest(batch[0]!)).toBe(true)
    expect(JsonRpc.isInvalid(batch[1]!)).toBe(true)
    expect(JsonRpc.isNotification(batch[2]!)).toBe(true)
  })

  it("encodes messages as they are", () => {
    expect(JsonRpc.encode(JsonRpc.request(0, "ping"))).toBe('{"jsonrpc":"2.0","id":0,"method":"ping"}')
    expect(JsonRpc.encode(JsonRpc.success("", {}))).toBe('{"jsonrpc":"2.0","id":"","result":{}}')
  })
})
