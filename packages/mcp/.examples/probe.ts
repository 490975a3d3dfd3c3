import { Effect } from "effect"
import * as M from "@effect-mcp/mcp/McpServer"
import * as N from "@effect-mcp/node/NodeStdio"
const x: number = "s"
Effect.nope
M.nope
N.nope
export {}
