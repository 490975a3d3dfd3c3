import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
import * as Effect from "effect/Effect"

const store = Effect.flatMap(RedisClient.RedisClient, (client) => RedisSessionStore.make(client, { instanceId: "web-1" }))
export {}
