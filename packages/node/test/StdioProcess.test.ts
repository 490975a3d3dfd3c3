/**
 * The stdio server's process (`internal/stdioProcess`): errors the child reports after it
 * started (a kill that failed) are taken, however many, not thrown at this process.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as StdioProcess from "../src/internal/stdioProcess.js"

describe("stdio server process", () => {
  it.live("a child's second and third 'error' after it started are no unhandled errors", () =>
    Effect.gen(function*() {
      const child = yield* StdioProcess.make(
        { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], closeTimeout: "100 millis" },
        "test",
        () => {}
      )
      // a kill that failed, as node reports it: an 'error' event, with no listener an exception
      for (let i = 0; i < 3; i++) child.process.emit("error", new Error(`kill EPERM ${i}`))
      assert.isAbove(child.pid, 0)
      assert.strictEqual(child.process.exitCode, null)
    }), 20_000)
})
