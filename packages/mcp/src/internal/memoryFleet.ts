/**
 * The in-memory fleet (`SessionStore.makeMemoryFleet`): the session stores
 * of instances in one process, over records with their time to live on the
 * Clock, and messages through the fleet's one encoding.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as EventStore from "../EventStore.js"
import type * as JsonRpc from "../JsonRpc.js"
import type { FleetMessage, MemoryFleet, SessionRecord, SessionStoreShape } from "../SessionStore.js"

interface Held<A> {
  readonly value: A
  expires: number
}

/** A fleet in one process. */
export const make = (
  options: EventStore.MemoryOptions | undefined,
  // the one encoding of fleet messages (`SessionStore.roundTrip`), given by the public module that owns it
  roundTrip: (message: FleetMessage) => FleetMessage
): Effect.Effect<MemoryFleet, never, Scope.Scope> =>
  Effect.gen(function*() {
    const clock = yield* Clock.Clock
    const now = () => clock.currentTimeMillisUnsafe()
    const events = yield* EventStore.makeMemory(options)
    const records = new Map<string, Held<SessionRecord | undefined>>()
    const streams = new Map<string, Held<ReadonlyArray<JsonRpc.RequestId>>>()
    const dead = new Set<string>()
    const handlers = new Map<string, Set<(message: FleetMessage) => Effect.Effect<void>>>()
    const live = <A>(map: Map<string, Held<A>>, key: string): Held<A> | undefined => {
      const held = map.get(key)
      if (held !== undefined && held.expires <= now()) map.delete(key)
      return held !== undefined && held.expires > now() ? held : undefined
    }
    const liveCount = () => {
      let n = 0
      for (const key of Array.from(records.keys())) if (live(records, key) !== undefined) n++
      return n
    }
    const deliver = (to: string | undefined, sent: FleetMessage) => {
      // through the one encoding, as over a shared store: what arrives is what JSON carries
      const message = roundTrip(sent)
      return Effect.forEach(
        Array.from(handlers.entries()).filter(([id]) => (to === undefined || id === to) && !dead.has(id)),
        ([, set]) =>
          Effect.forEach(
            Array.from(set),
            // a handler's defect is the receiver's: it neither fails the sender nor stops delivery
            (h) => Effect.catchCause(h(message), (cause) => Effect.logWarning("a fleet message's handler failed", cause)),
            { discard: true }
          ),
        { discard: true }
      )
    }
    const instance = (instanceId: string): SessionStoreShape => ({
      instanceId,
      reserve: (sessionId, ttlMs, max) =>
        Effect.sync(() => {
          if (liveCount() >= max) return false
          records.set(sessionId, { value: undefined, expires: now() + ttlMs })
          return true
        }),
      load: (sessionId, ttlMs) =>
        Effect.sync(() => {
          const held = live(records, sessionId)
          if (held === undefined || held.value === undefined) return Option.none()
          held.expires = now() + ttlMs
          return Option.some(held.value)
        }),
      save: (sessionId, record, ttlMs) => Effect.sync(() => void records.set(sessionId, { value: record, expires: now() + ttlMs })),
      touch: (ids, ttlMs) =>
        Effect.sync(() => {
          for (const id of ids) {
            const held = live(records, id)
            if (held !== undefined) held.expires = now() + ttlMs
          }
        }),
      remove: (sessionId) => Effect.sync(() => void records.delete(sessionId)),
      count: Effect.sync(liveCount),
      saveStream: (streamId, requests, ttlMs) =>
        Effect.sync(() => void streams.set(streamId, { value: requests, expires: now() + ttlMs })),
      loadStream: (streamId) => Effect.sync(() => Option.fromNullishOr(live(streams, streamId)?.value)),
      // alive while subscribed (as an instance's heartbeat runs while it does), unless marked dead
      alive: (id) => Effect.sync(() => (handlers.get(id)?.size ?? 0) > 0 && !dead.has(id)),
      publish: (to, message) => Effect.suspend(() => (dead.has(instanceId) ? Effect.void : deliver(to, message))),
      subscribe: (handler) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            let set = handlers.get(instanceId)
            if (set === undefined) handlers.set(instanceId, set = new Set())
            set.add(handler)
          }),
          () => Effect.sync(() => handlers.get(instanceId)?.delete(handler))
        )
    })
    return {
      instance,
      events,
      setAlive: (id, alive) => {
        if (alive) dead.delete(id)
        else dead.add(id)
      }
    }
  })
