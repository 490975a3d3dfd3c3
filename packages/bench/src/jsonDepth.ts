/**
 * What the nesting guard run before every `JSON.parse` costs
 * (`JsonRpc.parseJson`): the scan alone against `JSON.parse` on normal
 * messages of 1 MiB, and the time to refuse a 4 MiB `[[[…` body.
 *
 * Run: `pnpm exec tsx --conditions effect-mcp-source packages/bench/src/jsonDepth.ts` (a micro benchmark, a
 * few seconds; not part of `pnpm bench`).
 *
 * @since 0.1.0
 */
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const MiB = 1024 * 1024

/** Median ms of `f` over `rounds` runs, after a warm-up. */
const time = (f: () => unknown, rounds = 30): number => {
  for (let i = 0; i < 5; i++) f()
  const samples: Array<number> = []
  for (let i = 0; i < rounds; i++) {
    const start = performance.now()
    f()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)]!
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
const deep = "[".repeat(4 * MiB)

const report = (name: string, input: string) => {
  const parse = time(() => JSON.parse(input))
  const checked = time(() => JsonRpc.parseJson(input))
  console.log(
    `${name.padEnd(34)} ${(input.length / MiB).toFixed(2)} MiB  JSON.parse ${parse.toFixed(2)} ms  ` +
      `parseJson ${checked.toFixed(2)} ms  guard ≈ ${(checked - parse).toFixed(2)} ms (${((checked / parse - 1) * 100).toFixed(0)} %)`
  )
}

report("one 1 MiB string (base64)", blob)
report("1 MiB of small objects", structured)
report("1 MiB of text with escapes", text)
const refused = time(() => JsonRpc.parseJson(deep), 10)
console.log(`${"4 MiB of [ refused".padEnd(34)} 4.00 MiB  parseJson ${refused.toFixed(2)} ms`)
