/**
 * `McpTasks.TaskStore` on Redis: the tasks of a fleet, served by any
 * instance. A task runs on the instance that created it; every instance
 * answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from
 * Redis.
 *
 * - **Records.** `<prefix>:task:<id>`: the task, its owner, its outcome and
 *   the instance running it (JSON). It is deleted by the sweep at its
 *   expiry; a TTL of its retention plus `grace` removes it should no
 *   instance sweep.
 * - **Indexes.** `<prefix>:tasks:exp` (sorted set, by expiry: the sweep and
 *   `size`), `<prefix>:tasks:own:<owner>` (sorted set, by creation: the
 *   owner's pages), `<prefix>:tasks:run:<instance>` and `<prefix>:tasks:runners`
 *   (the unfinished tasks of each instance).
 * - **Changes.** Every change, made in one Lua script with its check (a
 *   compare-and-set on the record), is published on `<prefix>:tasks:ch`;
 *   each instance wakes its `tasks/result` waiters with it and stops a
 *   handler it runs once its task is cancelled or expired. Pub/sub is at
 *   most once: every `checkInterval` an instance also looks for the tasks it
 *   runs that left its set of unfinished tasks unheard, and tells them.
 * - **Dead instances.** Every `checkInterval` an instance looks at the
 *   heartbeat (`SessionStore.alive`) of each instance with unfinished tasks:
 *   the tasks of one that died are moved to `failed`, with a reason, and the
 *   change is sent to the owning session's standing stream.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTasks from "@effect-mcp/mcp/McpTasks"
 * import * as RedisFleet from "@effect-mcp/redis/RedisFleet"
 * import * as Layer from "effect/Layer"
 *
 * // RedisFleet's Layer provides the TaskStore
 * const Tasks = McpTasks.layer({ defaultTtl: "10 minutes" }).pipe(Layer.provide(RedisFleet.layerConfig()))
 * const Server = Tasks.pipe(Layer.provideMerge(McpServer.layer({ name: "tools", version: "1.0.0" })))
 * ```
 * @since 0.1.0
 */
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import type { Redis } from "ioredis"
import { RedisClient, type RedisClientShape } from "./RedisClient.js"

/**
 * How the store keeps tasks.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** How often the heartbeats of instances with unfinished tasks are checked (default 1 second). */
  readonly checkInterval?: Duration.Input | undefined
  /** How long a record outlives its expiry in Redis if no instance sweeps it (default 1 minute). */
  readonly grace?: Duration.Input | undefined
}

/** A record as Redis holds it: the task and where it runs. */
interface Held {
  readonly record: McpTasks.StoredTask
  readonly instance: string
}

const TERMINAL = new Set<string>(["completed", "failed", "cancelled"])

// KEYS: record, exp, own, run, runners. ARGV: record json, expiresAt, createdAt, id, px, instance
const PUT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[4])
redis.call('SADD', KEYS[5], ARGV[6])
-- the indexes outlive their latest task, should no instance sweep them
for i = 2, 5 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
end
return 1
`

// KEYS: record, run, channel. ARGV: expected json, next json, id, change json, terminal (1/0)
const CAS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[5] == '1' then redis.call('SREM', KEYS[2], ARGV[3]) end
redis.call('PUBLISH', KEYS[3], ARGV[4])
return 1
`

// KEYS: exp, channel. ARGV: now, prefix. Deletes what expired (at most 500 a call); the ids.
const SWEEP = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 500)
for _, id in ipairs(ids) do
  local key = ARGV[2] .. ':task:' .. id
  local text = redis.call('GET', key)
  if text then
    local held = cjson.decode(text)
    redis.call('ZREM', ARGV[2] .. ':tasks:own:' .. held.record.owner, id)
    redis.call('SREM', ARGV[2] .. ':tasks:run:' .. held.instance, id)
    redis.call('DEL', key)
  end
  redis.call('ZREM', KEYS[1], id)
  redis.call('PUBLISH', KEYS[2], cjson.encode({ taskId = id }))
end
return ids
`

type Scripts = Redis & {
  readonly mcpTaskPut: (...args: ReadonlyArray<string | number>) => Promise<number>
  readonly mcpTaskCas: (...args: ReadonlyArray<string | number>) => Promise<number>
  readonly mcpTaskSweep: (...args: ReadonlyArray<string | number>) => Promise<Array<string>>
}

const define = (redis: Redis): Scripts => {
  const r = redis as Scripts
  if (typeof r.mcpTaskPut !== "function") {
    redis.defineCommand("mcpTaskPut", { numberOfKeys: 5, lua: PUT })
    redis.defineCommand("mcpTaskCas", { numberOfKeys: 3, lua: CAS })
    redis.defineCommand("mcpTaskSweep", { numberOfKeys: 2, lua: SWEEP })
  }
  return r
}

const parse = (text: string | null): Held | undefined => {
  if (text === null) return undefined
  try {
    return JSON.parse(text) as Held
  } catch {
    return undefined
  }
}

const changeOf = (text: string): McpTasks.TaskChange | undefined => {
  try {
    const u = JSON.parse(text) as { readonly taskId?: unknown; readonly status?: unknown }
    return typeof u.taskId === "string"
      ? { taskId: u.taskId, status: typeof u.status === "string" ? u.status as McpSchema.TaskStatus : undefined }
      : undefined
  } catch {
    return undefined
  }
}

/** The owning session of a record, where a change made here (not by its handler) is sent. */
const sessionOf = (record: McpTasks.StoredTask): string | undefined =>
  record.sessionId ?? (record.owner.startsWith("session:") ? record.owner.slice("session:".length) : undefined)

/**
 * The store of one instance over a connection and the fleet's bus (its
 * instance id, heartbeats and messages: a `SessionStore` is one, or
 * `RedisFleetBus` alone); its subscription and its dead-instance check run
 * for the life of the scope.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisTaskStore from "@effect-mcp/redis/RedisTaskStore"
 * import * as Effect from "effect/Effect"
 *
 * const store = Effect.gen(function*() {
 *   const client = yield* RedisClient.RedisClient
 *   const sessions = yield* SessionStore.SessionStore
 *   return yield* RedisTaskStore.make(client, sessions)
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  client: RedisClientShape,
  sessions: SessionStore.FleetBus,
  options: Options = {}
): Effect.Effect<McpTasks.TaskStoreShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const redis = define(client.redis)
    const p = client.prefix
    const self = sessions.instanceId
    const grace = Duration.toMillis(options.grace ?? "1 minute")
    const checkInterval = options.checkInterval ?? "1 second"
    /** The tasks this instance runs, not known to have ended. */
    const running = new Set<string>()
    const keys = {
      record: (id: string) => `${p}:task:${id}`,
      exp: `${p}:tasks:exp`,
      own: (owner: string) => `${p}:tasks:own:${owner}`,
      run: (instance: string) => `${p}:tasks:run:${instance}`,
      runners: `${p}:tasks:runners`,
      channel: `${p}:tasks:ch`
    }
    // a store that cannot reach Redis fails the request (a defect the server answers -32603), as an in-memory one cannot
    const use = <A>(f: (redis: Scripts) => Promise<A>) => Effect.orDie(client.use(() => f(redis)))
    // a status change is retried through a short outage of Redis (a finished task must not stay working)
    const retried = <A>(f: (redis: Scripts) => Promise<A>) =>
      Effect.orDie(Effect.retry(client.use(() => f(redis)), Schedule.max([Schedule.exponential("100 millis"), Schedule.recurs(7)])))

    const read = (taskId: string) => Effect.map(use((r) => r.get(keys.record(taskId))), (text) => ({ text, held: parse(text) }))
    const live = (record: McpTasks.StoredTask | undefined, now: number) =>
      record !== undefined && record.expiresAt > now ? record : undefined

    const put = (record: McpTasks.StoredTask) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const id = record.task.taskId
        const held: Held = { record, instance: self }
        const px = Math.max(1, Math.round(record.expiresAt - now + grace))
        const created = Date.parse(record.task.createdAt)
        return Effect.andThen(use((r) =>
          r.mcpTaskPut(
            keys.record(id),
            keys.exp,
            keys.own(record.owner),
            keys.run(self),
            keys.runners,
            JSON.stringify(held),
            record.expiresAt,
            Number.isFinite(created) ? created : now,
            id,
            px,
            self
          )
        ), Effect.sync(() => void running.add(id)))
      })

    /** Applies `f` to the current record, atomically (compare-and-set, retried on a concurrent change). */
    const update = (
      taskId: string,
      f: (record: McpTasks.StoredTask) => McpTasks.StoredTask | undefined
    ): Effect.Effect<McpTasks.StoredTask | undefined> =>
      Effect.gen(function*() {
        for (;;) {
          const { held, text } = yield* Effect.map(retried((r) => r.get(keys.record(taskId))), (text) => ({ text, held: parse(text) }))
          if (held === undefined || text === null) return undefined
          const next = f(held.record)
          if (next === undefined) return undefined
          const status = next.task.status
          const change: McpTasks.TaskChange = { taskId, status }
          const written = yield* retried((r) =>
            r.mcpTaskCas(
              keys.record(taskId),
              keys.run(held.instance),
              keys.channel,
              text,
              JSON.stringify({ record: next, instance: held.instance } satisfies Held),
              taskId,
              JSON.stringify(change),
              TERMINAL.has(status) ? 1 : 0
            )
          )
          if (written === 1) return next
        }
      })

    const list = (owner: string, offset: number, limit: number) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const ids = yield* use((r) => r.zrange(keys.own(owner), offset, offset + limit))
        const texts = ids.length === 0 ? [] : yield* use((r) => r.mget(...ids.slice(0, limit).map(keys.record)))
        const tasks: Array<McpTasks.StoredTask> = []
        for (const text of texts) {
          const record = live(parse(text)?.record, now)
          if (record !== undefined && record.owner === owner) tasks.push(record)
        }
        return { tasks, more: ids.length > limit }
      })

    const changes = (handler: (change: McpTasks.TaskChange) => Effect.Effect<void>) =>
      Effect.gen(function*() {
        const inbox = yield* Queue.make<string>()
        const onMessage = (channel: string, text: string) => {
          if (channel === keys.channel) Queue.offerUnsafe(inbox, text)
        }
        client.subscriber.on("message", onMessage)
        yield* Effect.addFinalizer(() => Effect.sync(() => client.subscriber.off("message", onMessage)))
        yield* Effect.tryPromise(() => client.subscriber.subscribe(keys.channel)).pipe(
          Effect.catch((e) => Effect.logWarning(`Redis: could not subscribe to task changes yet: ${String(e.cause)}`))
        )
        yield* Effect.addFinalizer(() => Effect.ignore(Effect.tryPromise(() => client.subscriber.unsubscribe(keys.channel))))
        const tell = (change: McpTasks.TaskChange) => {
          if (change.status === undefined || TERMINAL.has(change.status)) running.delete(change.taskId)
          return handler(change).pipe(Effect.catchCause((cause) => Effect.logWarning("a task change's handler failed", cause)))
        }
        yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(inbox), (text) => {
          const change = changeOf(text)
          return change === undefined ? Effect.void : tell(change)
        })))
        yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(checkInterval), reconcile(tell))))
      })

    /**
     * Pub/sub is at most once: every `checkInterval`, a task this instance runs that left its set
     * of unfinished tasks (ended, cancelled or expired elsewhere) without its change heard here
     * is told now.
     */
    const reconcile = (tell: (change: McpTasks.TaskChange) => Effect.Effect<void>) =>
      Effect.suspend(() => {
        if (running.size === 0) return Effect.void
        return Effect.gen(function*() {
          const members = new Set(yield* client.use((r) => r.smembers(keys.run(self))))
          for (const taskId of Array.from(running)) {
            if (members.has(taskId)) continue
            running.delete(taskId)
            const { held } = yield* read(taskId)
            yield* tell({ taskId, status: held?.record.task.status })
          }
        }).pipe(Effect.catchCause((cause) => Effect.logDebug("task reconcile", cause)))
      })

    const store: McpTasks.TaskStoreShape = {
      put,
      get: (taskId) => Effect.zipWith(read(taskId), Clock.currentTimeMillis, ({ held }, now) => live(held?.record, now)),
      update,
      list,
      // a sweep that cannot reach Redis sweeps nothing this time
      sweep: (now) => Effect.orElseSucceed(client.use(() => redis.mcpTaskSweep(keys.exp, keys.channel, now, p)), () => []),
      size: use((r) => r.zcard(keys.exp)),
      changes
    }

    yield* failDead(store, client, sessions, keys, checkInterval)
    return store
  })

/** Fails the unfinished tasks of every instance whose heartbeat stopped, every `interval`, for the life of the scope. */
const failDead = (
  store: McpTasks.TaskStoreShape,
  client: RedisClientShape,
  sessions: SessionStore.FleetBus,
  keys: { readonly run: (instance: string) => string; readonly runners: string },
  interval: Duration.Input
) => {
  const use = <A>(f: (redis: Redis) => Promise<A>) => client.use(f)
  const failOne = (instance: string, taskId: string) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const message = `The server instance running this task (${instance}) stopped; the task did not finish`
      const failed = yield* store.update(taskId, (record) =>
        TERMINAL.has(record.task.status) ? undefined : {
          ...record,
          outcome: { _tag: "Error", code: -32603, message },
          task: { ...record.task, status: "failed", statusMessage: message, lastUpdatedAt: new Date(now).toISOString() }
        })
      yield* use((r) => r.srem(keys.run(instance), taskId))
      const sessionId = failed === undefined ? undefined : sessionOf(failed)
      if (failed !== undefined && sessionId !== undefined) {
        const task: McpSchema.Task = failed.task
        yield* Effect.ignore(sessions.publish(undefined, {
          _tag: "Standing",
          sessionId,
          message: { jsonrpc: "2.0", method: "notifications/tasks/status", params: { ...task } }
        }))
      }
    })
  const failAll = (instance: string) =>
    Effect.gen(function*() {
      const ids = yield* use((r) => r.smembers(keys.run(instance)))
      yield* Effect.forEach(ids, (id) => failOne(instance, id), { discard: true })
    })
  const check = Effect.gen(function*() {
    const runners = yield* use((r) => r.smembers(keys.runners))
    for (const instance of runners) {
      if (instance === sessions.instanceId || (yield* sessions.alive(instance))) continue
      yield* failAll(instance)
      // gone once empty (a task added meanwhile keeps it)
      yield* use((r) => r.eval(EMPTY, 2, keys.run(instance), keys.runners, instance))
    }
  })
  return Effect.andThen(
    // what this instance's id ran in a previous life (a restart under the same id) runs no more
    Effect.catchCause(failAll(sessions.instanceId), (cause) => Effect.logDebug("task check", cause)),
    Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(interval), Effect.catchCause(check, (cause) => Effect.logDebug("task check", cause))))
  ))
}

// KEYS: run, runners. ARGV: instance
const EMPTY = `
if redis.call('SCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 1
`

/**
 * The store as the `TaskStore` service, over the `RedisClient` and the
 * `SessionStore` in context (`RedisFleet`'s Layer includes it).
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
 * import * as RedisTaskStore from "@effect-mcp/redis/RedisTaskStore"
 * import * as Layer from "effect/Layer"
 *
 * const Tasks = RedisTaskStore.layer().pipe(
 *   Layer.provideMerge(RedisSessionStore.layer({ instanceId: "web-1" })),
 *   Layer.provide(RedisClient.layerConfig())
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options?: Options
): Layer.Layer<McpTasks.TaskStore, never, RedisClient | SessionStore.SessionStore> =>
  Layer.effect(
    McpTasks.TaskStore,
    Effect.gen(function*() {
      const client = yield* RedisClient
      const sessions = yield* SessionStore.SessionStore
      return yield* make(client, sessions, options)
    })
  )
