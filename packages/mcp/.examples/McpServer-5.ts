import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import type { TransportShape } from "@effect-mcp/mcp/Transport"

const serveOne = (transport: TransportShape) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* McpServer.make({ name: "my-server", version: "1.0.0" })
    yield* server.add([McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })], yield* Effect.context<never>())
    yield* server.serve(transport)
  }))
export {}
