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
import * as TestClock from "effect/testing/TestClock"

const register = (rules: ReadonlyArray<StoreContract.Rule>) => {
  for (const rule of rules) it.effect(rule.name, () => rule.run)
}

const timing: StoreContract.Timing = { sleep: (millis) => TestClock.adjust(millis), settle: Effect.yieldNow }

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

/**
 * The suites fail a backend that breaks a rule: each store here is a memory store with one
 * fault, and at least one rule, the one named, must fail on it (else a backend could pass
 * the suite without keeping the contract).
 */
describe("StoreContract: a broken backend fails the suite", () => {
  const failing = (rules: ReadonlyArray<StoreContract.Rule>) =>
    Effect.map(
      Effect.forEach(rules, (rule) => Effect.map(Effect.exit(Effect.scoped(rule.run)), (exit) => [rule.name, exit] as const)),
      (results) => results.filter(([, exit]) => Exit.isFailure(exit)).map(([name]) => name)
    )
  const fleetWith = (fault: (store: SessionStore.SessionStoreShape) => Partial<SessionStore.SessionStoreShape>) =>
    StoreContract.sessionStore(Effect.map(SessionStore.makeMemoryFleet(), (fleet) => ({
      ...timing,
      ttlMs: 1000,
      instance: (id: string) => Effect.sync(() => ({ ...fleet.instance(id), ...fault(fleet.instance(id)) }))
    })))

  it.effect("session records: load that does not restart the ttl", () =>
    Effect.gen(function*() {
      const broken = yield* failing(fleetWith((store) => ({ load: (id) => store.load(id, 1) })))
      assert.include(broken, "records: a record expires its ttl after the latest save, load or touch")
    }))

  it.effect("fleet bus: a message to all that reaches only the sender", () =>
    Effect.gen(function*() {
      const broken = yield* failing(fleetWith((store) => ({ publish: (to, m) => store.publish(to ?? store.instanceId, m) })))
      assert.include(broken, "bus: a message to one instance reaches it only; one to all reaches every instance, the sender too")
    }))

  it.effect("task store: an update that is lost", () =>
    Effect.gen(function*() {
      const rules = StoreContract.taskStore(Effect.succeed({
        ...timing,
        make: Effect.map(McpTasks.makeMemoryStore, (store): McpTasks.TaskStoreShape => ({ ...store, update: (id) => store.get(id) }))
      }))
      assert.isAbove((yield* failing(rules)).length, 0)
    }))

  it.effect("event store: events replayed from the start, the one asked for included", () =>
    Effect.gen(function*() {
      const rules = StoreContract.eventStore(Effect.succeed({
        ...timing,
        make: (options: { readonly gracePeriodMs: number }) =>
          Effect.map(EventStore.makeMemory({ gracePeriod: options.gracePeriodMs }), (store) => ({
            ...store,
            replayAfter: (sessionId: string, lastEventId: string) =>
              store.replayAfter(sessionId, lastEventId.replace(/_\d+$/, "_0"))
          }))
      }))
      assert.isAbove((yield* failing(rules)).length, 0)
    }))
})
