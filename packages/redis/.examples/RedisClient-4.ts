import * as RedisClient from "@effect-mcp/redis/RedisClient"

const Live = RedisClient.layerConfig()
export {}
