import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as Effect from "effect/Effect"

// the endpoint for the McpServer in context, mounted in a router of your own
const McpRoute = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const mcp = yield* StreamableHttpServer.make({ eventStore: true, sessionIdleTimeout: "10 minutes", maxSessions: 1000 })
    yield* router.add("*", "/mcp", mcp.app)
  })
)
export {}
