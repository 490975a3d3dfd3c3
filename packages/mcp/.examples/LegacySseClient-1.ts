import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Layer from "effect/Layer"

const client = McpClient.layer({ name: "app", version: "1.0.0" }).pipe(
  Layer.provide(LegacySseClient.layer({ url: "http://localhost:3000/sse" })),
  Layer.provide(NodeHttpClient.layerUndici)
)
export {}
