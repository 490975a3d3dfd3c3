/**
 * The connection to Redis every part of the backend shares: one client for
 * commands and one for subscriptions (a subscribed Redis connection takes no
 * other command), both over `ioredis`, with the key prefix that keeps one
 * fleet's keys apart from another's.
 *
 * While Redis is unreachable commands fail at once (no offline queue), with
 * `RedisError`, and `ioredis` reconnects by itself (backoff up to 1 s);
 * a command that gets no answer within `commandTimeout` fails too.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 *
 * // REDIS_URL (default redis://127.0.0.1:6379), keys under "mcp:"
 * const Live = RedisClient.layerConfig()
 * // or explicit
 * const Local = RedisClient.layer({ url: "redis://127.0.0.1:6379/2", prefix: "my-app" })
 * ```
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import { Redis } from "ioredis"

/**
 * A Redis command failed: Redis unreachable, a timeout, or an error reply.
 *
 * @since 0.1.0
 * @category errors
 */
export class RedisError extends Schema.TaggedError<RedisError>()("RedisError", {
  reason: Schema.Literals(["Unavailable", "Reply"]),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/**
 * How to reach Redis.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** `redis://[user:password@]host:port[/db]` (default `redis://127.0.0.1:6379`). */
  readonly url?: string | undefined
  /** Prefix of every key and channel (default `mcp`). */
  readonly prefix?: string | undefined
  /** A command without an answer for this long fails (default 2 s). */
  readonly commandTimeout?: Duration.Input | undefined
}

/**
 * The shared connection.
 *
 * @since 0.1.0
 * @category models
 */
export interface RedisClientShape {
  /** The command connection. */
  readonly redis: Redis
  /** The subscriber connection (only `subscribe` and friends). */
  readonly subscriber: Redis
  readonly prefix: string
  /** Runs a command of `redis` as an Effect; a failure is a `RedisError`. */
  readonly use: <A>(f: (redis: Redis) => Promise<A>) => Effect.Effect<A, RedisError>
  /** Commands sent since the connection opened (for measurements). */
  readonly commands: () => number
}

/**
 * The shared connection as a service.
 *
 * @since 0.1.0
 * @category tags
 */
export class RedisClient extends Context.Service<RedisClient, RedisClientShape>()("@effect-mcp/redis/RedisClient") {}

const toError = (cause: unknown): RedisError => {
  const message = cause instanceof Error ? cause.message : String(cause)
  const reply = cause instanceof Error && cause.name === "ReplyError"
  return new RedisError({ reason: reply ? "Reply" : "Unavailable", message: `Redis: ${message}`, cause })
}

const connect = (url: string, timeoutMs: number, onCommand: () => void): Redis => {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    // reconnect forever, quickly: the server answers 503 meanwhile
    retryStrategy: (times) => Math.min(times * 100, 1_000)
  })
  const send = redis.sendCommand.bind(redis)
  redis.sendCommand = (...args) => {
    onCommand()
    return send(...args)
  }
  // errors are reported through the failing commands; the event itself only needs a listener
  redis.on("error", () => {})
  return redis
}

/**
 * Opens both connections (waiting up to `commandTimeout` for the first; an
 * unreachable Redis is not an error here: it is retried, and the requests
 * that need it meanwhile get 503); they close with the scope.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 * import * as Effect from "effect/Effect"
 *
 * const ping = Effect.scoped(Effect.gen(function*() {
 *   const client = yield* RedisClient.make({ url: "redis://127.0.0.1:6379" })
 *   return yield* client.use((redis) => redis.ping())
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<RedisClientShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const url = options.url ?? "redis://127.0.0.1:6379"
    const timeoutMs = Duration.toMillis(Duration.fromInputUnsafe(options.commandTimeout ?? Duration.seconds(2)))
    let sent = 0
    const open = (counted: boolean) =>
      Effect.acquireRelease(
        Effect.sync(() => connect(url, timeoutMs, counted ? () => void sent++ : () => {})),
        (redis) => Effect.promise(() => redis.quit().catch(() => redis.disconnect())).pipe(Effect.timeout("1 second"), Effect.ignore)
      )
    const redis = yield* open(true)
    const subscriber = yield* open(false)
    yield* Effect.forEach(
      [redis, subscriber],
      (r) => Effect.tryPromise(() => r.connect()).pipe(Effect.ignore),
      { concurrency: "unbounded", discard: true }
    )
    return {
      redis,
      subscriber,
      prefix: options.prefix ?? "mcp",
      use: (f) => Effect.tryPromise({ try: () => f(redis), catch: toError }),
      commands: () => sent
    }
  })

/**
 * The connection as a Layer.
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 *
 * const Live = RedisClient.layer({ url: "redis://cache.internal:6379", prefix: "tools" })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<RedisClient> => Layer.effect(RedisClient, make(options))

/**
 * The connection from config: `REDIS_URL` (default `redis://127.0.0.1:6379`)
 * and `REDIS_PREFIX` (default `mcp`).
 *
 * @example
 * ```ts
 * import * as RedisClient from "@effect-mcp/redis/RedisClient"
 *
 * const Live = RedisClient.layerConfig()
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (options?: Omit<Options, "url" | "prefix">): Layer.Layer<RedisClient, never> =>
  Layer.effect(
    RedisClient,
    Effect.gen(function*() {
      const url = yield* Config.String("REDIS_URL").pipe(Config.withDefault("redis://127.0.0.1:6379"), Effect.orDie)
      const prefix = yield* Config.String("REDIS_PREFIX").pipe(Config.withDefault("mcp"), Effect.orDie)
      return yield* make({ ...options, url, prefix })
    })
  )
