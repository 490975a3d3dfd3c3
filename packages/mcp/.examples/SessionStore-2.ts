import * as SessionStore from "@effect-mcp/mcp/SessionStore"

const received = SessionStore.roundTrip({ _tag: "Ended", sessionId: "s1" })
export {}
