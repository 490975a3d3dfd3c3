import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"

const languages = ["go", "rust", "typescript"]
const completeLanguage: McpServer.Completer = (value) =>
  Effect.succeed(languages.filter((language) => language.startsWith(value)))
export {}
