import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Layer from "effect/Layer"

const EndpointLive = StreamableHttpServer.layerWithEventStore().pipe(Layer.provide(EventStore.layerMemory()))
export {}
