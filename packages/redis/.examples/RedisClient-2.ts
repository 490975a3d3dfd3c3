import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as Effect from "effect/Effect"

const ping = Effect.scoped(Effect.gen(function*() {
  const client = yield* RedisClient.make({ url: "redis://127.0.0.1:6379" })
  return yield* client.use((redis) => redis.ping())
}))
export {}
