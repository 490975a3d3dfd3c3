import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

const Hello = McpServer.registerExtension({
  capabilities: { extensions: { "io.example/hello": {} } },
  methods: {
    "hello/say": { params: Schema.Struct({ name: Schema.String }), handle: ({ name }) => Effect.succeed({ text: `hello ${name}` }) }
  }
})
const ServerLive = Hello.pipe(Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" })))
export {}
