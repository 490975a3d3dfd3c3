import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Effect from "effect/Effect"

const stores = Effect.map(SessionStore.makeMemoryFleet(), (fleet) => [fleet.instance("a"), fleet.instance("b")])
export {}
