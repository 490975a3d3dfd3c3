import * as SessionStore from "@effect-mcp/mcp/SessionStore"

const text = SessionStore.encodeFleetMessage({ _tag: "ResourceUpdated", uri: "file:///notes.txt" })
export {}
