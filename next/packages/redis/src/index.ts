/**
 * The Redis backend for `@effect-mcp/mcp`: one logical MCP server across many processes.
 *
 * @since 0.1.0
 */

/**
 * The shared connection to Redis (`ioredis`), from options or `REDIS_URL`.
 * @since 0.1.0
 * @category modules
 */
export * as RedisClient from "./RedisClient.js"
/**
 * `EventStore` on Redis Streams: resumption on any instance.
 * @since 0.1.0
 * @category modules
 */
export * as RedisEventStore from "./RedisEventStore.js"
/**
 * Everything an instance of a fleet needs from Redis, as one Layer.
 * @since 0.1.0
 * @category modules
 */
export * as RedisFleet from "./RedisFleet.js"
/**
 * The fleet bus half of `SessionStore` on Redis: heartbeats, messages between instances.
 * @since 0.1.0
 * @category modules
 */
export * as RedisFleetBus from "./RedisFleetBus.js"
/**
 * The records half of `SessionStore` on Redis: sessions, the requests of streamed POSTs.
 * @since 0.1.0
 * @category modules
 */
export * as RedisSessionRecords from "./RedisSessionRecords.js"
/**
 * `SessionStore` on Redis: its records and its fleet bus, joined.
 * @since 0.1.0
 * @category modules
 */
export * as RedisSessionStore from "./RedisSessionStore.js"
/**
 * `McpTasks.TaskStore` on Redis: tasks served by any instance, failed when their instance dies.
 * @since 0.1.0
 * @category modules
 */
export * as RedisTaskStore from "./RedisTaskStore.js"
