import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as Effect from "effect/Effect"

const McpRoute = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const mcp = yield* StreamableHttpServer.make({ jsonResponse: false })
    yield* router.add("*", "/mcp", mcp.app)
  })
)
export {}
