import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import { PassThrough } from "node:stream"

const transport = NodeStdio.makeServer({ stdin: new PassThrough(), stdout: new PassThrough() })
export {}
