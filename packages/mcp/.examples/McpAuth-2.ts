import { AuthError } from "@effect-mcp/mcp/McpAuth"

const expired = new AuthError({ reason: "Invalid", message: "the token has expired" })
export {}
