import * as RedisClient from "@effect-mcp/redis/RedisClient"

const Live = RedisClient.layer({ url: "redis://cache.internal:6379", prefix: "tools" })
export {}
