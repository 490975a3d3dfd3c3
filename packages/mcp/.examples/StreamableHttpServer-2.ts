import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"

// a body read before the endpoint asked for it
const body = StreamableHttpServer.answered(new TextEncoder().encode("{}"))
StreamableHttpServer.isAnswered(body) // true
export {}
