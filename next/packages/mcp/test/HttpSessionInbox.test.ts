import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as JsonRpc from "../src/JsonRpc.js"
import { Inbox } from "../src/internal/httpServer/inbox.js"

const note = (method: string): JsonRpc.Frame => ({ jsonrpc: "2.0", method })

/** An inbox with the engine's side attached: what it was handed, and a handover that dies once when asked. */
const attached = (dieOn?: string) => {
  const inbox = new Inbox()
  const handed: Array<string> = []
  let ended = false
  inbox.attach({
    frames: (frames) =>
      Effect.suspend(() => {
        for (const frame of frames) {
          const method = (frame as { readonly method: string }).method
          if (method === dieOn) return Effect.die(new Error("the engine failed"))
          handed.push(method)
        }
        return Effect.void
      }),
    end: () => Effect.sync(() => {
      ended = true
    })
  })
  return { inbox, handed, ended: () => ended }
}

describe("the HTTP session inbox (frames pushed to the engine by the POST that received them)", () => {
  it.effect("hands frames over in order, and the end after them", () =>
    Effect.gen(function*() {
      const { ended, handed, inbox } = attached()
      inbox.offer(note("a"))
      inbox.offer(note("b"))
      yield* inbox.drain()
      inbox.offer(note("c"))
      yield* inbox.drain()
      yield* inbox.end()
      assert.deepStrictEqual(handed, ["a", "b", "c"])
      assert.isTrue(ended())
    }))

  it.effect("a handover that dies does not leave later POSTs' frames queued for nobody", () =>
    Effect.gen(function*() {
      const { handed, inbox } = attached("boom")
      inbox.offer(note("boom"))
      const died = yield* Effect.exit(inbox.drain())
      assert.isTrue(Exit.isFailure(died))
      inbox.offer(note("after"))
      yield* inbox.drain()
      assert.deepStrictEqual(handed, ["after"])
    }))
})
