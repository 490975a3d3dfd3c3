/**
 * How our server's errors reach the official SDK client over real HTTP: a
 * typed failure's tag and fields, a resource template's not-found as -32002,
 * and the client's own declined sampling coming back as a tool error naming
 * the call (not as the client's error code), or as a bare -32603 elsewhere.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { CreateMessageRequestSchema, McpError as SdkMcpError } from "@modelcontextprotocol/sdk/types.js"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import { ResourceNotFound } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as References from "effect/References"
import * as Schema from "effect/Schema"
import { startServer } from "./httpUtil.js"

class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", { id: Schema.String }) {}

const sampleOnce = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }))

const Features = McpServer.register(
  McpServer.tool({
    name: "user",
    parameters: Schema.Struct({ id: Schema.String }),
    handler: ({ id }) => Effect.fail(new UserNotFound({ id }))
  }),
  McpServer.tool({ name: "asks", handler: () => Effect.as(sampleOnce, "sampled") }),
  McpServer.resourceTemplate({
    uriTemplate: "users://{id}",
    name: "user",
    read: ({ id }) => (id === "1" ? Effect.succeed("Ada") : Effect.fail(new ResourceNotFound()))
  }),
  McpServer.resource({ uri: "ask://model", name: "asks", content: Effect.as(sampleOnce, "sampled") })
)

const connect = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official", version: "1.0.0" }, { capabilities: { sampling: {} } })
      // the SDK sends its McpError message as it formats it: "MCP error -1: ..."
      client.setRequestHandler(CreateMessageRequestSchema, async () => {
        throw new SdkMcpError(-1, "The user declined")
      })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const rejection = <A>(promise: () => Promise<A>) =>
  Effect.flip(Effect.tryPromise({ try: promise, catch: (error) => error as SdkMcpError }))

describe("the official SDK client sees our server's errors", () => {
  it.live("tag and fields, -32002 with data.uri, a declined reverse call named, -32603 bare", () =>
    Effect.gen(function*() {
      // the -32603 below is logged on the server, on purpose
      const { url } = yield* startServer(Features).pipe(Effect.provideService(References.MinimumLogLevel, "None"))
      const client = yield* connect(url)
      const user = yield* Effect.promise(() => client.callTool({ name: "user", arguments: { id: "99" } }))
      assert.deepStrictEqual(user, { content: [{ type: "text", text: "UserNotFound: {\"id\":\"99\"}" }], isError: true })

      const missing = yield* rejection(() => client.readResource({ uri: "users://99" }))
      assert.strictEqual(missing.code, -32002)
      assert.deepStrictEqual(missing.data, { uri: "users://99" })

      const asks = yield* Effect.promise(() => client.callTool({ name: "asks", arguments: {} }))
      assert.deepStrictEqual(asks, {
        content: [{ type: "text", text: "sampling/createMessage failed: the client answered with error -1: MCP error -1: The user declined" }],
        isError: true
      })

      const read = yield* rejection(() => client.readResource({ uri: "ask://model" }))
      assert.strictEqual(read.code, -32603)
      assert.strictEqual(read.message, "MCP error -32603: Internal error")
      assert.isUndefined(read.data)
    }))
})
