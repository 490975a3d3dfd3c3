/**
 * `SessionStore` on Redis: the sessions of a fleet, its instances'
 * heartbeats and the messages between them.
 *
 * - **Records.** One key per session (`<prefix>:{<session>}:rec`, JSON),
 *   its TTL the idle timeout, restarted by every request (`load` is one Lua
 *   script: one round trip); a sorted set `<prefix>:sessions` scores each
 *   session by its expiry, so that `reserve` counts the live sessions of the
 *   fleet and admits a new one atomically; the set outlives its latest
 *   session (a TTL, as every key has).
 * - **Streams.** `<prefix>:sm:<stream>`: the requests of a streamed POST,
 *   for the retention of its events.
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
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
 * import * as Layer from "effect/Layer"
 *
 * const Sessions = RedisSessionStore.layer({ instanceId: "web-1" }).pipe(Layer.provide(RedisClient.layerConfig()))
 * ```
 * @since 0.1.0
 */
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { Redis } from "ioredis"
import { RedisClient, type RedisClientShape, type RedisError } from "./RedisClient.js"

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
  readonly heartbeatInterval?: Duration.DurationInput | undefined
  /** How long a heartbeat lasts: an instance silent this long is dead for the others (default 3 seconds). */
  readonly heartbeatTtl?: Duration.DurationInput | undefined
}

// the set of sessions outlives its latest session (as the tasks' indexes do): every key has a TTL
const OUTLIVE = (key: string, ttl: string) => `
if redis.call('PTTL', ${key}) < ${ttl} then redis.call('PEXPIRE', ${key}, ${ttl}) end`

// KEYS: sessions, record. ARGV: now, ttl ms (-1: none), max, session id
const RESERVE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
local ttl = tonumber(ARGV[2])
if ttl < 0 then
  redis.call('ZADD', KEYS[1], '+inf', ARGV[4])
  redis.call('PERSIST', KEYS[1])
  redis.call('SET', KEYS[2], '')
else
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + ttl, ARGV[4])
  redis.call('SET', KEYS[2], '', 'PX', ttl)${OUTLIVE("KEYS[1]", "ttl")}
end
return 1
`

// KEYS: record, sessions. ARGV: now, ttl ms (-1: none), session id
const LOAD = `
local record = redis.call('GET', KEYS[1])
if not record then return false end
local ttl = tonumber(ARGV[2])
if ttl >= 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('ZADD', KEYS[2], 'XX', tonumber(ARGV[1]) + ttl, ARGV[3])${OUTLIVE("KEYS[2]", "ttl")}
end
return record
`

// KEYS: record, sessions. ARGV: now, ttl ms (-1: none), session id, record
const SAVE = `
local ttl = tonumber(ARGV[2])
if ttl < 0 then
  redis.call('SET', KEYS[1], ARGV[4])
  redis.call('ZADD', KEYS[2], '+inf', ARGV[3])
  redis.call('PERSIST', KEYS[2])
else
  redis.call('SET', KEYS[1], ARGV[4], 'PX', ttl)
  redis.call('ZADD', KEYS[2], tonumber(ARGV[1]) + ttl, ARGV[3])${OUTLIVE("KEYS[2]", "ttl")}
end
return 1
`

type Scripts = Redis & {
  readonly mcpReserve: (...args: ReadonlyArray<string | number>) => Promise<number>
  readonly mcpLoad: (...args: ReadonlyArray<string | number>) => Promise<string | null>
  readonly mcpSave: (...args: ReadonlyArray<string | number>) => Promise<number>
}

const define = (redis: Redis): Scripts => {
  const r = redis as Scripts
  if (typeof r.mcpReserve !== "function") {
    redis.defineCommand("mcpReserve", { numberOfKeys: 2, lua: RESERVE })
    redis.defineCommand("mcpLoad", { numberOfKeys: 2, lua: LOAD })
    redis.defineCommand("mcpSave", { numberOfKeys: 2, lua: SAVE })
  }
  return r
}

const unavailable = (error: RedisError) =>
  new SessionStore.SessionStoreError({ reason: "Unavailable", message: error.message, cause: error })

const randomId = (): string => {
  const bytes = new Uint8Array(6)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

const RecordJson = Schema.parseJson(SessionStore.SessionRecordSchema)
const encodeRecord = Schema.encodeSync(RecordJson)
// a record that is not one (written by something else) is no session
const decodeRecord = Schema.decodeOption(RecordJson)

const ttlArg = (ttlMs: number): number => (Number.isFinite(ttlMs) ? Math.max(1, Math.round(ttlMs)) : -1)

/**
 * The store of one instance over a connection; its heartbeat and
 * subscriptions run for the life of the scope.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
 * import * as Effect from "effect/Effect"
 *
 * const store = Effect.flatMap(RedisClient.RedisClient, (client) => RedisSessionStore.make(client, { instanceId: "web-1" }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  client: RedisClientShape,
  options: Options = {}
): Effect.Effect<SessionStore.SessionStoreShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = define(client.redis)
    const p = client.prefix
    const instanceId = options.instanceId ?? randomId()
    const sessionsKey = `${p}:sessions`
    const record = (id: string) => `${p}:{${id}}:rec`
    const heartbeat = (id: string) => `${p}:hb:${id}`
    const channelAll = `${p}:ch:all`
    const channelOf = (id: string) => `${p}:ch:i:${id}`
    const use = <A>(f: (redis: Scripts) => Promise<A>) => Effect.mapError(client.use(() => f(redis)), unavailable)

    // heartbeat: written at once, then every interval; removed on a graceful stop
    const interval = Duration.decode(options.heartbeatInterval ?? Duration.seconds(1))
    const hbTtl = Math.round(Duration.toMillis(Duration.decode(options.heartbeatTtl ?? Duration.seconds(3))))
    const beat = Effect.ignore(use((r) => r.set(heartbeat(instanceId), "1", "PX", hbTtl)))
    yield* beat
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(interval), beat)))
    yield* Effect.addFinalizer(() => Effect.ignore(use((r) => r.del(heartbeat(instanceId)))))

    // messages: the subscriber's callbacks offer to a mailbox; one fiber hands them to the handlers in order
    const handlers = new Set<(message: SessionStore.FleetMessage) => Effect.Effect<void>>()
    const inbox = yield* Mailbox.make<string>()
    const onMessage = (channel: string, text: string) => {
      // the subscriber connection carries other channels too (task changes)
      if (channel === channelAll || channel === channelOf(instanceId)) inbox.unsafeOffer(text)
    }
    client.subscriber.on("message", onMessage)
    yield* Effect.addFinalizer(() => Effect.sync(() => client.subscriber.off("message", onMessage)))
    yield* Effect.tryPromise(() => client.subscriber.subscribe(channelAll, channelOf(instanceId))).pipe(
      Effect.catchAll((e) => Effect.logWarning(`Redis: could not subscribe yet (retried on reconnect): ${String(e.error)}`))
    )
    yield* Effect.addFinalizer(() =>
      Effect.tryPromise(() => client.subscriber.unsubscribe(channelAll, channelOf(instanceId))).pipe(Effect.ignore)
    )
    const dispatch = (text: string) =>
      SessionStore.decodeFleetMessage(text).pipe(
        Effect.flatMap((message) =>
          Effect.forEach(Array.from(handlers), (h) => h(message), { discard: true }).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("a fleet message's handler failed", cause))
          )
        ),
        Effect.catchTag("ParseError", (error) => Effect.logWarning("Redis: not a fleet message; ignored", error))
      )
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(inbox.take, dispatch)))

    return {
      instanceId,
      reserve: (sessionId, ttlMs, max) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.map(
            use((r) => r.mcpReserve(sessionsKey, record(sessionId), now, ttlArg(ttlMs), max, sessionId)),
            (admitted) => admitted === 1
          )),
      load: (sessionId, ttlMs) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.map(
            use((r) => r.mcpLoad(record(sessionId), sessionsKey, now, ttlArg(ttlMs), sessionId)),
            (text) => text === null || text === "" ? Option.none() : decodeRecord(text)
          )),
      save: (sessionId, value, ttlMs) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.asVoid(
            use((r) => r.mcpSave(record(sessionId), sessionsKey, now, ttlArg(ttlMs), sessionId, encodeRecord(value)))
          )),
      touch: (ids, ttlMs) =>
        Number.isFinite(ttlMs)
          ? Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.asVoid(use((r) => {
              const pipeline = r.pipeline()
              for (const id of ids) {
                pipeline.pexpire(record(id), ttlArg(ttlMs))
                pipeline.zadd(sessionsKey, "XX", now + ttlArg(ttlMs), id)
              }
              // the set outlives its latest session (every instance has the same idle timeout)
              pipeline.pexpire(sessionsKey, ttlArg(ttlMs))
              return pipeline.exec()
            })))
          : Effect.void,
      remove: (sessionId) => Effect.asVoid(use((r) => r.multi().del(record(sessionId)).zrem(sessionsKey, sessionId).exec())),
      count: Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.map(
          use((r) => r.multi().zremrangebyscore(sessionsKey, "-inf", now).zcard(sessionsKey).exec()),
          (replies) => Number(replies?.[1]?.[1] ?? 0)
        )),
      saveStream: (streamId, requests, ttlMs) =>
        Effect.asVoid(use((r) => r.set(`${p}:sm:${streamId}`, JSON.stringify(requests), "PX", ttlArg(ttlMs) < 0 ? 3_600_000 : ttlArg(ttlMs)))),
      loadStream: (streamId) =>
        Effect.map(use((r) => r.get(`${p}:sm:${streamId}`)), (text) =>
          text === null ? Option.none() : Option.some(JSON.parse(text) as ReadonlyArray<string | number>)),
      alive: (id) => Effect.map(use((r) => r.exists(heartbeat(id))), (n) => n > 0),
      publish: (to, message) =>
        Effect.flatMap(
          Effect.sync(() => SessionStore.encodeFleetMessage(message)),
          (text) => Effect.asVoid(use((r) => r.publish(to === undefined ? channelAll : channelOf(to), text)))
        ),
      subscribe: (handler) =>
        Effect.acquireRelease(Effect.sync(() => handlers.add(handler)), () => Effect.sync(() => handlers.delete(handler)))
    } satisfies SessionStore.SessionStoreShape
  })

/**
 * The store as the `SessionStore` service, over the `RedisClient` in context.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
 * import * as Layer from "effect/Layer"
 *
 * const Sessions = RedisSessionStore.layer().pipe(Layer.provide(RedisClient.layer({ url: "redis://127.0.0.1:6379" })))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<SessionStore.SessionStore, never, RedisClient> =>
  Layer.scoped(SessionStore.SessionStore, Effect.flatMap(RedisClient, (client) => make(client, options)))
