import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisSessionRecords from "@effect-mcp/redis/RedisSessionRecords"
import * as Effect from "effect/Effect"

const records = Effect.flatMap(RedisClient.RedisClient, RedisSessionRecords.make)
export {}
