import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import type * as Transport from "@effect-mcp/mcp/Transport"
import * as Layer from "effect/Layer"

declare const ServerLive: Layer.Layer<McpServer.McpServer>
declare const TransportLive: Layer.Layer<Transport.Transport> // NodeStdio.layerServer(), a memory pair, …

const main = McpServer.run.pipe(Effect.provide(ServerLive), Effect.provide(TransportLive))
export {}
