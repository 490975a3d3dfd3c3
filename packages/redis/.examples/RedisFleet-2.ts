import * as RedisFleet from "@effect-mcp/redis/RedisFleet"

const Fleet = RedisFleet.layer({ url: "redis://127.0.0.1:6379", instanceId: "web-1", events: { gracePeriod: "30 seconds" } })
export {}
