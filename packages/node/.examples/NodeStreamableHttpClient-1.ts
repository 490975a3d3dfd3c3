import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Layer from "effect/Layer"

const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0" }).pipe(
  Layer.provide(NodeStreamableHttpClient.layer({ url: "http://127.0.0.1:3000/mcp" }))
)
export {}
