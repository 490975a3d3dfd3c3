import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisEventStore from "@effect-mcp/redis/RedisEventStore"
import * as Effect from "effect/Effect"

const store = Effect.flatMap(RedisClient.RedisClient, (client) => RedisEventStore.make(client))
export {}
