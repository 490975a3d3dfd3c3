import { describe, expect, it } from "@effect/vitest"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as JsonDepth from "../src/internal/jsonDepth.js"

/** Nesting depth of a parsed value, the reference the scanner must agree with. */
const depthOf = (u: unknown): number => {
  if (Array.isArray(u)) return 1 + Math.max(0, ...u.map(depthOf))
  if (typeof u === "object" && u !== null) return 1 + Math.max(0, ...Object.values(u).map(depthOf))
  return 0
}

/** Strings that try to confuse a scanner: brackets, quotes, backslashes before quotes, long and short. */
const STRINGS = ["", "[", "]", "{[{[", "\"", "\\", "\\\"[", "a\\\\", "[\"]", "}".repeat(40), "\\".repeat(33) + "[", "x".repeat(31) + "\"[", "é中[", "\u0000\n"]

/** A pseudo-random JSON value, deterministic in `seed`. */
const generate = (seed: number) => {
  let state = seed
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state % n
  }
  const value = (level: number): unknown => {
    const kind = next(level > 12 ? 3 : 6)
    if (kind === 0) return STRINGS[next(STRINGS.length)]
    if (kind === 1) return next(1000) - 500
    if (kind === 2) return [true, false, null][next(3)]
    if (kind === 3) return Array.from({ length: next(4) }, () => value(level + 1))
    return Object.fromEntries(Array.from({ length: next(4) }, () => [STRINGS[next(STRINGS.length)]!, value(level + 1)]))
  }
  return value(0)
}

describe("JsonDepth.exceeds", () => {
  it("agrees with the parsed depth, whatever the strings hold", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const value = generate(seed)
      const text = JSON.stringify(value, null, seed % 2 === 0 ? 1 : undefined)
      const depth = depthOf(value)
      for (const max of [0, 1, 2, depth - 1, depth, depth + 1].filter((m) => m >= 0)) {
        // the length shortcut would hide the scan: pad so that it never applies
        const padded = text + " ".repeat(max)
        expect(JsonDepth.exceeds(padded, max), `seed ${seed}, depth ${depth}, max ${max}`).toBe(depth > max)
      }
    }
  })

  it("does not count brackets inside long strings with escaped quotes", () => {
    const inside = JSON.stringify(["\\\"".repeat(100) + "[".repeat(5000) + "\\".repeat(64)])
    expect(JsonDepth.exceeds(inside, 1)).toBe(false)
    expect(JsonDepth.exceeds(`[${inside}]`, 1)).toBe(true)
  })
})

describe("JsonRpc.parseJson and parse: nesting", () => {
  it("refuses nesting past the limit with -32700, accepts it at the limit", () => {
    const nested = (n: number) => "[".repeat(n) + "]".repeat(n)
    expect(JsonRpc.parseJson(nested(5), { maxDepth: 5 })).toStrictEqual({ json: JSON.parse(nested(5)) })
    const refused = JsonRpc.parseJson(nested(6), { maxDepth: 5 })
    expect(refused).toMatchObject({ _tag: "Invalid", id: null, error: { code: -32700 } })
    expect(JsonRpc.parseJson(nested(JsonRpc.DEFAULT_MAX_DEPTH))).toHaveProperty("json")
  })

  it("a 4 MiB nested message is refused before it is parsed, by default", () => {
    const deep = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { x: "HERE" } }).replace(
      "\"HERE\"",
      "[".repeat(2 * 1024 * 1024) + "]".repeat(2 * 1024 * 1024)
    )
    const frame = JsonRpc.parse(deep)
    expect(frame).toMatchObject({ _tag: "Invalid", id: null, error: { code: -32700 } })
    expect((frame as JsonRpc.Invalid).error.message).toContain(`nested deeper than ${JsonRpc.DEFAULT_MAX_DEPTH}`)
  })

  it("a normal message parses as before", () => {
    const frame = JsonRpc.parse(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "m", params: { a: [{ b: "[[[\"" }] } }))
    expect(JsonRpc.isRequest(frame)).toBe(true)
  })
})
