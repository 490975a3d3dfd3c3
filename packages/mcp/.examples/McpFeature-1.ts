import * as McpFeature from "@effect-mcp/mcp/McpFeature"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const Echo = McpFeature.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const Readme = McpFeature.resource({ uri: "docs://readme", name: "readme", content: Effect.succeed("# Hello") })

export const FeaturesLive = McpServer.register(Echo, Readme)
export {}
