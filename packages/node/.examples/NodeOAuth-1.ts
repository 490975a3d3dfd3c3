import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"

const redirect = NodeOAuth.layerLoopback({})
export {}
