import * as McpCli from "@effect-mcp/node/McpCli"
import * as Effect from "effect/Effect"

const program = McpCli.main(["--url", "http://127.0.0.1:3000/mcp", "ping"], McpCli.processStreams())
export {}
