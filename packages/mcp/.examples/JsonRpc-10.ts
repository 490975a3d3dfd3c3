import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"

const deep = "[".repeat(100_000) + "]".repeat(100_000)
const parsed = JsonRpc.parseJson(deep) // an Invalid, -32700, in about a millisecond
export {}
