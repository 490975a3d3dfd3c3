import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Layer from "effect/Layer"

// bounded in-memory store: 1000 events / 16 MiB per session, 10 s of grace after delivery
const Endpoint = StreamableHttpServer.layer({ eventStore: { gracePeriod: "10 seconds" } })
// or, the store as a Layer of its own (a shared one, say), required in the endpoint's type
const Shared = StreamableHttpServer.layerWithEventStore().pipe(
  Layer.provide(EventStore.layerMemory({ gracePeriod: "10 seconds" }))
)
export {}
