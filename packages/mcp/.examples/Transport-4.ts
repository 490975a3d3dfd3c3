import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

// a reader that has nothing and ends at once
const { run } = Transport.fromPull(Effect.fail(Option.none()))
export {}
