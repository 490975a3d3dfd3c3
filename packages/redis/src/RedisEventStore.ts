/**
 * `EventStore` on Redis Streams, shared by every instance of a fleet: a
 * stream resumed with `Last-Event-ID` on any instance replays what another
 * one wrote. It keeps the contract of `@effect-mcp/mcp/EventStore`, with
 * Redis doing the bookkeeping:
 *
 * - **Ids.** One counter per session (`INCR`), so ids never repeat in a
 *   session; an event is the Redis Stream entry `<seq>-0` of its stream's key.
 * - **Bounds.** A stream holds at most `maxEventsPerStream` events: the
 *   oldest go first, a response leaving its stand-in (`lostAnswer`), other
 *   events a gap (a replay from before it is incomplete: 410). An event
 *   larger than `maxEventBytes` is stored as its stand-in, or dropped.
 * - **Time.** A stream marked delivered expires after the grace period; one
 *   that is not, `retention` after its latest event (the keys' TTL).
 *   `dropSession` deletes a session's streams and counter at once.
 * - **Atomicity.** Every operation is one Lua script: one round trip.
 *   `delivered` and `appendDelivered` (a stream the server wrote whole: its
 *   events stored after they were written, the stream's keys given the grace
 *   period by the last) are off the request's path: queued, and sent
 *   (pipelined with the others queued meanwhile) by a fiber of the store's
 *   scope.
 *
 * Unlike the in-memory store there is no budget across sessions: Redis's
 * own `maxmemory` (with a `volatile-*` policy) and the TTLs bound the total.
 * A Redis failure during an operation is a defect of that operation (the
 * request whose event it was ends); the requests that follow get 503 from
 * the session store until Redis is back.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisEventStore from "@effect-mcp/redis/RedisEventStore"
 * import * as Layer from "effect/Layer"
 *
 * const Events = RedisEventStore.layer({ gracePeriod: "10 seconds" }).pipe(Layer.provide(RedisClient.layerConfig()))
 * ```
 * @since 0.1.0
 */
import * as EventStore from "@effect-mcp/mcp/EventStore"
import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { Redis } from "ioredis"
import { RedisClient, type RedisClientShape } from "./RedisClient.js"

/**
 * Bounds and times of the Redis event store.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Events held per stream (default 1000). */
  readonly maxEventsPerStream?: number | undefined
  /** Largest event stored as it is (default 16 MiB); a larger response is stored as its stand-in. */
  readonly maxEventBytes?: number | undefined
  /** How long a delivered stream stays resumable (default 10 seconds). */
  readonly gracePeriod?: Duration.Input | undefined
  /** How long an undelivered stream is kept after its latest event (default 30 minutes, the default idle timeout). */
  readonly retention?: Duration.Input | undefined
}

// KEYS: seq, streams, events, lost, gap. ARGV: data, stand-in ('' when the event answers nothing),
// max events, retention ms, stream id, too large ('1'), the stream's time to live after it ('0': the
// retention; the grace period when the stream was delivered with this event)
const APPEND = `
local seq = redis.call('INCR', KEYS[1])
local ttl = ARGV[4]
local sttl = ttl
if tonumber(ARGV[7]) > 0 then sttl = ARGV[7] end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ttl)
local function gap(s)
  local g = tonumber(redis.call('GET', KEYS[5]) or '0')
  if s > g then redis.call('SET', KEYS[5], s, 'PX', sttl) end
end
if ARGV[6] == '1' then
  if ARGV[2] ~= '' then
    redis.call('HSET', KEYS[4], seq, ARGV[2])
    redis.call('PEXPIRE', KEYS[4], sttl)
  else
    gap(seq)
  end
  return seq
end
local max = tonumber(ARGV[3])
local len = redis.call('XLEN', KEYS[3])
while len >= max do
  local oldest = redis.call('XRANGE', KEYS[3], '-', '+', 'COUNT', 1)[1]
  local id = oldest[1]
  local standIn = oldest[2][4]
  local s = tonumber(string.match(id, '^(%d+)'))
  if standIn ~= nil and standIn ~= '' then
    redis.call('HSET', KEYS[4], s, standIn)
  else
    gap(s)
  end
  redis.call('XDEL', KEYS[3], id)
  len = len - 1
end
redis.call('XADD', KEYS[3], seq .. '-0', 'd', ARGV[1], 's', ARGV[2])
redis.call('PEXPIRE', KEYS[3], sttl)
redis.call('PEXPIRE', KEYS[4], sttl)
redis.call('PEXPIRE', KEYS[5], sttl)
return seq
`

// KEYS: events, lost, gap. ARGV: the sequence after which
const REPLAY = `
local after = tonumber(ARGV[1])
local held = redis.call('EXISTS', KEYS[1]) + redis.call('EXISTS', KEYS[2]) + redis.call('EXISTS', KEYS[3])
if held == 0 then return false end
return { redis.call('XRANGE', KEYS[1], (after + 1) .. '-0', '+'), redis.call('HGETALL', KEYS[2]), redis.call('GET', KEYS[3]) or '0' }
`

// KEYS: events, lost, gap. ARGV: grace ms
const DELIVERED = `
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return 1
`

// KEYS: seq, streams. ARGV: the session's key base
const DROP = `
for _, stream in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('DEL', ARGV[1] .. 'ev:' .. stream, ARGV[1] .. 'lost:' .. stream, ARGV[1] .. 'gap:' .. stream)
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`

type Scripts = Redis & {
  readonly mcpAppend: (...args: ReadonlyArray<string | number>) => Promise<number>
  readonly mcpReplay: (...args: ReadonlyArray<string | number>) => Promise<[Array<[string, Array<string>]>, Array<string>, string] | null>
  readonly mcpDelivered: (...args: ReadonlyArray<string | number>) => Promise<number>
  readonly mcpDrop: (...args: ReadonlyArray<string | number>) => Promise<number>
}

const define = (redis: Redis): Scripts => {
  const r = redis as Scripts
  if (typeof r.mcpAppend !== "function") {
    redis.defineCommand("mcpAppend", { numberOfKeys: 5, lua: APPEND })
    redis.defineCommand("mcpReplay", { numberOfKeys: 3, lua: REPLAY })
    redis.defineCommand("mcpDelivered", { numberOfKeys: 3, lua: DELIVERED })
    redis.defineCommand("mcpDrop", { numberOfKeys: 2, lua: DROP })
  }
  return r
}

/** The keys of one session: `{session}` is a hash tag, so a session's keys share a cluster slot. */
const keysOf = (prefix: string, sessionId: string) => {
  const base = `${prefix}:{${sessionId}}:`
  return {
    base,
    seq: `${base}seq`,
    streams: `${base}streams`,
    events: (streamId: string) => `${base}ev:${streamId}`,
    lost: (streamId: string) => `${base}lost:${streamId}`,
    gap: (streamId: string) => `${base}gap:${streamId}`
  }
}

const seqOfEntry = (id: string): number => Number(id.slice(0, id.indexOf("-")))

/**
 * The store over a connection.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisEventStore from "@effect-mcp/redis/RedisEventStore"
 * import * as Effect from "effect/Effect"
 *
 * const store = Effect.flatMap(RedisClient.RedisClient, (client) => RedisEventStore.make(client))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  client: RedisClientShape,
  options: Options = {}
): Effect.Effect<EventStore.EventStoreShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = define(client.redis)
    const graceMs = Math.max(1, Math.round(Duration.toMillis(Duration.fromInputUnsafe(options.gracePeriod ?? Duration.seconds(10)))))
    const limits = limitsOf(options)
    // off the path: delivery marks (`delivered`) and streams written whole (`appendDelivered`),
    // queued, and sent in pipelines by one fiber
    const jobs = yield* Queue.make<Job>()
    const send = (batch: ReadonlyArray<Job>) =>
      client.use((): Promise<unknown> => {
        const only = batch.length === 1 ? batch[0]! : undefined
        if (only !== undefined && (only.events === undefined || only.events.length <= 1)) {
          // one command (a sequential call's stream, written whole): sent as it is, an ioredis
          // pipeline object costs more than the command
          const k = keysOf(client.prefix, only.sessionId)
          const event = only.events?.[0]
          return event === undefined
            ? redis.mcpDelivered(k.events(only.streamId), k.lost(only.streamId), k.gap(only.streamId), graceMs)
            : appendArgs(redis, k, only.streamId, event.data, event.answers, limits, graceMs)
        }
        const pipeline = redis.pipeline() as unknown as Scripts & { readonly exec: () => Promise<unknown> }
        for (const job of batch) {
          const k = keysOf(client.prefix, job.sessionId)
          const events = job.events ?? []
          if (events.length === 0) pipeline.mcpDelivered(k.events(job.streamId), k.lost(job.streamId), k.gap(job.streamId), graceMs)
          events.forEach((event, i) =>
            appendArgs(pipeline, k, job.streamId, event.data, event.answers, limits, i === events.length - 1 ? graceMs : 0)
          )
        }
        return pipeline.exec()
      }).pipe(Effect.catch((e) => Effect.logWarning(`could not store delivered streams: ${e.message}`)))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.takeAll(jobs), send)))
    return shape(client, redis, limits, (job) => void Queue.offerUnsafe(jobs, job))
  })

/** Queued off the path: a stream marked delivered, with the events it was written with whole. */
interface Job {
  readonly sessionId: string
  readonly streamId: string
  readonly events: ReadonlyArray<EventStore.WholeEvent> | undefined
}

interface Limits {
  readonly max: number
  readonly maxBytes: number
  readonly retentionMs: number
}

const limitsOf = (options: Options): Limits => ({
  max: options.maxEventsPerStream ?? 1000,
  maxBytes: options.maxEventBytes ?? 16 * 1024 * 1024,
  retentionMs: Math.max(1, Math.round(Duration.toMillis(Duration.fromInputUnsafe(options.retention ?? Duration.minutes(30)))))
})

/** One append (`keep`: the stream's time to live after it, 0 for the retention). */
const appendArgs = (
  redis: Scripts,
  k: ReturnType<typeof keysOf>,
  streamId: string,
  data: string,
  answers: JsonRpc.RequestId | undefined,
  limits: Limits,
  keep: number
) =>
  redis.mcpAppend(
    k.seq,
    k.streams,
    k.events(streamId),
    k.lost(streamId),
    k.gap(streamId),
    data,
    answers === undefined ? "" : EventStore.lostAnswer(answers),
    limits.max,
    limits.retentionMs,
    streamId,
    data.length > limits.maxBytes ? "1" : "0",
    keep
  )

const shape = (
  client: RedisClientShape,
  redis: Scripts,
  limits: Limits,
  queue: (job: Job) => void
): EventStore.EventStoreShape => {
  const run = <A>(f: () => Promise<A>): Effect.Effect<A> => Effect.orDie(client.use(f))
  return {
    append: (sessionId, streamId, data, answers?: JsonRpc.RequestId) => {
      const k = keysOf(client.prefix, sessionId)
      return Effect.map(run(() => appendArgs(redis, k, streamId, data, answers, limits, 0)), (seq) => `${streamId}_${seq}`)
    },
    delivered: (sessionId, streamId) => Effect.sync(() => queue({ sessionId, streamId, events: undefined })),
    appendDelivered: (sessionId, streamId, events) => Effect.sync(() => queue({ sessionId, streamId, events })),
    replayAfter: (sessionId, lastEventId) =>
      Option.match(EventStore.parseEventId(lastEventId), {
        onNone: () => Effect.succeed(Option.none()),
        onSome: ({ seq, streamId }) => {
          const k = keysOf(client.prefix, sessionId)
          return Effect.map(run(() => redis.mcpReplay(k.events(streamId), k.lost(streamId), k.gap(streamId), seq)), (reply) => {
            if (reply === null) return Option.none()
            const [entries, lost, gap] = reply
            const events: Array<{ readonly seq: number; readonly data: string }> = []
            for (const [id, fields] of entries) events.push({ seq: seqOfEntry(id), data: fields[1]! })
            for (let i = 0; i < lost.length; i += 2) {
              const s = Number(lost[i])
              if (s > seq) events.push({ seq: s, data: lost[i + 1]! })
            }
            events.sort((a, b) => a.seq - b.seq)
            return Option.some({
              streamId,
              events: events.map((e) => ({ id: `${streamId}_${e.seq}`, data: e.data })),
              complete: Number(gap) <= seq
            })
          })
        }
      }),
    dropSession: (sessionId) => {
      const k = keysOf(client.prefix, sessionId)
      return Effect.asVoid(run(() => redis.mcpDrop(k.seq, k.streams, k.base)))
    }
  }
}

/**
 * The store as the `EventStore` service, over the `RedisClient` in context.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisEventStore from "@effect-mcp/redis/RedisEventStore"
 * import * as Layer from "effect/Layer"
 *
 * const Events = RedisEventStore.layer().pipe(Layer.provide(RedisClient.layer({ url: "redis://127.0.0.1:6379" })))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<EventStore.EventStore, never, RedisClient> =>
  Layer.effect(EventStore.EventStore, Effect.flatMap(RedisClient, (client) => make(client, options)))
