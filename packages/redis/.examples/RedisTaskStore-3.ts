import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
import * as RedisTaskStore from "@effect-mcp/redis/RedisTaskStore"
import * as Layer from "effect/Layer"

const Tasks = RedisTaskStore.layer().pipe(
  Layer.provideMerge(RedisSessionStore.layer({ instanceId: "web-1" })),
  Layer.provide(RedisClient.layerConfig())
)
export {}
