import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"

const openSessions = Effect.flatMap(StreamableHttpServer.StreamableHttpServer, (endpoint) => endpoint.sessionCount)
export {}
