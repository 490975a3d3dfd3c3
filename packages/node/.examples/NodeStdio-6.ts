import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"

const pid = NodeStdio.StdioChild.pipe(Effect.map((child) => child.pid))
export {}
