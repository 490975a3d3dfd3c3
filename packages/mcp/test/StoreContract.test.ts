/**
 * The store contracts (`StoreContract`) against the in-memory stores: the
 * memory fleet's `SessionStore`, `EventStore.makeMemory` and the memory
 * `TaskStore`, on the TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as StoreContract from "@effect-mcp/mcp/StoreContract"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as TestClock from "effect/TestClock"

const register = (rules: ReadonlyArray<StoreContract.Rule>) => {
  for (const rule of rules) it.scoped(rule.name, () => rule.run)
}

const timing: StoreContract.Timing = { sleep: (millis) => TestClock.adjust(millis), settle: Effect.yieldNow() }

describe("StoreContract: SessionStore (memory fleet)", () => {
  register(StoreContract.sessionStore(Effect.map(SessionStore.makeMemoryFleet(), (fleet) => ({
    ...timing,
    ttlMs: 1000,
    instance: (id: string) => Effect.succeed(fleet.instance(id)),
    kill: (id: string) => Effect.sync(() => fleet.setAlive(id, false))
  }))))
})

describe("StoreContract: SessionStore from parts (the records of one memory fleet, the bus of another)", () => {
  register(StoreContract.sessionStore(Effect.gen(function*() {
    const records = yield* SessionStore.makeMemoryFleet()
    const bus = yield* SessionStore.makeMemoryFleet()
    return {
      ...timing,
      ttlMs: 1000,
      instance: (id: string) => Effect.succeed(SessionStore.fromParts(records.instance(id), bus.instance(id)))
    }
  })))
})

describe("StoreContract: EventStore (memory)", () => {
  register(StoreContract.eventStore(Effect.succeed({
    ...timing,
    make: (options: { readonly gracePeriodMs: number }) => EventStore.makeMemory({ gracePeriod: options.gracePeriodMs })
  })))
})

describe("StoreContract: TaskStore (memory)", () => {
  register(StoreContract.taskStore(Effect.succeed({ ...timing, make: McpTasks.makeMemoryStore })))
})

describe("FleetMessage encoding", () => {
  it.effect("one encoding: undefined fields travel as absent and come back undefined; what is not a fleet message is refused", () =>
    Effect.gen(function*() {
      const end: SessionStore.FleetMessage = { _tag: "StreamEvent", sessionId: "s", streamId: "s-a.p1", id: undefined, data: undefined, end: true }
      const text = SessionStore.encodeFleetMessage(end)
      assert.strictEqual(text, `{"_tag":"StreamEvent","sessionId":"s","streamId":"s-a.p1","end":true}`)
      assert.deepStrictEqual(yield* SessionStore.decodeFleetMessage(text), end)
      for (const bad of [`{"_tag":"Nope"}`, `{"_tag":"Incoming","sessionId":"s","message":{"id":1}}`, "not json"]) {
        assert.isTrue(Exit.isFailure(yield* Effect.exit(SessionStore.decodeFleetMessage(bad))), bad)
      }
    }))
})
