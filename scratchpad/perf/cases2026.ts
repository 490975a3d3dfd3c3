// cgmicro.mjs cases for the 2026-07-28 path's per-request pieces, server and client (2026-12-01, p2026):
//   node bundle.mjs && valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p node --single-threaded cgmicro.mjs ./out/cases2026.js 20000
// then Ir per call of each case: `summary` of /tmp/cg.<pid>.<k> ÷ 20000 (`alloc` is the body's allocation alone).
import * as Client2026 from "../../packages/mcp/src/internal/client2026.js"
import * as Modern from "../../packages/mcp/src/internal/httpServer/modern.js"
import * as Stateless from "../../packages/mcp/src/internal/server/stateless.js"
import * as ProtocolEra from "../../packages/mcp/src/ProtocolEra.js"

const SERVER_INFO = "io.modelcontextprotocol/serverInfo"
const meta = () => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: {}, roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" }
})
const body = () => ({
  jsonrpc: "2.0" as const,
  id: 1,
  method: "tools/call",
  params: { name: "echo", arguments: { text: "hello, model context protocol" }, _meta: meta() }
})
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "echo",
  host: "127.0.0.1",
  connection: "keep-alive"
}
const result = () => ({
  content: [{ type: "text", text: "hello, model context protocol" }],
  resultType: "complete",
  _meta: { [SERVER_INFO]: { name: "bench-server", version: "1.0.0" } }
})
let sink: unknown
export const cases = {
  alloc: () => {
    sink = body()
  },
  readEnvelope: () => {
    sink = Stateless.readEnvelope(body().params, ProtocolEra.ERA_2026_VERSIONS)
  },
  refuse: () => {
    sink = Modern.refuse("both", headers, [body()], false, ProtocolEra.ERA_2026_VERSIONS)
  },
  is2026: () => {
    sink = Modern.is2026("both", headers, [body()], false)
  },
  settled: () => {
    sink = Client2026.settled(result())
  }
}
export const last = () => sink
