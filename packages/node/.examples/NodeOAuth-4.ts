import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"

const removed = NodeOAuth.removeFileTokens("/home/me/.config/emcp/tokens.json", (_issuer, resource) =>
  resource === "https://example.com/mcp")
export {}
