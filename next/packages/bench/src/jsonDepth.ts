/**
 * What the nesting guard run before every `JSON.parse` costs
 * (`JsonRpc.parseJson`): the scan against `JSON.parse` on normal messages of
 * 1 MiB, and on 4 MiB bodies nested past the limit and just under it.
 *
 * Run: `pnpm exec tsx --conditions effect-mcp-source packages/bench/src/jsonDepth.ts` (a micro benchmark, a
 * few seconds; not part of `pnpm bench`).
 *
 * @since 0.1.0
 */
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const MiB = 1024 * 1024

/**
 * Fastest ms of `a` and of `b` over `rounds` interleaved runs, after a warm-up:
 * on a shared machine the minimum is the least disturbed measure.
 */
const time = (a: () => unknown, b: () => unknown, rounds = 40): readonly [number, number] => {
  for (let i = 0; i < 5; i++) {
    a()
    b()
  }
  let bestA = Infinity
  let bestB = Infinity
  for (let i = 0; i < rounds; i++) {
    let start = performance.now()
    a()
    bestA = Math.min(bestA, performance.now() - start)
    start = performance.now()
    b()
    bestB = Math.min(bestB, performance.now() - start)
  }
  return [bestA, bestB]
}

const message = (params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params })

/** A tool call whose arguments are one long string (a base64 blob). */
const blob = message({ name: "upload", arguments: { data: "QUJD".repeat(MiB / 4) } })
/** A tool call with many small objects: the worst normal case for a scanner. */
const rows: Array<unknown> = []
while (JSON.stringify(rows).length < MiB) {
  rows.push({ id: rows.length, name: `row ${rows.length}`, tags: ["a", "b\"c"], nested: { ok: true, score: 0.5 } })
}
const structured = message({ name: "insert", arguments: { rows } })
/** Text with escapes and non-ASCII: many quotes and backslashes in strings. */
const text = message({ name: "say", arguments: { text: "line \"quoted\" \\ back \u00e9\u4e2d\n".repeat(MiB / 32) } })
const deep = "[".repeat(2 * MiB) + "]".repeat(2 * MiB)
/** Nesting just under the limit, over and over, then once over it at the very end: refused after a full scan. */
const nearLimit = ("[".repeat(JsonRpc.DEFAULT_MAX_DEPTH - 1) + "]".repeat(JsonRpc.DEFAULT_MAX_DEPTH - 1) + ",").repeat(
  Math.floor(4 * MiB / (2 * JsonRpc.DEFAULT_MAX_DEPTH - 1))
)
const overAtTheEnd = `[${nearLimit}${"[".repeat(JsonRpc.DEFAULT_MAX_DEPTH)}${"]".repeat(JsonRpc.DEFAULT_MAX_DEPTH)}]`

/** The guard is `parseJson` less `JSON.parse`; a refused body costs the guard alone. */
const report = (name: string, input: string, rounds?: number) => {
  const [parse, checked] = time(() => JSON.parse(input), () => JsonRpc.parseJson(input), rounds)
  const refused = !("json" in JsonRpc.parseJson(input))
  const guard = refused ? checked : Math.max(0, checked - parse)
  console.log(
    `${name.padEnd(38)} ${(input.length / MiB).toFixed(2)} MiB  JSON.parse ${parse.toFixed(2)} ms  ` +
      `parseJson ${checked.toFixed(2)} ms${refused ? " (refused)" : ""}  guard ≈ ${guard.toFixed(2)} ms ` +
      `(${((guard / parse) * 100).toFixed(0)} % of JSON.parse)`
  )
}

report("one 1 MiB string (base64)", blob)
report("1 MiB of small objects", structured)
report("1 MiB of text with escapes", text)
report("4 MiB, 2 Mi levels of [[…]]", deep, 3)
report("4 MiB at the limit, over at its end", overAtTheEnd, 3)
