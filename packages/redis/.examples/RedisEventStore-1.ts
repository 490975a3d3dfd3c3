import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisEventStore from "@effect-mcp/redis/RedisEventStore"
import * as Layer from "effect/Layer"

const Events = RedisEventStore.layer({ gracePeriod: "10 seconds" }).pipe(Layer.provide(RedisClient.layerConfig()))
export {}
