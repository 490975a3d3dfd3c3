/**
 * The contracts of the storage seams, as executable rules: what a
 * `SessionStore`, an `EventStore` or a `McpTasks.TaskStore` must do for the
 * engine to work on it. A backend (the in-memory fleet, `@effect-mcp/redis`,
 * one of your own, say PostgreSQL through `@effect/sql`) is done when every
 * rule passes against it.
 *
 * Each suite takes a *harness*: how to make a fresh store (or fleet of
 * instances) for one rule, and how to let time pass on it. A rule is a name
 * and a scoped Effect that fails with `ContractViolation` naming what was
 * broken (or with the store's own error). No test framework is needed here:
 * register each rule with yours.
 *
 * @example
 * ```ts
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as StoreContract from "@effect-mcp/mcp/StoreContract"
 * import * as Effect from "effect/Effect"
 * import * as TestClock from "effect/testing/TestClock"
 *
 * const rules = StoreContract.eventStore(Effect.succeed({
 *   make: (options) => EventStore.makeMemory({ gracePeriod: options.gracePeriodMs }),
 *   sleep: (millis) => TestClock.adjust(millis),
 *   settle: Effect.yieldNow
 * }))
 * // with @effect/vitest: for (const rule of rules) it.effect(rule.name, () => rule.run)
 * ```
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as EventStore from "./EventStore.js"
import type * as JsonRpc from "./JsonRpc.js"
import type * as McpTasks from "./McpTasks.js"
import type * as SessionStore from "./SessionStore.js"

/**
 * A rule of a contract was broken.
 *
 * @since 0.1.0
 * @category errors
 */
export class ContractViolation extends Schema.TaggedError<ContractViolation>()("ContractViolation", {
  rule: Schema.String,
  message: Schema.String
}) {}

/**
 * One rule: run it in a scope of its own; it succeeds when the store keeps it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Rule {
  readonly name: string
  readonly run: Effect.Effect<void, unknown, Scope.Scope>
}

/**
 * How the rules wait: `sleep` lets `millis` of the store's time pass (the
 * `TestClock` for a store on the `Clock`, real time for a store with its own
 * clock, e.g. Redis TTLs); `settle` waits a little for work in flight (a
 * message on its way), and is repeated (at most 300 times) until what is
 * awaited arrives.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timing {
  readonly sleep: (millis: number) => Effect.Effect<void>
  readonly settle: Effect.Effect<void>
}

// ---------------------------------------------------------------------------
// helpers

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v)

const check = (rule: string) => (ok: boolean, message: string): Effect.Effect<void, ContractViolation> =>
  ok ? Effect.void : Effect.fail(new ContractViolation({ rule, message }))

const same = (rule: string) => <A>(actual: A, expected: A, message: string): Effect.Effect<void, ContractViolation> =>
  check(rule)(
    canonical(actual) === canonical(expected),
    `${message}: expected ${canonical(expected)}, got ${canonical(actual)}`
  )

/** Repeats `get` (with `settle` in between) until `done`; fails with `message` when it never is. */
const eventually = <A, E>(
  rule: string,
  timing: Timing,
  get: Effect.Effect<A, E>,
  done: (a: A) => boolean,
  message: string
): Effect.Effect<A, E | ContractViolation> =>
  Effect.gen(function*() {
    let value = yield* get
    for (let i = 0; i < 300 && !done(value); i++) {
      yield* timing.settle
      value = yield* get
    }
    if (!done(value)) return yield* new ContractViolation({ rule, message: `${message} (last seen: ${canonical(value)})` })
    return value
  })

const rule = <E>(
  name: string,
  body: (r: { readonly check: ReturnType<typeof check>; readonly same: ReturnType<typeof same> }) => Effect.Effect<void, E, Scope.Scope>
): Rule => ({ name, run: Effect.suspend(() => body({ check: check(name), same: same(name) })) })

// ---------------------------------------------------------------------------
// SessionStore

/**
 * A fleet of session stores for one rule: every instance it starts shares
 * records, liveness and messages with the others (a fresh fleet per rule).
 *
 * @since 0.1.0
 * @category models
 */
export interface SessionStoreHarness extends Timing {
  /** Starts an instance for the life of the scope; closing the scope stops it gracefully. */
  readonly instance: (instanceId: string) => Effect.Effect<SessionStore.SessionStoreShape, never, Scope.Scope>
  /** The time to live the rules give records, in ms of `sleep` (a Redis backend: a few hundred ms). */
  readonly ttlMs: number
  /** Optional: kills an instance (no graceful stop): it must be dead for the others within `ttlMs`. */
  readonly kill?: ((instanceId: string) => Effect.Effect<void>) | undefined
}

const record = (n: number): SessionStore.SessionRecord => ({
  protocolVersion: "2025-11-25",
  clientInfo: { name: `client-${n}`, version: "1.0.0" },
  clientCapabilities: { sampling: {}, elicitation: {} },
  logLevel: n % 2 === 0 ? "debug" : undefined,
  subscriptions: [`file:///${n}.txt`, "file:///ü ✓.txt"],
  initialized: n % 2 === 0,
  principal: { subject: `user-${n}`, scopes: ["a", "b"] }
})

/** A record as it is read back: JSON (undefined fields absent). */
const asJson = <A>(value: A): A => JSON.parse(JSON.stringify(value)) as A

/** Every kind of `FleetMessage`, for the bus rules. */
const everyMessage: ReadonlyArray<SessionStore.FleetMessage> = [
  { _tag: "Incoming", sessionId: "s1", message: { jsonrpc: "2.0", id: 7, result: { text: "ü \n \"quoted\"" } } },
  { _tag: "Standing", sessionId: "s1", message: { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: [1, null] } } },
  { _tag: "Attach", sessionId: "s1", streamId: "s1-a.p1", instance: "b" },
  { _tag: "StreamEvent", sessionId: "s1", streamId: "s1-a.p1", id: "s1-a.p1_3", data: "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", end: false },
  { _tag: "StreamEvent", sessionId: "s1", streamId: "s1-a.p1", id: undefined, data: undefined, end: true },
  { _tag: "State", sessionId: "s1", record: record(2) },
  { _tag: "Ended", sessionId: "s1" },
  { _tag: "ResourceUpdated", uri: "file:///notes.txt" },
  { _tag: "ListChanged", kind: "tools", digest: "abc123" }
]

/** Subscribes `store` and collects what it receives. */
const inbox = (store: SessionStore.SessionStoreShape) =>
  Effect.gen(function*() {
    const got = yield* Ref.make<ReadonlyArray<SessionStore.FleetMessage>>([])
    yield* store.subscribe((m) => Ref.update(got, (all) => [...all, m]))
    return got
  })

const marker = (n: string): SessionStore.FleetMessage => ({ _tag: "Ended", sessionId: `marker-${n}` })
const isMarker = (n: string) => (m: SessionStore.FleetMessage) => m._tag === "Ended" && m.sessionId === `marker-${n}`
const withoutMarkers = (all: ReadonlyArray<SessionStore.FleetMessage>) =>
  all.filter((m) => !(m._tag === "Ended" && m.sessionId.startsWith("marker-")))

/**
 * The rules of `SessionStoreShape` (see the `SessionStore` module): records
 * and their time to live, reserve under `maxSessions`, streams, liveness,
 * and the message bus.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as StoreContract from "@effect-mcp/mcp/StoreContract"
 * import * as Effect from "effect/Effect"
 * import * as TestClock from "effect/testing/TestClock"
 *
 * const rules = StoreContract.sessionStore(Effect.map(SessionStore.makeMemoryFleet(), (fleet) => ({
 *   instance: (id: string) => Effect.succeed(fleet.instance(id)),
 *   ttlMs: 1000,
 *   sleep: (millis: number) => TestClock.adjust(millis),
 *   settle: Effect.yieldNow
 * })))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const sessionStore = (harness: Effect.Effect<SessionStoreHarness, never, Scope.Scope>): ReadonlyArray<Rule> => {
  const with_ = <E>(
    name: string,
    body: (h: SessionStoreHarness, r: { readonly check: ReturnType<typeof check>; readonly same: ReturnType<typeof same> }) => Effect.Effect<void, E, Scope.Scope>
  ): Rule => rule(name, (r) => Effect.flatMap(harness, (h) => body(h, r)))
  const rules: Array<Rule> = [
    with_("records: an unknown session loads none; a reserved one loads none until saved", (h, { check }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        yield* check(Option.isNone(yield* a.load("unknown", h.ttlMs)), "an unknown session loaded a record")
        yield* check(yield* a.reserve("s1", h.ttlMs, 10), "reserve refused under maxSessions")
        yield* check(Option.isNone(yield* a.load("s1", h.ttlMs)), "a reserved session loaded a record before save")
      })),
    with_("records: what one instance saves, every instance loads, as JSON", (h, { same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        yield* a.reserve("s1", h.ttlMs, 10)
        yield* a.save("s1", record(1), h.ttlMs)
        yield* same(Option.getOrUndefined(yield* b.load("s1", h.ttlMs)), asJson(record(1)), "loaded on b")
        yield* b.save("s1", record(2), h.ttlMs)
        yield* same(Option.getOrUndefined(yield* a.load("s1", h.ttlMs)), asJson(record(2)), "loaded on a after b saved")
      })),
    with_("records: a record expires its ttl after the latest save, load or touch", (h, { check }) => {
      // on a store with its own clock (real sleeps), a slow machine can stretch the time from the
      // restart to the check past the ttl: that attempt proves nothing and runs again, fresh ids
      const attempt = (n: number): Effect.Effect<boolean, unknown, Scope.Scope> =>
        Effect.gen(function*() {
          const a = yield* h.instance(`a${n}`)
          const b = yield* h.instance(`b${n}`)
          const [loaded, touched, idle] = ["loaded", "touched", "idle"].map((id) => `${id}-${n}`)
          for (const id of [loaded!, touched!, idle!]) yield* a.save(id, record(1), h.ttlMs)
          yield* h.sleep(h.ttlMs * 0.6)
          const restarted = yield* Clock.currentTimeMillis
          yield* check(Option.isSome(yield* b.load(loaded!, h.ttlMs)), "a record was gone before its ttl")
          yield* b.touch([touched!, `never-saved-${n}`], h.ttlMs)
          yield* h.sleep(h.ttlMs * 0.6)
          yield* check(Option.isNone(yield* a.load(idle!, h.ttlMs)), "a record outlived its ttl")
          const stillLoaded = Option.isSome(yield* a.load(loaded!, h.ttlMs))
          const stillTouched = Option.isSome(yield* a.load(touched!, h.ttlMs))
          if ((yield* Clock.currentTimeMillis) - restarted >= h.ttlMs) return false
          yield* check(stillLoaded, "load did not restart the ttl")
          yield* check(stillTouched, "touch did not restart the ttl")
          yield* check(Option.isNone(yield* a.load(`never-saved-${n}`, h.ttlMs)), "touch created a record")
          yield* h.sleep(h.ttlMs * 1.5)
          yield* check(Option.isNone(yield* a.load(loaded!, h.ttlMs)), "a record outlived its restarted ttl")
          yield* check((yield* a.count) === 0, "count counts expired sessions")
          return true
        })
      const upTo = (n: number): Effect.Effect<void, unknown, Scope.Scope> =>
        Effect.flatMap(attempt(n), (conclusive) =>
          conclusive ? Effect.void : n < 3 ? upTo(n + 1) : check(false, "three attempts each took longer than the ttl"))
      return upTo(1)
    }),
    with_("records: an infinite ttl never expires", (h, { check }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        yield* check(yield* a.reserve("forever", Infinity, 10), "reserve refused with an infinite ttl")
        yield* a.save("forever", record(1), Infinity)
        yield* a.touch(["forever"], Infinity)
        yield* h.sleep(h.ttlMs * 2)
        yield* check(Option.isSome(yield* a.load("forever", Infinity)), "a record with an infinite ttl expired")
        yield* h.sleep(h.ttlMs * 2)
        yield* check(Option.isSome(yield* a.load("forever", Infinity)), "a record loaded with an infinite ttl expired")
        yield* check((yield* a.count) === 1, "count missed a session without expiry")
      })),
    with_("records: remove ends a session for every instance", (h, { check }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        yield* a.reserve("s1", h.ttlMs * 10, 10)
        yield* a.save("s1", record(1), h.ttlMs * 10)
        yield* check((yield* b.count) === 1, "count on b missed a's session")
        yield* b.remove("s1")
        yield* check(Option.isNone(yield* a.load("s1", h.ttlMs)), "a removed session loaded")
        yield* check((yield* a.count) === 0, "count counts a removed session")
        yield* a.remove("never-existed")
      })),
    with_("reserve: admits while fewer than maxSessions are live in the fleet; expired and removed ones free their place", (h, { check }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        yield* check(yield* a.reserve("s1", h.ttlMs, 2), "the first session was refused")
        yield* check(yield* b.reserve("s2", h.ttlMs * 10, 2), "the second session was refused")
        yield* check(!(yield* a.reserve("s3", h.ttlMs, 2)), "a third session was admitted under maxSessions 2")
        yield* check((yield* a.count) === 2, "count is not 2 with two reserved sessions")
        yield* h.sleep(h.ttlMs * 1.5)
        yield* check(yield* a.reserve("s3", h.ttlMs * 10, 2), "an expired session still holds its place")
        yield* b.remove("s2")
        yield* check(yield* b.reserve("s4", h.ttlMs * 10, 2), "a removed session still holds its place")
        yield* check(!(yield* b.reserve("s5", h.ttlMs * 10, 2)), "admitted over maxSessions after a remove")
      })),
    with_("streams: saveStream's requests load on every instance, until their ttl", (h, { check, same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const requests: ReadonlyArray<JsonRpc.RequestId> = [1, "two", 0, "ü"]
        yield* a.saveStream("s1-a.p1", requests, h.ttlMs)
        yield* same(Option.getOrUndefined(yield* b.loadStream("s1-a.p1")), requests, "the stream's requests on b")
        yield* check(Option.isNone(yield* b.loadStream("s1-a.p9")), "an unknown stream loaded")
        yield* h.sleep(h.ttlMs * 1.5)
        yield* check(Option.isNone(yield* b.loadStream("s1-a.p1")), "a stream outlived its ttl")
      })),
    with_("liveness: a subscribed instance is alive for the others until it stops; an unknown one is not", (h, { check }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const bScope = yield* Scope.make()
        const b = yield* Scope.provide(h.instance("b"), bScope)
        yield* Scope.provide(b.subscribe(() => Effect.void), bScope)
        yield* check(yield* a.alive("b"), "a running instance is not alive for another")
        yield* check(!(yield* a.alive("nobody")), "an unknown instance is alive")
        yield* Scope.close(bScope, Exit.void)
        yield* eventually("liveness", h, a.alive("b"), (alive) => !alive, "an instance stopped gracefully is still alive")
      })),
    with_("bus: a message to one instance reaches it only; one to all reaches every instance, the sender too", (h, { same }) =>
      Effect.gen(function*() {
        const [a, b, c] = [yield* h.instance("a"), yield* h.instance("b"), yield* h.instance("c")]
        const [ga, gb, gc] = [yield* inbox(a), yield* inbox(b), yield* inbox(c)]
        yield* a.publish("b", { _tag: "ResourceUpdated", uri: "file:///to-b" })
        yield* a.publish(undefined, { _tag: "ResourceUpdated", uri: "file:///to-all" })
        yield* a.publish(undefined, marker("1"))
        for (const got of [ga, gb, gc]) yield* eventually("bus", h, Ref.get(got), (all) => all.some(isMarker("1")), "a broadcast never arrived")
        const uris = (got: Ref.Ref<ReadonlyArray<SessionStore.FleetMessage>>) =>
          Effect.map(Ref.get(got), (all) => withoutMarkers(all).map((m) => (m._tag === "ResourceUpdated" ? m.uri : m._tag)))
        yield* same(yield* uris(ga), ["file:///to-all"], "received by the sender a")
        yield* same(yield* uris(gb), ["file:///to-b", "file:///to-all"], "received by b")
        yield* same(yield* uris(gc), ["file:///to-all"], "received by c")
      })),
    with_("bus: every kind of FleetMessage arrives as it was sent", (h, { same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const got = yield* inbox(b)
        for (const m of everyMessage) yield* a.publish("b", m)
        yield* a.publish("b", marker("all"))
        const all = yield* eventually("bus", h, Ref.get(got), (all) => all.some(isMarker("all")), "the messages never arrived")
        yield* same(withoutMarkers(all), everyMessage.map(asJson), "the messages received")
      })),
    with_("bus: a large message (1 MiB of event data) arrives whole", (h, { same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const got = yield* inbox(b)
        const data = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "ü".repeat(512 * 1024) } })
        const big: SessionStore.FleetMessage = { _tag: "StreamEvent", sessionId: "s1", streamId: "s1-a.p1", id: "s1-a.p1_1", data, end: false }
        yield* a.publish("b", big)
        yield* a.publish("b", marker("big"))
        const all = yield* eventually("bus", h, Ref.get(got), (all) => all.some(isMarker("big")), "the large message never arrived")
        const received = withoutMarkers(all)
        yield* same(received.length, 1, "messages received")
        yield* same(received[0]?._tag === "StreamEvent" ? received[0].data === data : false, true, "the large message's data arrived whole")
      })),
    with_("bus: one sender's messages arrive in the order sent, to one instance and to all alike", (h, { same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const got = yield* inbox(b)
        const sent: Array<string> = []
        for (let i = 0; i < 60; i++) {
          const uri = `file:///${i}`
          sent.push(uri)
          yield* a.publish(i % 3 === 0 ? undefined : "b", { _tag: "ResourceUpdated", uri })
        }
        yield* a.publish("b", marker("end"))
        const all = yield* eventually("bus", h, Ref.get(got), (all) => all.some(isMarker("end")), "the messages never arrived")
        yield* same(withoutMarkers(all).map((m) => (m._tag === "ResourceUpdated" ? m.uri : m._tag)), sent, "the order received")
      })),
    with_("bus: a message to an instance that is not running succeeds and reaches no one", (h, { same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const [ga, gb] = [yield* inbox(a), yield* inbox(b)]
        yield* a.publish("gone", { _tag: "Ended", sessionId: "for-gone" })
        yield* a.publish(undefined, marker("x"))
        for (const got of [ga, gb]) yield* eventually("bus", h, Ref.get(got), (all) => all.some(isMarker("x")), "a broadcast never arrived")
        yield* same(withoutMarkers(yield* Ref.get(ga)), [], "received by a")
        yield* same(withoutMarkers(yield* Ref.get(gb)), [], "received by b")
      })),
    with_("bus: a handler that dies neither fails the sender nor stops later messages", (h, { check }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const got = yield* Ref.make<ReadonlyArray<SessionStore.FleetMessage>>([])
        yield* b.subscribe((m) =>
          m._tag === "Ended" && m.sessionId === "poison" ? Effect.die("handler defect") : Ref.update(got, (all) => [...all, m])
        )
        const sent = yield* Effect.exit(a.publish("b", { _tag: "Ended", sessionId: "poison" }))
        yield* check(Exit.isSuccess(sent), `publish failed when the receiver's handler died: ${Exit.isFailure(sent) ? Cause.pretty(sent.cause) : ""}`)
        yield* a.publish("b", marker("after"))
        yield* eventually("bus", h, Ref.get(got), (all) => all.some(isMarker("after")), "no message arrived after a handler died")
      })),
    with_("bus: a subscription ends with its scope", (h, { same }) =>
      Effect.gen(function*() {
        const a = yield* h.instance("a")
        const b = yield* h.instance("b")
        const kept = yield* inbox(b)
        const ended = yield* Ref.make(0)
        yield* Effect.scoped(b.subscribe(() => Ref.update(ended, (n) => n + 1)))
        yield* a.publish("b", marker("m"))
        yield* eventually("bus", h, Ref.get(kept), (all) => all.some(isMarker("m")), "the message never arrived")
        yield* same(yield* Ref.get(ended), 0, "messages received by an ended subscription")
      }))
  ]
  return rules.concat(killRule(harness))
}

const killRule = (harness: Effect.Effect<SessionStoreHarness, never, Scope.Scope>): ReadonlyArray<Rule> => [
  rule("liveness: an instance killed is dead for the others within the ttl (when the harness can kill)", ({ check }) =>
    Effect.gen(function*() {
      const h = yield* harness
      if (h.kill === undefined) return
      const a = yield* h.instance("a")
      const b = yield* h.instance("b")
      yield* b.subscribe(() => Effect.void)
      yield* check(yield* a.alive("b"), "a running instance is not alive")
      yield* h.kill("b")
      yield* h.sleep(h.ttlMs)
      yield* check(!(yield* a.alive("b")), "an instance killed is alive after the ttl")
    }))
]

// ---------------------------------------------------------------------------
// EventStore

/**
 * How to make a fresh event store for one rule.
 *
 * @since 0.1.0
 * @category models
 */
export interface EventStoreHarness extends Timing {
  /** The grace period the rules give stores, in ms of `sleep` (default 1000). */
  readonly gracePeriodMs?: number | undefined
  /** A store whose delivered streams stay resumable `gracePeriodMs` (of `sleep`), budgets large. */
  readonly make: (options: { readonly gracePeriodMs: number }) => Effect.Effect<EventStore.EventStoreShape, never, Scope.Scope>
  /**
   * Optional: a store whose backend cannot be reached (a Redis store on a
   * closed port, say): `append` and `replayAfter` must die, no operation may
   * hang.
   */
  readonly unreachable?: Effect.Effect<EventStore.EventStoreShape, never, Scope.Scope> | undefined
}

const seqOf = (id: string): number => Option.match(EventStore.parseEventId(id), { onNone: () => -1, onSome: (p) => p.seq })

const replayed = (store: EventStore.EventStoreShape, sessionId: string, lastEventId: string) =>
  Effect.map(store.replayAfter(sessionId, lastEventId), Option.getOrUndefined)

/**
 * The rules of `EventStoreShape` (see the `EventStore` module): ids, replay,
 * ownership, the grace period after delivery, `dropSession`,
 * `appendDelivered` when the store has it, and failure. Budgets (what is
 * evicted when) are the backend's options and are tested with it.
 *
 * @example
 * ```ts
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as StoreContract from "@effect-mcp/mcp/StoreContract"
 * import * as Effect from "effect/Effect"
 * import * as TestClock from "effect/testing/TestClock"
 *
 * const rules = StoreContract.eventStore(Effect.succeed({
 *   make: (options) => EventStore.makeMemory({ gracePeriod: options.gracePeriodMs }),
 *   sleep: (millis) => TestClock.adjust(millis),
 *   settle: Effect.yieldNow
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const eventStore = (harness: Effect.Effect<EventStoreHarness, never, Scope.Scope>): ReadonlyArray<Rule> => {
  const with_ = <E>(
    name: string,
    body: (
      store: EventStore.EventStoreShape,
      h: EventStoreHarness & { readonly grace: number },
      r: { readonly check: ReturnType<typeof check>; readonly same: ReturnType<typeof same> }
    ) => Effect.Effect<void, E, Scope.Scope>
  ): Rule =>
    rule(name, (r) =>
      Effect.flatMap(harness, (h) => {
        const grace = h.gracePeriodMs ?? 1000
        return Effect.flatMap(h.make({ gracePeriodMs: grace }), (store) => body(store, { ...h, grace }, r))
      }))
  const rules: Array<Rule> = [
    with_("ids: <streamId>_<seq>, seq > 0 increasing in append order across the streams of a session", (store, _h, { check, same }) =>
      Effect.gen(function*() {
        const ids: Array<string> = []
        for (let i = 0; i < 6; i++) ids.push(yield* store.append("S", i % 2 === 0 ? "S-a.p1" : "S-a.p2", `e${i}`))
        for (const [i, id] of ids.entries()) {
          yield* same(Option.getOrUndefined(Option.map(EventStore.parseEventId(id), (p) => p.streamId)), i % 2 === 0 ? "S-a.p1" : "S-a.p2", `the stream of ${id}`)
        }
        const seqs = ids.map(seqOf)
        yield* check(seqs[0]! > 0, `the first sequence is ${seqs[0]}, 0 is the priming event's`)
        yield* check(seqs.every((s, i) => i === 0 || s > seqs[i - 1]!), `sequences do not increase: ${seqs.join(", ")}`)
      })),
    with_("ids: concurrent appends to the streams of a session never share an id", (store, _h, { check }) =>
      Effect.gen(function*() {
        const ids = yield* Effect.forEach(
          Array.from({ length: 40 }, (_, i) => i),
          (i) => store.append("S", `S-a.p${i % 4}`, `e${i}`),
          { concurrency: "unbounded" }
        )
        const seqs = ids.map(seqOf)
        yield* check(new Set(seqs).size === seqs.length, `a sequence was used twice: ${seqs.join(", ")}`)
      })),
    with_("replay: the stream's events after the id, oldest first, data as written", (store, _h, { same }) =>
      Effect.gen(function*() {
        const data = ["{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":{\"t\":\"ü \\\"q\\\" ✓\"}}", "b", "c"]
        const ids: Array<string> = []
        for (const d of data) {
          ids.push(yield* store.append("S", "S-a.p1", d))
          yield* store.append("S", "S-a.p2", `other ${d}`)
        }
        const all = data.map((d, i) => ({ id: ids[i]!, data: d }))
        yield* same(yield* replayed(store, "S", EventStore.primingId("S-a.p1")), { streamId: "S-a.p1", events: all, complete: true }, "from the priming id")
        yield* same(yield* replayed(store, "S", ids[0]!), { streamId: "S-a.p1", events: all.slice(1), complete: true }, "after the first")
        yield* same(yield* replayed(store, "S", ids[2]!), { streamId: "S-a.p1", events: [], complete: true }, "after the last")
      })),
    with_("replay: an unknown stream, an id that is no event id, another session's stream: none", (store, _h, { check }) =>
      Effect.gen(function*() {
        const id = yield* store.append("S", "S-a.p1", "x")
        yield* check(Option.isNone(yield* store.replayAfter("S", "S-a.p9_1")), "an unknown stream replayed")
        yield* check(Option.isNone(yield* store.replayAfter("S", "not an id")), "a malformed id replayed")
        yield* check(Option.isNone(yield* store.replayAfter("S", "S-a.p1_x")), "a malformed sequence replayed")
        yield* check(Option.isNone(yield* store.replayAfter("T", id)), "a stream replayed for another session")
        yield* check(Option.isNone(yield* store.replayAfter("T", EventStore.primingId("S-a.p1"))), "a stream replayed for another session from its priming id")
      })),
    with_("delivered: a delivered stream replays within the grace period, is gone after it; one not delivered stays", (store, h, { check }) =>
      Effect.gen(function*() {
        yield* store.append("S", "S-a.p1", "delivered")
        yield* store.append("S", "S-a.p2", "not delivered")
        yield* store.delivered("S", "S-a.p1")
        yield* h.settle
        yield* h.sleep(h.grace * 0.5)
        yield* check((yield* replayed(store, "S", EventStore.primingId("S-a.p1")))?.events.length === 1, "a delivered stream was gone within the grace period")
        yield* h.sleep(h.grace * 1.5)
        yield* eventually("delivered", h, replayed(store, "S", EventStore.primingId("S-a.p1")), (r) => r === undefined, "a delivered stream outlived the grace period")
        yield* check((yield* replayed(store, "S", EventStore.primingId("S-a.p2")))?.events.length === 1, "a stream not delivered was dropped after the grace period")
      })),
    with_("delivered: delivered again (after a replay), a stream's grace period starts again", (store, h, { check }) =>
      Effect.gen(function*() {
        yield* store.append("S", "S-a.p1", "x")
        yield* store.delivered("S", "S-a.p1")
        yield* h.settle
        yield* h.sleep(h.grace * 0.6)
        yield* check((yield* replayed(store, "S", EventStore.primingId("S-a.p1")))?.events.length === 1, "a delivered stream was gone within the grace period")
        yield* store.delivered("S", "S-a.p1")
        yield* h.settle
        yield* h.sleep(h.grace * 0.6)
        yield* check((yield* replayed(store, "S", EventStore.primingId("S-a.p1")))?.events.length === 1, "a stream delivered again was gone within its new grace period")
        yield* h.sleep(h.grace * 1.5)
        yield* eventually("delivered", h, replayed(store, "S", EventStore.primingId("S-a.p1")), (r) => r === undefined, "a stream delivered again outlived its grace period")
      })),
    with_("dropSession: every stream of the session goes at once; other sessions keep theirs", (store, _h, { check }) =>
      Effect.gen(function*() {
        yield* store.append("S", "S-a.p1", "x")
        yield* store.append("S", "S-a.p2", "y")
        yield* store.append("T", "T-a.p1", "z")
        yield* store.dropSession("S")
        yield* check(Option.isNone(yield* store.replayAfter("S", EventStore.primingId("S-a.p1"))), "a dropped session's stream replayed")
        yield* check(Option.isNone(yield* store.replayAfter("S", EventStore.primingId("S-a.p2"))), "a dropped session's stream replayed")
        yield* check((yield* replayed(store, "T", EventStore.primingId("T-a.p1")))?.events.length === 1, "another session lost its events")
        yield* store.dropSession("never-seen")
      })),
    with_("appendDelivered (when the store has it): replays from the priming id with ids from the session's counter, until the grace period passed", (store, h, { check, same }) =>
      Effect.gen(function*() {
        const append = store.appendDelivered
        if (append === undefined) return
        const before = yield* store.append("S", "S-a.p1", "earlier")
        yield* append("S", "S-a.p2", [{ data: "a note" }, { data: "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", answers: 3 }])
        const got = yield* eventually("appendDelivered", h, replayed(store, "S", EventStore.primingId("S-a.p2")), (r) => r !== undefined, "a stream written whole never replayed")
        yield* same(got?.events.map((e) => e.data), ["a note", "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"], "the events replayed")
        const seqs = got!.events.map((e) => seqOf(e.id))
        yield* check(seqs[0]! > seqOf(before) && seqs[1]! > seqs[0]!, `ids not from the session's counter: ${got!.events.map((e) => e.id).join(", ")}`)
        const after = yield* store.append("S", "S-a.p1", "later")
        yield* check(seqOf(after) > seqs[1]!, `an id after appendDelivered reused its sequences: ${after}`)
        yield* h.sleep(h.grace * 2)
        yield* eventually("appendDelivered", h, replayed(store, "S", EventStore.primingId("S-a.p2")), (r) => r === undefined, "a stream written whole outlived the grace period")
      }))
  ]
  const unreachable = rule("failure: a store that cannot be reached dies (append, replayAfter), and nothing hangs", ({ check }) =>
    Effect.gen(function*() {
      const h = yield* harness
      if (h.unreachable === undefined) return
      const store = yield* h.unreachable
      const dies = (name: string, op: Effect.Effect<unknown>) =>
        Effect.flatMap(Effect.exit(Effect.timeoutOption(op, "10 seconds")), (exit) =>
          check(Exit.isFailure(exit) && Cause.hasDies(exit.cause), `${name} of an unreachable store did not die`))
      const ends = (name: string, op: Effect.Effect<unknown>) =>
        Effect.flatMap(Effect.timeoutOption(Effect.exit(op), "10 seconds"), (done) =>
          check(Option.isSome(done), `${name} of an unreachable store hung`))
      yield* dies("append", store.append("S", "S-a.p1", "x"))
      yield* dies("replayAfter", store.replayAfter("S", "S-a.p1_0"))
      yield* ends("delivered", store.delivered("S", "S-a.p1"))
      yield* ends("dropSession", store.dropSession("S"))
    }).pipe(Effect.provideService(Clock.Clock, Clock.Clock.defaultValue())))
  return rules.concat([unreachable])
}

// ---------------------------------------------------------------------------
// TaskStore

/**
 * How to make a fresh task store for one rule.
 *
 * @since 0.1.0
 * @category models
 */
export interface TaskStoreHarness extends Timing {
  readonly make: Effect.Effect<McpTasks.TaskStoreShape, never, Scope.Scope>
}

const task = (taskId: string, owner: string, expiresAt: number, createdAt: number): McpTasks.StoredTask => ({
  task: {
    taskId,
    status: "working",
    createdAt: new Date(createdAt).toISOString(),
    lastUpdatedAt: new Date(createdAt).toISOString(),
    ttl: 60_000
  },
  owner,
  expiresAt,
  sessionId: "session-1"
})

/**
 * The rules of `McpTasks.TaskStoreShape`: records, the atomic `update`, the
 * owner's pages, the sweep, `size`, and `changes` when the store has it.
 *
 * @example
 * ```ts
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as StoreContract from "@effect-mcp/mcp/StoreContract"
 * import * as Effect from "effect/Effect"
 *
 * const rules = StoreContract.taskStore(Effect.succeed({
 *   make: McpTasks.makeMemoryStore,
 *   sleep: (millis: number) => Effect.sleep(millis),
 *   settle: Effect.yieldNow
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const taskStore = (harness: Effect.Effect<TaskStoreHarness, never, Scope.Scope>): ReadonlyArray<Rule> => {
  const with_ = <E>(
    name: string,
    body: (
      store: McpTasks.TaskStoreShape,
      h: TaskStoreHarness,
      now: number,
      r: { readonly check: ReturnType<typeof check>; readonly same: ReturnType<typeof same> }
    ) => Effect.Effect<void, E, Scope.Scope>
  ): Rule =>
    rule(name, (r) =>
      Effect.flatMap(harness, (h) =>
        Effect.flatMap(h.make, (store) => Effect.flatMap(Clock.currentTimeMillis, (now) => body(store, h, now, r)))))
  return [
    with_("records: get returns what put stored, as JSON; an unknown id none", (store, _h, now, { check, same }) =>
      Effect.gen(function*() {
        const full: McpTasks.StoredTask = {
          ...task("t1", "session:s", now + 60_000, now),
          outcome: { _tag: "Error", code: -32603, message: "ü failed", data: { n: 1 } },
          inputRequests: { k1: { method: "elicitation/create", params: { message: "?" } } },
          inputResponses: { k0: { action: "accept" } }
        }
        yield* store.put(full)
        yield* same(yield* store.get("t1"), asJson(full), "the record read back")
        yield* check((yield* store.get("unknown")) === undefined, "an unknown task was found")
      })),
    with_("update: applies f to the current record and returns it; none when there is no record or f returns none", (store, _h, now, { check, same }) =>
      Effect.gen(function*() {
        const r = task("t1", "session:s", now + 60_000, now)
        yield* store.put(r)
        const done = { ...r, task: { ...r.task, status: "completed" as const }, outcome: { _tag: "Result" as const, result: { content: [] } } }
        yield* same(yield* store.update("t1", () => done), asJson(done), "update's result")
        yield* same(yield* store.get("t1"), asJson(done), "the record after update")
        yield* check((yield* store.update("t1", () => undefined)) === undefined, "update returned a record when f changed nothing")
        yield* same(yield* store.get("t1"), asJson(done), "the record after an update that changed nothing")
        yield* check((yield* store.update("unknown", (x) => x)) === undefined, "update of an unknown task returned a record")
        yield* check((yield* store.get("unknown")) === undefined, "update created a record")
      })),
    with_("update: atomic, 20 concurrent updates of one record all land", (store, _h, now, { same }) =>
      Effect.gen(function*() {
        yield* store.put(task("t1", "session:s", now + 60_000, now))
        yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => store.update("t1", (r) => ({ ...r, task: { ...r.task, statusMessage: `${r.task.statusMessage ?? ""}${i},` } })),
          { concurrency: "unbounded", discard: true }
        )
        const marks = ((yield* store.get("t1"))?.task.statusMessage ?? "").split(",").filter((s) => s !== "")
        yield* same(marks.slice().sort((a, b) => Number(a) - Number(b)), Array.from({ length: 20 }, (_, i) => String(i)), "the updates that landed")
      })),
    with_("list: the owner's records in creation order, in pages with more; nobody else's", (store, _h, now, { same }) =>
      Effect.gen(function*() {
        for (let i = 0; i < 5; i++) {
          yield* store.put(task(`a${i}`, "session:a", now + 60_000, now + i))
          if (i === 2) yield* store.put(task("b0", "session:b", now + 60_000, now + i))
        }
        const ids = (page: { readonly tasks: ReadonlyArray<McpTasks.StoredTask>; readonly more: boolean }) => ({
          ids: page.tasks.map((t) => t.task.taskId),
          more: page.more
        })
        yield* same(ids(yield* store.list("session:a", 0, 2)), { ids: ["a0", "a1"], more: true }, "the first page")
        yield* same(ids(yield* store.list("session:a", 2, 2)), { ids: ["a2", "a3"], more: true }, "the second page")
        yield* same(ids(yield* store.list("session:a", 4, 2)), { ids: ["a4"], more: false }, "the last page")
        yield* same(ids(yield* store.list("session:a", 0, 5)), { ids: ["a0", "a1", "a2", "a3", "a4"], more: false }, "one full page")
        yield* same(ids(yield* store.list("session:b", 0, 10)), { ids: ["b0"], more: false }, "another owner's")
        yield* same(ids(yield* store.list("session:c", 0, 10)), { ids: [], more: false }, "an owner with none")
      })),
    with_("sweep: deletes the records expired at `now`, returns each id once; size counts the records", (store, _h, now, { check, same }) =>
      Effect.gen(function*() {
        yield* store.put(task("soon", "session:x", now + 30_000, now))
        yield* store.put(task("at", "session:x", now + 40_000, now + 1))
        yield* store.put(task("late", "session:x", now + 600_000, now + 2))
        yield* same(yield* store.size, 3, "size")
        yield* same(yield* store.sweep(now + 1000), [], "swept before any expiry")
        const swept = yield* store.sweep(now + 40_000)
        yield* same(swept.slice().sort(), ["at", "soon"], "swept at the expiry of two")
        yield* same(yield* store.sweep(now + 40_000), [], "swept again")
        yield* same(yield* store.size, 1, "size after the sweep")
        yield* check((yield* store.get("soon")) === undefined, "a swept record was found")
        yield* check((yield* store.get("late")) !== undefined, "a live record was swept")
      })),
    with_("changes (when the store has them): an update's new status is told", (store, h, now, { same }) =>
      Effect.gen(function*() {
        const changes = store.changes
        if (changes === undefined) return
        const heard = yield* Ref.make<ReadonlyArray<McpTasks.TaskChange>>([])
        yield* changes((c) => Ref.update(heard, (all) => [...all, c]))
        const r = task("t1", "session:s", now + 60_000, now)
        yield* store.put(r)
        yield* store.update("t1", (x) => ({ ...x, task: { ...x.task, status: "cancelled" } }))
        const all = yield* eventually("changes", h, Ref.get(heard), (all) => all.some((c) => c.taskId === "t1" && c.status === "cancelled"), "the change was never told")
        yield* same(all.filter((c) => c.taskId === "t1").at(-1), { taskId: "t1", status: "cancelled" }, "the latest change of t1")
      }))
  ]
}
