import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as Effect from "effect/Effect"

const LegacyRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const legacy = yield* LegacySseServer.make({ messagesPath: "/messages" })
    yield* router.add("GET", "/sse", legacy.sse)
    yield* router.add("POST", "/messages", legacy.messages)
  })
)
export {}
