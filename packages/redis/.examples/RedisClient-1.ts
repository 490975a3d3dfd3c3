import * as RedisClient from "@effect-mcp/redis/RedisClient"

// REDIS_URL (default redis://127.0.0.1:6379), keys under "mcp:"
const Live = RedisClient.layerConfig()
// or explicit
const Local = RedisClient.layer({ url: "redis://127.0.0.1:6379/2", prefix: "my-app" })
export {}
