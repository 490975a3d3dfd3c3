/**
 * Everything an instance of a fleet needs from Redis, as one Layer: the
 * connection, the `SessionStore` (sessions, heartbeats, messages), the
 * shared `EventStore` (resumption on any instance) and the `TaskStore`
 * (`McpTasks`: tasks served by any instance, failed when their instance dies).
 *
 * @example
 * ```ts
 * import * as RedisFleet from "@effect-mcp/redis/RedisFleet"
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * // every instance runs this, with the same REDIS_URL, behind any load balancer
 * const Endpoint = Layer.unwrap(Effect.gen(function*() {
 *   const sessionStore = yield* SessionStore.SessionStore
 *   const eventStore = yield* EventStore.EventStore
 *   return NodeStreamableHttp.layer({ port: 3000, sessionStore, eventStore })
 * })).pipe(Layer.provide(RedisFleet.layerConfig()))
 * const Server = Endpoint.pipe(Layer.provide(McpServer.layer({ name: "tools", version: "1.0.0" })))
 * ```
 * @since 0.1.0
 */
import type * as EventStore from "@effect-mcp/mcp/EventStore"
import type * as McpTasks from "@effect-mcp/mcp/McpTasks"
import type * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Layer from "effect/Layer"
import * as RedisClient from "./RedisClient.js"
import * as RedisEventStore from "./RedisEventStore.js"
import * as RedisSessionStore from "./RedisSessionStore.js"
import * as RedisTaskStore from "./RedisTaskStore.js"

/**
 * The connection, this instance, and the event store.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends RedisClient.Options, RedisSessionStore.Options {
  readonly events?: RedisEventStore.Options | undefined
  readonly tasks?: RedisTaskStore.Options | undefined
}

/**
 * What the fleet's Layer provides.
 *
 * @since 0.1.0
 * @category models
 */
export type Services = SessionStore.SessionStore | EventStore.EventStore | McpTasks.TaskStore | RedisClient.RedisClient

/**
 * The fleet's services over one connection to `url`.
 *
 * @example
 * ```ts
 * import * as RedisFleet from "@effect-mcp/redis/RedisFleet"
 *
 * const Fleet = RedisFleet.layer({ url: "redis://127.0.0.1:6379", instanceId: "web-1", events: { gracePeriod: "30 seconds" } })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<Services> =>
  services(options).pipe(Layer.provideMerge(RedisClient.layer(options)))

/**
 * The fleet's services, the connection from config (`REDIS_URL`, `REDIS_PREFIX`).
 *
 * @example
 * ```ts
 * import * as RedisFleet from "@effect-mcp/redis/RedisFleet"
 *
 * const Fleet = RedisFleet.layerConfig({ instanceId: process.env.HOSTNAME })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (
  options: Omit<Options, "url" | "prefix"> = {}
): Layer.Layer<Services> =>
  services(options).pipe(Layer.provideMerge(RedisClient.layerConfig(options)))

const services = (options: Options) =>
  Layer.merge(
    RedisTaskStore.layer(options.tasks).pipe(Layer.provideMerge(RedisSessionStore.layer(options))),
    RedisEventStore.layer(options.events)
  )
