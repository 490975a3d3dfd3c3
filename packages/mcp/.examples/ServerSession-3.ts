import * as ServerSession from "@effect-mcp/mcp/ServerSession"

ServerSession.levelAllows("warning", "error") // true
ServerSession.levelAllows("warning", "info") // false
ServerSession.levelAllows(undefined, "debug") // true: no level set
export {}
