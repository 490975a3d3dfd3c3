import * as McpCli from "@effect-mcp/node/McpCli"
import * as Effect from "effect/Effect"

const exitCode: Effect.Effect<number> = McpCli.run(["node", "emcp", "--stdio", "node server.js", "tools", "list"])
export {}
