/**
 * The fast paths that lean on an undeclared method of Effect's fiber runtime: `settable`
 * (`internal/protocol/incoming.ts`) probes for `setFiberRef`, and the engine falls back to
 * `FiberRef.set` (a few operations more per request) when it is missing. The fallback is silent, so
 * this test is what notices an Effect release that renames or drops the method.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import { settable } from "../src/internal/protocol/incoming.js"

describe("the settable probe", () => {
  it.effect("finds setFiberRef on Effect's fiber runtime, and it sets a ref as FiberRef.set does", () =>
    Effect.gen(function*() {
      const ref = FiberRef.unsafeMake("before")
      const fiber = yield* Effect.withFiberRuntime<Fiber.Fiber<unknown, unknown>>((fiber) => Effect.succeed(fiber))
      assert.isTrue(settable(fiber), "Effect's fiber runtime no longer has setFiberRef: the fast path falls back")
      if (settable(fiber)) fiber.setFiberRef(ref, "after")
      assert.strictEqual(yield* FiberRef.get(ref), "after")
    }))
})
