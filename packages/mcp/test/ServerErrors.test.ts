/**
 * How the server answers its handlers' failures, asserted on the wire: what a
 * peer answered (`McpError`) never goes out as the server's answer, `-32603`
 * never carries internals (they are logged instead), a typed failure without
 * a message names its `_tag` and fields, a resource's not-found is `-32002`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Schema from "effect/Schema"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse, McpError, ResourceNotFound } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import { assertWireValid, buildServer, requests, responseTo } from "./utils/wire.js"

class UserNotFound extends Schema.TaggedError<UserNotFound>()("UserNotFound", { id: Schema.String }) {}
class Quota extends Data.TaggedError("Quota")<{ readonly used: number; readonly limit: number }> {}
class Nothing extends Schema.TaggedError<Nothing>()("Nothing", {}) {}
class Explained extends Schema.TaggedError<Explained>()("Explained", { id: Schema.String }) {
  override get message() {
    return `user ${this.id} is explained`
  }
}

const SECRET = "SELECT * FROM users -- secret 4242"
class DbError extends Schema.TaggedError<DbError>()("DbError", { message: Schema.String }) {}

const sampleOnce = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }))

const users = new Map([["1", "Ada"]])

const features = McpServer.register(
  McpServer.tool({
    name: "user",
    parameters: Schema.Struct({ id: Schema.String }),
    handler: ({ id }) => Effect.fail(new UserNotFound({ id }))
  }),
  McpServer.tool({ name: "quota", handler: () => Effect.fail(new Quota({ used: 3, limit: 2 })) }),
  McpServer.tool({ name: "nothing", handler: () => Effect.fail(new Nothing()) }),
  McpServer.tool({ name: "explained", handler: () => Effect.fail(new Explained({ id: "7" })) }),
  McpServer.tool({ name: "plain", handler: () => Effect.fail(new Error("plain message")) }),
  McpServer.tool({
    name: "refuses",
    handler: () => Effect.fail(new ErrorResponse({ code: -32001, message: "refused", data: { why: "policy" } }))
  }),
  McpServer.tool({ name: "asks", handler: () => Effect.as(sampleOnce, "sampled") }),
  McpServer.resourceTemplate({
    uriTemplate: "users://{id}",
    name: "user",
    read: ({ id }) => {
      const name = users.get(id)
      return name === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(name)
    }
  }),
  McpServer.resourceTemplate({
    uriTemplate: "moved://{id}",
    name: "moved",
    read: ({ id }) => Effect.fail(new ResourceNotFound({ uri: `users://${id}` }))
  }),
  McpServer.resource({ uri: "db://table", name: "table", content: Effect.fail(new DbError({ message: SECRET })) }),
  McpServer.resource({ uri: "ask://model", name: "asks", content: Effect.as(sampleOnce, "sampled") }),
  McpServer.resource({
    uri: "gone://x",
    name: "gone",
    content: Effect.fail(new ResourceNotFound())
  }),
  McpServer.prompt({ name: "db", content: () => Effect.fail(new DbError({ message: SECRET })) }),
  McpServer.prompt({ name: "asks", content: () => Effect.as(sampleOnce, "sampled") }),
  McpServer.prompt({
    name: "chosen",
    content: () => Effect.fail(ErrorResponse.invalidParams("topic is too long", { max: 10 }))
  })
)

/** A session whose server logs are collected, and a client that declines sampling. */
const session = Effect.gen(function*() {
  const server = yield* buildServer(features)
  const logs: Array<string> = []
  const collect = Logger.make(({ cause, message }) => {
    logs.push(`${String(message)} ${JSON.stringify(cause)}`)
  })
  const pair = yield* Transport.makeMemoryPair()
  yield* server.serve(pair.server).pipe(Effect.provide(Logger.layer([collect])), Effect.forkScoped)
  const client = yield* McpClient.make({
    era: "2025", name: "test-client",
    version: "1.0.0",
    sampling: () => Effect.fail(new ErrorResponse({ code: -1, message: "The user declined" }))
  }).pipe(Effect.provideService(Transport.Transport, pair.client))
  const lastResponse = (method: string) => {
    const all = requests(pair.wire, "client", method)
    return responseTo(pair.wire, "server", all[all.length - 1]!.id)
  }
  return { client, pair, logs, lastResponse }
})

const toolText = (result: { readonly content: ReadonlyArray<unknown> }) => (result.content[0] as { text: string }).text

describe("server errors", () => {
  it.live("a typed failure with no message shows its _tag and fields; one with a message keeps it", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* session
      const user = yield* client.callTool("user", { id: "99" })
      assert.deepStrictEqual(user, { content: [{ type: "text", text: "UserNotFound: {\"id\":\"99\"}" }], isError: true })
      assert.strictEqual(toolText(yield* client.callTool("quota")), "Quota: {\"used\":3,\"limit\":2}")
      assert.strictEqual(toolText(yield* client.callTool("nothing")), "Nothing")
      assert.strictEqual(toolText(yield* client.callTool("explained")), "user 7 is explained")
      assert.strictEqual(toolText(yield* client.callTool("plain")), "plain message")
      assertWireValid(pair.wire)
    }))

  it.live("an ErrorResponse is sent as it is; the client receives it as the McpError answering tools/call", () =>
    Effect.gen(function*() {
      const { client, lastResponse } = yield* session
      const error = yield* Effect.flip(client.callTool("refuses"))
      assert.deepStrictEqual(
        error,
        new McpError({ code: -32001, message: "refused", data: { why: "policy" }, method: "tools/call" })
      )
      assert.deepStrictEqual(lastResponse("tools/call")?.error, { code: -32001, message: "refused", data: { why: "policy" } })
    }))

  it.live("a client's declined sampling escaping a tool is a tool error naming the call, not the client's error", () =>
    Effect.gen(function*() {
      const { client, lastResponse, pair } = yield* session
      const result = yield* client.callTool("asks")
      const expected = {
        content: [{
          type: "text" as const,
          text: "sampling/createMessage failed: the client answered with error -1: The user declined"
        }],
        isError: true
      }
      assert.deepStrictEqual(result, expected)
      const response = lastResponse("tools/call")
      assert.isUndefined(response?.error)
      assert.deepStrictEqual(response?.result, expected)
      assertWireValid(pair.wire)
    }))

  it.live("a client's error escaping a resource or prompt is -32603 with no details, logged on the server", () =>
    Effect.gen(function*() {
      const { client, lastResponse, logs } = yield* session
      const read = yield* Effect.flip(client.readResource("ask://model"))
      assert.strictEqual((read as McpError).code, -32603)
      assert.deepStrictEqual(lastResponse("resources/read")?.error, { code: -32603, message: "Internal error" })
      const got = yield* Effect.flip(client.getPrompt("asks"))
      assert.strictEqual((got as McpError).code, -32603)
      assert.deepStrictEqual(lastResponse("prompts/get")?.error, { code: -32603, message: "Internal error" })
      assert.isTrue(logs.some((l) => l.includes("resources/read asks failed") && l.includes("The user declined")), logs.join("\n"))
      assert.isTrue(logs.some((l) => l.includes("prompts/get asks failed") && l.includes("The user declined")), logs.join("\n"))
    }))

  it.live("a typed failure of a resource or prompt is -32603 with no details; its message is logged, not sent", () =>
    Effect.gen(function*() {
      const { client, lastResponse, logs, pair } = yield* session
      yield* Effect.flip(client.readResource("db://table"))
      assert.deepStrictEqual(lastResponse("resources/read")?.error, { code: -32603, message: "Internal error" })
      yield* Effect.flip(client.getPrompt("db"))
      assert.deepStrictEqual(lastResponse("prompts/get")?.error, { code: -32603, message: "Internal error" })
      assert.notInclude(JSON.stringify(pair.wire), "secret 4242")
      assert.strictEqual(logs.filter((l) => l.includes("secret 4242")).length, 2, logs.join("\n"))
      // a handler that means its message for the client fails with ErrorResponse
      yield* Effect.flip(client.getPrompt("chosen"))
      assert.deepStrictEqual(lastResponse("prompts/get")?.error, {
        code: -32602,
        message: "topic is too long",
        data: { max: 10 }
      })
    }))

  it.live("ResourceNotFound from a template or resource is -32002 with data.uri", () =>
    Effect.gen(function*() {
      const { client, lastResponse, pair } = yield* session
      assert.deepStrictEqual((yield* client.readResource("users://1")).contents, [{ uri: "users://1", text: "Ada" }])
      const error = yield* Effect.flip(client.readResource("users://99"))
      assert.strictEqual((error as McpError).code, -32002)
      assert.deepStrictEqual(lastResponse("resources/read")?.error, {
        code: -32002,
        message: "Resource not found: users://99",
        data: { uri: "users://99" }
      })
      yield* Effect.flip(client.readResource("moved://5"))
      assert.deepStrictEqual(lastResponse("resources/read")?.error, {
        code: -32002,
        message: "Resource not found: users://5",
        data: { uri: "users://5" }
      })
      yield* Effect.flip(client.readResource("gone://x"))
      assert.deepStrictEqual(lastResponse("resources/read")?.error, {
        code: -32002,
        message: "Resource not found: gone://x",
        data: { uri: "gone://x" }
      })
      assertWireValid(pair.wire)
    }))
})

describe("the engine's -32603", () => {
  it.live("never carries details: an ErrorResponse -32603 with a message of its own is logged and sent bare", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const logs: Array<string> = []
      const collect = Logger.make(({ cause, message }) => void logs.push(`${String(message)} ${JSON.stringify(cause)}`))
      yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: ({ request }) =>
          Effect.fail(
            request.method === "leaky"
              ? new ErrorResponse({ code: -32603, message: "password hunter2 rejected", data: { host: "db.internal" } })
              : ErrorResponse.internal()
          ),
        onNotification: () => Effect.void
      }).pipe(Effect.provide(Logger.layer([collect])))
      const client = yield* Protocol.make(pair.client, {
        side: "client",
        onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
        onNotification: () => Effect.void
      })
      const leaky = yield* Effect.flip(client.request("leaky"))
      assert.deepStrictEqual(leaky, new McpError({ code: -32603, message: "Internal error", method: "leaky" }))
      const bare = yield* Effect.flip(client.request("bare"))
      assert.deepStrictEqual(bare, new McpError({ code: -32603, message: "Internal error", method: "bare" }))
      assert.notInclude(JSON.stringify(pair.wire), "hunter2")
      assert.strictEqual(logs.filter((l) => l.includes("hunter2")).length, 1, logs.join("\n"))
    }))
})
