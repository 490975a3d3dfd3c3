/**
 * The README's "Testing a server" example, run: `McpTest` against the app's
 * server (examples/app/server.ts) in both eras and on the TestClock. The
 * README shows this file's code below this comment, importing `./server.js`
 * (Packaging.test.ts checks that it is the same).
 */
import { assert, it } from "@effect/vitest"
import * as McpTest from "@effect-mcp/mcp/McpTest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Queue from "effect/Queue"
import * as TestClock from "effect/testing/TestClock"
import { ServerLive } from "../examples/app/server.js"

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
