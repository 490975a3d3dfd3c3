import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"

const app = Effect.map(StreamableHttpServer.make(), (mcp) => NodeStreamableHttp.mount({ "/mcp": mcp.app }))
export {}
