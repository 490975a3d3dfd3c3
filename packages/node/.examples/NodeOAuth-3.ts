import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as NodeOAuth from "@effect-mcp/node/NodeOAuth"
import * as Layer from "effect/Layer"
import * as os from "node:os"
import * as path from "node:path"

const Tokens = Layer.succeed(
  McpOAuth.TokenStore,
  NodeOAuth.makeFileStore(path.join(os.homedir(), ".config", "my-app", "tokens.json"))
)
export {}
