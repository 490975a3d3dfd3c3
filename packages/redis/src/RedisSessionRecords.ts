/**
 * The records half of a `SessionStore` on Redis (`SessionStore.SessionRecords`):
 * the sessions of a fleet and the requests of its streamed POSTs. Usable
 * alone, with a bus of another backend (`SessionStore.fromParts`);
 * `RedisSessionStore` joins it to `RedisFleetBus`.
 *
 * - **Records.** One key per session (`<prefix>:{<session>}:rec`, JSON),
 *   its TTL the idle timeout, restarted by every request (`load` is one Lua
 *   script: one round trip); a sorted set `<prefix>:sessions` scores each
 *   session by its expiry, so that `reserve` counts the live sessions of the
 *   fleet and admits a new one atomically; the set outlives its latest
 *   session (a TTL, as every key has).
 * - **Streams.** `<prefix>:sm:<stream>`: the requests of a streamed POST,
 *   for the retention of its events.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisSessionRecords from "@effect-mcp/redis/RedisSessionRecords"
 * import * as Effect from "effect/Effect"
 *
 * // the records on Redis, the messages between instances on a bus of your own
 * const store = (bus: SessionStore.FleetBus) =>
 *   Effect.gen(function*() {
 *     const records = yield* RedisSessionRecords.make(yield* RedisClient.RedisClient)
 *     return SessionStore.fromParts(records, bus)
 *   })
 * ```
 * @since 0.1.0
 */
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Redis } from "ioredis"
import { unavailable } from "./internal/sessionStoreError.js"
import type { RedisClientShape } from "./RedisClient.js"

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

const RecordJson = Schema.fromJsonString(SessionStore.SessionRecordSchema)
const encodeRecord = Schema.encodeSync(RecordJson)
// a record that is not one (written by something else) is no session
const decodeRecord = Schema.decodeOption(RecordJson)

const ttlArg = (ttlMs: number): number => (Number.isFinite(ttlMs) ? Math.max(1, Math.round(ttlMs)) : -1)

/** The keys of one fleet, and its commands. */
interface Keys {
  readonly sessions: string
  readonly record: (sessionId: string) => string
  readonly stream: (streamId: string) => string
  readonly use: <A>(f: (redis: Scripts) => Promise<A>) => Effect.Effect<A, SessionStore.SessionStoreError>
}

/**
 * The fleet's session records over a connection (the key prefix is the client's).
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisSessionRecords from "@effect-mcp/redis/RedisSessionRecords"
 * import * as Effect from "effect/Effect"
 *
 * const records = Effect.flatMap(RedisClient.RedisClient, RedisSessionRecords.make)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (client: RedisClientShape): Effect.Effect<SessionStore.SessionRecords> =>
  Effect.sync(() => {
    const redis = define(client.redis)
    const p = client.prefix
    const keys: Keys = {
      sessions: `${p}:sessions`,
      record: (id) => `${p}:{${id}}:rec`,
      stream: (id) => `${p}:sm:${id}`,
      use: (f) => unavailable(client.use(() => f(redis)))
    }
    return { ...sessionRecords(keys), ...streamRecords(keys) }
  })

const sessionRecords = ({ record, sessions, use }: Keys): Omit<SessionStore.SessionRecords, "saveStream" | "loadStream"> => ({
  reserve: (sessionId, ttlMs, max) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(
        use((r) => r.mcpReserve(sessions, record(sessionId), now, ttlArg(ttlMs), max, sessionId)),
        (admitted) => admitted === 1
      )),
  load: (sessionId, ttlMs) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(
        use((r) => r.mcpLoad(record(sessionId), sessions, now, ttlArg(ttlMs), sessionId)),
        (text) => text === null || text === "" ? Option.none() : decodeRecord(text)
      )),
  save: (sessionId, value, ttlMs) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.asVoid(
        use((r) => r.mcpSave(record(sessionId), sessions, now, ttlArg(ttlMs), sessionId, encodeRecord(value)))
      )),
  touch: (ids, ttlMs) =>
    Number.isFinite(ttlMs)
      ? Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.asVoid(use((r) => {
          const pipeline = r.pipeline()
          for (const id of ids) {
            pipeline.pexpire(record(id), ttlArg(ttlMs))
            pipeline.zadd(sessions, "XX", now + ttlArg(ttlMs), id)
          }
          // the set outlives its latest session (every instance has the same idle timeout)
          pipeline.pexpire(sessions, ttlArg(ttlMs))
          return pipeline.exec()
        })))
      : Effect.void,
  remove: (sessionId) => Effect.asVoid(use((r) => r.multi().del(record(sessionId)).zrem(sessions, sessionId).exec())),
  count: Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.map(
      use((r) => r.multi().zremrangebyscore(sessions, "-inf", now).zcard(sessions).exec()),
      (replies) => Number(replies?.[1]?.[1] ?? 0)
    ))
})

const streamRecords = ({ stream, use }: Keys): Pick<SessionStore.SessionRecords, "saveStream" | "loadStream"> => ({
  saveStream: (streamId, requests, ttlMs) =>
    Effect.asVoid(use((r) => r.set(stream(streamId), JSON.stringify(requests), "PX", ttlArg(ttlMs) < 0 ? 3_600_000 : ttlArg(ttlMs)))),
  loadStream: (streamId) =>
    Effect.map(use((r) => r.get(stream(streamId))), (text) =>
      text === null ? Option.none() : Option.some(JSON.parse(text) as ReadonlyArray<string | number>))
})
