/**
 * The README's test of the app's server (server.ts): `McpTest` in both eras and
 * on the TestClock. Run by `pnpm test` (packages/node/vitest.config.ts includes
 * examples/app) and, in the project the packed packages are installed into, by
 * `pnpm test:pack`.
 */
import { assert, it } from "@effect/vitest"
import * as McpTest from "@effect-mcp/mcp/McpTest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/testing/TestClock"
import { ServerLive } from "./server.js"

for (const era of ["2025", "2026"] as const) {
  it.effect(`add (${era})`, () =>
    Effect.gen(function*() {
      const client = yield* McpTest.client(ServerLive, { era })
      const added = yield* client.callTool("add", { a: 2, b: 3 })
      assert.deepStrictEqual(added.structuredContent, { sum: 5 })
    }))
}

it.effect("countdown sleeps on the TestClock", () =>
  Effect.gen(function*() {
    const client = yield* McpTest.client(ServerLive)
    const progress = yield* Queue.unbounded<number>()
    const countdown = yield* Effect.forkChild(
      client.callTool("countdown", { from: 3 }, { onProgress: (p) => Queue.offer(progress, p.progress) })
    )
    assert.strictEqual(yield* Queue.take(progress), 0)   // the first step sleeps now
    yield* TestClock.adjust("300 millis")                  // three steps of 100 ms, in no time
    const result = yield* Fiber.join(countdown)
    assert.deepStrictEqual(result.content, [{ type: "text", text: "liftoff" }])
    assert.deepStrictEqual(yield* Queue.takeAll(progress), [1, 2])
  }))
