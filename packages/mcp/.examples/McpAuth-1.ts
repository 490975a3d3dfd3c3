import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Layer from "effect/Layer"

const AuthLive = McpAuth.layer({
  resource: "https://mcp.example.com/mcp",
  authorizationServers: ["https://auth.example.com"],
  scopesSupported: ["mcp:tools"],
  methodScopes: { "tools/call": ["mcp:tools"] }
}).pipe(
  Layer.provide(McpAuth.layerJwtVerifier({ issuer: "https://auth.example.com" })),
  Layer.provide(NodeHttpClient.layerUndici)
)
const HttpLive = NodeStreamableHttp.layer({ port: 3000, host: "0.0.0.0" }).pipe(Layer.provide(AuthLive))
export {}
