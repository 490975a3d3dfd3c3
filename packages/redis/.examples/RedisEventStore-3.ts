import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisEventStore from "@effect-mcp/redis/RedisEventStore"
import * as Layer from "effect/Layer"

const Events = RedisEventStore.layer().pipe(Layer.provide(RedisClient.layer({ url: "redis://127.0.0.1:6379" })))
export {}
