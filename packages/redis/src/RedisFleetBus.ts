/**
 * The fleet bus half of a `SessionStore` on Redis (`SessionStore.FleetBus`):
 * this instance's identity, the instances' heartbeats and the messages
 * between them. Usable alone, with records in another backend
 * (`SessionStore.fromParts`); `RedisSessionStore` joins it to
 * `RedisSessionRecords`.
 *
 * - **Heartbeats.** `<prefix>:hb:<instance>` with a TTL of `heartbeatTtl`,
 *   refreshed every `heartbeatInterval`; deleted when the instance stops
 *   gracefully. An instance killed is dead for the others once the key
 *   expired.
 * - **Messages.** Pub/sub on `<prefix>:ch:all` and `<prefix>:ch:i:<instance>`,
 *   over the client's subscriber connection (resubscribed after a reconnect).
 *   Pub/sub is at most once: a message sent while an instance is
 *   disconnected from Redis is lost to it.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisFleetBus from "@effect-mcp/redis/RedisFleetBus"
 * import * as Effect from "effect/Effect"
 *
 * // the records in a backend of your own, the messages between instances on Redis
 * const store = (records: SessionStore.SessionRecords) =>
 *   Effect.gen(function*() {
 *     const bus = yield* RedisFleetBus.make(yield* RedisClient.RedisClient, { instanceId: "web-1" })
 *     return SessionStore.fromParts(records, bus)
 *   })
 * ```
 * @since 0.1.0
 */
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import { unavailable } from "./internal/sessionStoreError.js"
import type { RedisClientShape } from "./RedisClient.js"

/**
 * This instance's part in the fleet.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Unique in the fleet (default: random). */
  readonly instanceId?: string | undefined
  /** How often this instance says it is alive (default 1 second). */
  readonly heartbeatInterval?: Duration.Input | undefined
  /** How long a heartbeat lasts: an instance silent this long is dead for the others (default 3 seconds). */
  readonly heartbeatTtl?: Duration.Input | undefined
}

const randomId = (): string => {
  const bytes = new Uint8Array(6)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

type Handler = (message: SessionStore.FleetMessage) => Effect.Effect<void>

/**
 * The bus of one instance over a connection; its heartbeat and its
 * subscription run for the life of the scope.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisFleetBus from "@effect-mcp/redis/RedisFleetBus"
 * import * as Effect from "effect/Effect"
 *
 * const bus = Effect.flatMap(RedisClient.RedisClient, (client) => RedisFleetBus.make(client, { instanceId: "web-1" }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  client: RedisClientShape,
  options: Options = {}
): Effect.Effect<SessionStore.FleetBus, never, Scope.Scope> =>
  Effect.gen(function*() {
    const instanceId = options.instanceId ?? randomId()
    const p = client.prefix
    const heartbeat = (id: string) => `${p}:hb:${id}`
    const channelAll = `${p}:ch:all`
    const channelOf = (id: string) => `${p}:ch:i:${id}`
    yield* beat(client, heartbeat(instanceId), options)
    const handlers = new Set<Handler>()
    yield* receive(client, [channelAll, channelOf(instanceId)], handlers)
    return {
      instanceId,
      alive: (id) => Effect.map(unavailable(client.use((r) => r.exists(heartbeat(id)))), (n) => n > 0),
      publish: (to, message) =>
        Effect.flatMap(
          Effect.sync(() => SessionStore.encodeFleetMessage(message)),
          (text) => Effect.asVoid(unavailable(client.use((r) => r.publish(to === undefined ? channelAll : channelOf(to), text))))
        ),
      subscribe: (handler) =>
        Effect.acquireRelease(Effect.sync(() => handlers.add(handler)), () => Effect.sync(() => handlers.delete(handler)))
    }
  })

/** The heartbeat at `key`: written at once, then every interval; removed on a graceful stop. */
const beat = (client: RedisClientShape, key: string, options: Options) =>
  Effect.gen(function*() {
    const interval = Duration.fromInputUnsafe(options.heartbeatInterval ?? Duration.seconds(1))
    const ttl = Math.round(Duration.toMillis(Duration.fromInputUnsafe(options.heartbeatTtl ?? Duration.seconds(3))))
    const once = Effect.ignore(client.use((r) => r.set(key, "1", "PX", ttl)))
    yield* once
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(interval), once)))
    yield* Effect.addFinalizer(() => Effect.ignore(client.use((r) => r.del(key))))
  })

/**
 * The messages of `channels`, to `handlers`: the subscriber's callbacks offer to a queue; one
 * fiber hands them to the handlers in order.
 */
const receive = (client: RedisClientShape, channels: ReadonlyArray<string>, handlers: ReadonlySet<Handler>) =>
  Effect.gen(function*() {
    const inbox = yield* Queue.make<string>()
    const onMessage = (channel: string, text: string) => {
      // the subscriber connection carries other channels too (task changes)
      if (channels.includes(channel)) Queue.offerUnsafe(inbox, text)
    }
    client.subscriber.on("message", onMessage)
    yield* Effect.addFinalizer(() => Effect.sync(() => client.subscriber.off("message", onMessage)))
    yield* Effect.tryPromise(() => client.subscriber.subscribe(...channels)).pipe(
      Effect.catch((e) => Effect.logWarning(`Redis: could not subscribe yet (retried on reconnect): ${String(e.cause)}`))
    )
    yield* Effect.addFinalizer(() => Effect.tryPromise(() => client.subscriber.unsubscribe(...channels)).pipe(Effect.ignore))
    const dispatch = (text: string) =>
      SessionStore.decodeFleetMessage(text).pipe(
        Effect.flatMap((message) =>
          Effect.forEach(Array.from(handlers), (h) => h(message), { discard: true }).pipe(
            Effect.catchCause((cause) => Effect.logWarning("a fleet message's handler failed", cause))
          )
        ),
        Effect.catchTag("SchemaError", (error) => Effect.logWarning("Redis: not a fleet message; ignored", error))
      )
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(inbox), dispatch)))
  })
