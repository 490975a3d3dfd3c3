import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Layer from "effect/Layer"

const client = McpClient.layer({ name: "app", version: "1.0.0" }).pipe(
  Layer.provide(StreamableHttpClient.layer({ url: "http://localhost:3000/mcp" })),
  Layer.provide(NodeHttpClient.layerUndici)
)
export {}
