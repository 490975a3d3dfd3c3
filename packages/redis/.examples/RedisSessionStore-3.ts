import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
import * as Layer from "effect/Layer"

const Sessions = RedisSessionStore.layer().pipe(Layer.provide(RedisClient.layer({ url: "redis://127.0.0.1:6379" })))
export {}
