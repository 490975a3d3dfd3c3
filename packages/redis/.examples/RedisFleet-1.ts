import * as RedisFleet from "@effect-mcp/redis/RedisFleet"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

// every instance runs this, with the same REDIS_URL, behind any load balancer
const Endpoint = Layer.unwrap(Effect.gen(function*() {
  const sessionStore = yield* SessionStore.SessionStore
  const eventStore = yield* EventStore.EventStore
  return NodeStreamableHttp.layer({ port: 3000, sessionStore, eventStore })
})).pipe(Layer.provide(RedisFleet.layerConfig()))
const Server = Endpoint.pipe(Layer.provide(McpServer.layer({ name: "tools", version: "1.0.0" })))
export {}
