import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
ProtocolEra.requestEra("tools/list", {
  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }
}) // "2026"
ProtocolEra.requestEra("tools/list", {}) // undefined
export {}
