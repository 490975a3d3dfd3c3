/**
 * A tool declared with `McpTool.make` and served with `McpServer.toolHandler`
 * is an ordinary MCP tool to the official SDK client over real HTTP: it lists
 * the published schemas, its structuredContent passes the SDK's output
 * validation, and a declared failure (a tool error with its value in `_meta`)
 * is a result the SDK accepts, not a protocol error.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { startServer } from "./httpUtil.js"

class TopicRejected extends Schema.TaggedError<TopicRejected>()("TopicRejected", { message: Schema.String }) {}

const Haiku = McpTool.make({
  name: "haiku",
  parameters: Schema.Struct({ topic: Schema.String }),
  success: Schema.Struct({ haiku: Schema.String }),
  failure: TopicRejected
})

const HaikuLive = McpServer.toolHandler(Haiku, ({ topic }) =>
  topic === "war" ? Effect.fail(new TopicRejected({ message: "not that" })) : Effect.succeed({ haiku: `${topic}!` }))

describe("the official SDK client calls a declared tool", () => {
  it.live("schemas listed, structuredContent validated, a declared failure is a tool error result", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(McpServer.register(HaikuLive))
      const client = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client({ name: "official", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL(url)))
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
      const { tools } = yield* Effect.promise(() => client.listTools())
      assert.deepStrictEqual(tools as ReadonlyArray<unknown>, [Haiku.definition])
      const ok = yield* Effect.promise(() => client.callTool({ name: "haiku", arguments: { topic: "fibers" } }))
      assert.deepStrictEqual(ok.structuredContent, { haiku: "fibers!" })
      const failed = yield* Effect.promise(() => client.callTool({ name: "haiku", arguments: { topic: "war" } }))
      assert.deepStrictEqual(failed, {
        content: [{ type: "text", text: "not that" }],
        isError: true,
        _meta: { "effect-mcp/failure": { _tag: "TopicRejected", message: "not that" } }
      })
    }))
})
