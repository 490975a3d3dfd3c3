import * as RedisFleet from "@effect-mcp/redis/RedisFleet"

const Fleet = RedisFleet.layerConfig({ instanceId: process.env.HOSTNAME })
export {}
