import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Layer from "effect/Layer"

const HttpLive = NodeStreamableHttp.layer({ port: 3000, path: "/mcp", eventStore: true })
// Layer.launch(HttpLive.pipe(Layer.provide(ServerLive)))
export {}
