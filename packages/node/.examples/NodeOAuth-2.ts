import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
import * as Effect from "effect/Effect"

const redirect = Effect.scoped(NodeOAuth.makeLoopbackOnDemand({}))
export {}
