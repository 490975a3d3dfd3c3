import * as McpServer from "@effect-mcp/mcp/McpServer"
import type { TransportShape } from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"

const host = (transport: TransportShape) =>
  Effect.gen(function*() {
    const server = yield* McpServer.McpServer
    const scope = yield* Scope.make()
    const { session } = yield* server.connect(transport).pipe(Scope.provide(scope))
    // … later, to end the session:
    yield* Scope.close(scope, Exit.void)
  })
export {}
