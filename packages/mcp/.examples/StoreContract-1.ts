import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as StoreContract from "@effect-mcp/mcp/StoreContract"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"

const rules = StoreContract.eventStore(Effect.succeed({
  make: (options) => EventStore.makeMemory({ gracePeriod: options.gracePeriodMs }),
  sleep: (millis) => TestClock.adjust(millis),
  settle: Effect.yieldNow
}))
// with @effect/vitest: for (const rule of rules) it.effect(rule.name, () => rule.run)
export {}
