import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"

const edit = (readme: Ref.Ref<string>, text: string) =>
  Effect.andThen(Ref.set(readme, text), McpServer.notifyResourceUpdated("docs://readme"))
export {}
