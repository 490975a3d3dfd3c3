import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
ProtocolEra.eraOf("2025-06-18") // "2025"
ProtocolEra.eraOf("2026-07-28") // "2026"
ProtocolEra.eraOf("2030-01-01") // undefined
export {}
