import { McpServer } from "@effect-mcp/mcp"
import * as Effect from "effect/Effect"

const Ping = McpServer.tool({ name: "ping", description: "Answers pong", handler: () => Effect.succeed("pong") })
export {}
