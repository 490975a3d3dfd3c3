/**
 * The fast path `IncomingRequest.provide` takes in the request's own fiber
 * (`internal/protocol/incoming.ts`): on Effect 3 it leaned on an undeclared method of the fiber
 * runtime (`setFiberRef`, probed for, with `FiberRef.set` as a silent fallback), and this test
 * noticed a release that dropped it. On Effect 4 the method is declared (`Fiber.setContext`, with
 * `Fiber.context`, reached through `Effect.withFiber`): no probe, no fallback. What stays to prove is
 * that the fast path equals the slow one: a context set on the running fiber is what the rest of
 * its effect reads, as `Effect.provideContext` would give it.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

class Greeting extends Context.Service<Greeting, string>()("test/FiberProbe/Greeting") {}

describe("the request fiber's context, set in place (Fiber.setContext)", () => {
  it.effect("is what the rest of the fiber's effect reads, as Effect.provideContext gives it", () =>
    Effect.gen(function*() {
      const read = Effect.map(Effect.serviceOption(Greeting), (o) => (o._tag === "Some" ? o.value : "none"))
      // the slow path: provided, and restored after
      const provided = yield* Effect.withFiber((fiber) =>
        Effect.provideContext(read, Context.add(fiber.context, Greeting, "hello"))
      )
      // the fast path: set on the fiber, read by what follows in the same fiber
      const set = yield* Effect.withFiber((fiber) => {
        fiber.setContext(Context.add(fiber.context, Greeting, "hello"))
        return read
      })
      assert.strictEqual(provided, "hello")
      assert.strictEqual(set, provided)
      // set in place, it stays for the rest of the fiber (the engine sets it only where nothing after reads it)
      assert.strictEqual(yield* read, "hello")
    }))
})
