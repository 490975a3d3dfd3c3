import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisSessionStore from "@effect-mcp/redis/RedisSessionStore"
import * as Layer from "effect/Layer"

const Sessions = RedisSessionStore.layer({ instanceId: "web-1" }).pipe(Layer.provide(RedisClient.layerConfig()))
export {}
