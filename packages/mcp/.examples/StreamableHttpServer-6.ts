import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"

const EndpointLive = StreamableHttpServer.layer({ jsonResponse: true })
// EndpointLive.pipe(Layer.provide(ServerLive))
export {}
