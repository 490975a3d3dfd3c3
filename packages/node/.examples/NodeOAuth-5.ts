import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"

const signedIn = NodeOAuth.listFileTokens("/home/me/.config/emcp/tokens.json")
export {}
