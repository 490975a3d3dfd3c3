import * as Transport from "@effect-mcp/mcp/Transport"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

// a source that has nothing and ends at once
const feed: Transport.Feed = (target) => {
  target.end(Effect.fail(Option.none()))
  return { resume: () => {} }
}
const { run } = Transport.fromFeed(feed)
export {}
