import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Stream from "effect/Stream"

StreamableHttpServer.directBody(Stream.empty) // undefined: not one of the endpoint's bodies
export {}
