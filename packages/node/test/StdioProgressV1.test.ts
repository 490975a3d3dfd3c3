import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))

// The official v1 client handles a notification in a microtask after the read that carried it, and a
// response at once (dropping the call's progress handler): a progress notification that reaches it in
// the same read as its call's result is lost. Our stdio server writes the result in a write of its own,
// `NdJson.DEFAULT_PROGRESS_GAP` after the progress before it.
describe("progress reaches the official v1 client over stdio", () => {
  it.live("the last progress of a call, sent just before the result, fires onprogress", () =>
    Effect.gen(function*() {
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" })
          await client.connect(
            new StdioClientTransport({ command: process.execPath, args: [bundled("conformance-server"), "--stdio"], cwd: repo, stderr: "pipe" })
          )
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      // each call's last progress (100) is sent in the same turn as its result: before the fix, every
      // call lost it (one write held both). After it, the two are 3 ms apart, which is not a promise
      // that the peer reads them apart on a loaded machine: most calls, not all, must see it
      const seen: Array<ReadonlyArray<number>> = []
      for (let i = 0; i < 6; i++) {
        const progress: Array<number> = []
        const result = yield* Effect.promise(() =>
          client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) })
        )
        assert.strictEqual(result.isError, undefined)
        seen.push(progress)
      }
      for (const progress of seen) assert.deepStrictEqual(progress.slice(0, 2), [0, 50])
      const whole = seen.filter((progress) => progress.length === 3 && progress[2] === 100).length
      assert.isAtLeast(whole, 4, `calls whose last progress reached onprogress: ${JSON.stringify(seen)}`)
    }), 30_000)
})
