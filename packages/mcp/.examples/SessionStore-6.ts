import * as SessionStore from "@effect-mcp/mcp/SessionStore"
import * as Effect from "effect/Effect"

const changed = Effect.flatMap(SessionStore.SessionStore, (store) => SessionStore.resourceUpdated(store, "file:///notes.txt"))
export {}
