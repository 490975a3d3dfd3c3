import * as LegacySseClient from "@effect-mcp/mcp/LegacySseClient"

const transport = LegacySseClient.make({ url: "http://localhost:3000/sse" })
export {}
