/**
 * `SessionStore` on Redis: the sessions of a fleet (`RedisSessionRecords`:
 * records, the requests of streamed POSTs) joined to its instances'
 * heartbeats and the messages between them (`RedisFleetBus`), with
 * `SessionStore.fromParts`. Either half may be used alone, with the other
 * half on another backend.
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
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { RedisClient, type RedisClientShape } from "./RedisClient.js"
import * as RedisFleetBus from "./RedisFleetBus.js"
import * as RedisSessionRecords from "./RedisSessionRecords.js"

/**
 * This instance's part in the fleet (`RedisFleetBus.Options`).
 *
 * @since 0.1.0
 * @category models
 */
export type Options = RedisFleetBus.Options

/**
 * The store of one instance over a connection: its records and its bus;
 * its heartbeat and subscriptions run for the life of the scope.
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
  Effect.zipWith(RedisSessionRecords.make(client), RedisFleetBus.make(client, options), SessionStore.fromParts)

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
  Layer.effect(SessionStore.SessionStore, Effect.flatMap(RedisClient, (client) => make(client, options)))
