import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as StoreContract from "@effect-mcp/mcp/StoreContract"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"

const rules = StoreContract.sessionStore(Effect.map(SessionStore.makeMemoryFleet(), (fleet) => ({
  instance: (id: string) => Effect.succeed(fleet.instance(id)),
  ttlMs: 1000,
  sleep: (millis: number) => TestClock.adjust(millis),
  settle: Effect.yieldNow
})))
export {}
