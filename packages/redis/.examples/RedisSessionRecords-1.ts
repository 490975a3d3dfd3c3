import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as RedisClient from "@effect-mcp/redis/RedisClient"
import * as RedisSessionRecords from "@effect-mcp/redis/RedisSessionRecords"
import * as Effect from "effect/Effect"

// the records on Redis, the messages between instances on a bus of your own
const store = (bus: SessionStore.FleetBus) =>
  Effect.gen(function*() {
    const records = yield* RedisSessionRecords.make(yield* RedisClient.RedisClient)
    return SessionStore.fromParts(records, bus)
  })
export {}
