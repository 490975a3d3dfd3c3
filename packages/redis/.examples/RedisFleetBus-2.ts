import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisFleetBus from "@effect-mcp/redis/RedisFleetBus"
import * as Effect from "effect/Effect"

const bus = Effect.flatMap(RedisClient.RedisClient, (client) => RedisFleetBus.make(client, { instanceId: "web-1" }))
export {}
