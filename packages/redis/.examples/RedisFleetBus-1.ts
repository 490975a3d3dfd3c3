import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisFleetBus from "@effect-mcp/redis/RedisFleetBus"
import * as Effect from "effect/Effect"

// the records in a backend of your own, the messages between instances on Redis
const store = (records: SessionStore.SessionRecords) =>
  Effect.gen(function*() {
    const bus = yield* RedisFleetBus.make(yield* RedisClient.RedisClient, { instanceId: "web-1" })
    return SessionStore.fromParts(records, bus)
  })
export {}
