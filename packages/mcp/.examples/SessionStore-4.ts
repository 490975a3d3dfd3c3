import * as SessionStore from "@effect-mcp/mcp/SessionStore"

const message = SessionStore.decodeFleetMessage(`{"_tag":"Ended","sessionId":"s1"}`)
export {}
