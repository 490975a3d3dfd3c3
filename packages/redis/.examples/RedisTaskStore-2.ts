import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisTaskStore from "@effect-mcp/redis/RedisTaskStore"
import * as Effect from "effect/Effect"

const store = Effect.gen(function*() {
  const client = yield* RedisClient.RedisClient
  const sessions = yield* SessionStore.SessionStore
  return yield* RedisTaskStore.make(client, sessions)
})
export {}
