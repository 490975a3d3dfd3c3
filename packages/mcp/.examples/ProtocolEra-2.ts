import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
ProtocolEra.hasEnvelopeClaim({ _meta: { "io.modelcontextprotocol/protocolVersion": 7 } }) // true
ProtocolEra.hasEnvelopeClaim({ _meta: { progressToken: 1 } }) // false
export {}
