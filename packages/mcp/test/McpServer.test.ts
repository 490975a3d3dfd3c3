/**
 * McpServer end to end: a real client against a real server over the
 * in-memory transport, asserting what crosses the wire and validating every
 * message against the official 2025-11-25 JSON Schema.
 */
import { assert, describe, it } from "@effect/vitest"
import Ajv2020 from "ajv/dist/2020.js"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Tracer from "effect/Tracer"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse, McpError, ProtocolError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import { ServerSession } from "@effect-mcp/mcp/ServerSession"
import * as Transport from "@effect-mcp/mcp/Transport"
import {
  assertWireValid,
  buildServer,
  connect,
  notifications,
  requests,
  responseTo,
  sentBy,
  serve,
  settle,
  waitForWire
} from "./utils/wire.js"

// ----------------------------------------------------------------------------
// features
// ----------------------------------------------------------------------------

class Greeter extends Context.Service<Greeter, { readonly greet: (name: string) => string }>()("test/Greeter") {}

class NotFound extends Schema.TaggedError<NotFound>()("NotFound", { message: Schema.String }) {}

const Echo = McpServer.tool({
  name: "echo",
  title: "Echo",
  description: "Echoes the text back",
  icons: [{ src: "https://example.com/echo.png", mimeType: "image/png", sizes: ["48x48"] }],
  annotations: { title: "Echo tool", readOnlyHint: true, idempotentHint: true },
  parameters: Schema.Struct({
    text: Schema.String.annotate({ description: "The text to echo" }),
    times: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0)))
  }),
  handler: ({ text, times }) => Effect.succeed(text.repeat(times ?? 1))
})

const Add = McpServer.tool({
  name: "add",
  parameters: Schema.Struct({ a: Schema.Number, b: Schema.Number }),
  success: Schema.Struct({ sum: Schema.Number }),
  handler: ({ a, b }) => Effect.succeed({ sum: a + b })
})

/** An output that is not an object: wrapped as `{ result }`. */
const Range = McpServer.tool({
  name: "range",
  parameters: Schema.Struct({ n: Schema.Int }),
  success: Schema.Array(Schema.Number),
  handler: ({ n }) => Effect.succeed(Array.from({ length: n }, (_, i) => i))
})

/** Parameters with an identifier: JSON Schema puts them behind a root `$ref`. */
const Search = McpServer.tool({
  name: "search",
  parameters: Schema.Struct({ query: Schema.String }).annotate({ identifier: "SearchArgs" }),
  handler: ({ query }) => Effect.succeed(`results for ${query}`)
})

const Fails = McpServer.tool({
  name: "fails",
  handler: () => Effect.fail(new NotFound({ message: "no such thing" }))
})

const Refuses = McpServer.tool({
  name: "refuses",
  handler: () => Effect.fail(new ErrorResponse({ code: -32001, message: "refused", data: { why: "policy" } }))
})

const SECRET = "secret internal detail 4242"
const Dies = McpServer.tool({
  name: "dies",
  handler: () => Effect.die(new Error(SECRET))
})

const Greet = McpServer.tool({
  name: "greet",
  parameters: Schema.Struct({ name: Schema.String }),
  handler: ({ name }) => Effect.map(Greeter, (g) => g.greet(name))
})

const Readme = McpServer.resource({
  uri: "file:///readme.md",
  name: "readme",
  title: "README",
  mimeType: "text/markdown",
  content: Effect.succeed("# Hello")
})

const Logo = McpServer.resource({
  uri: "file:///logo.png",
  name: "logo",
  mimeType: "image/png",
  content: Effect.succeed(new Uint8Array([137, 80, 78, 71, 13, 10]))
})

const userIds = ["1", "2", "10", "11"]
const Users = McpServer.resourceTemplate({
  uriTemplate: "users://{id}/profile",
  name: "user",
  description: "A user profile",
  mimeType: "application/json",
  read: (variables, uri) => Effect.succeed(JSON.stringify({ id: variables.id, uri })),
  list: Effect.succeed([{ uri: "users://1/profile", name: "user 1" }, { uri: "users://2/profile", name: "user 2" }]),
  complete: { id: (value) => Effect.succeed(userIds.filter((id) => id.startsWith(value))) }
})

const completionContexts: Array<{ readonly [key: string]: string }> = []
const Review = McpServer.prompt({
  name: "review",
  title: "Code review",
  description: "Reviews code",
  parameters: Schema.Struct({
    code: Schema.String.annotate({ description: "The code to review" }),
    language: Schema.optional(Schema.String.annotate({ description: "Its language" })),
    style: Schema.optional(Schema.String)
  }),
  complete: {
    language: (value, context) =>
      Effect.sync(() => {
        completionContexts.push(context.arguments)
        return ["typescript", "python", "tsx"].filter((l) => l.startsWith(value))
      }),
    style: () => Effect.succeed(Array.from({ length: 250 }, (_, i) => `style-${i}`))
  },
  content: ({ code, language }) =>
    Effect.succeed<ReadonlyArray<McpSchema.PromptMessage>>([
      { role: "user", content: { type: "text", text: `Review this ${language ?? "code"}:\n${code}` } },
      {
        role: "user",
        content: { type: "resource", resource: { uri: "file:///style.md", mimeType: "text/markdown", text: "be kind" } }
      },
      { role: "assistant", content: { type: "image", data: "iVBORw0K", mimeType: "image/png" } }
    ])
})

const Hello = McpServer.prompt({
  name: "hello",
  content: () => Effect.succeed("Say hello")
})

const textOf = (result: McpClient.CallToolResult) => (result.content[0] as McpSchema.TextContent).text

const ajvMeta = new Ajv2020.default({ strict: false })
const isJsonSchema2020 = (schema: unknown) => ajvMeta.validateSchema(schema as object) === true

// ----------------------------------------------------------------------------
// tools
// ----------------------------------------------------------------------------

describe("McpServer tools", () => {
  it.live("tools/list publishes JSON Schema 2020-12 object schemas with titles, annotations and icons", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo, Add, Range, Search))
      const { client, pair } = yield* connect(server)
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools.map((t) => t.name), ["echo", "add", "range", "search"])
      for (const t of tools) {
        assert.strictEqual(t.inputSchema.type, "object", t.name)
        assert.isTrue(isJsonSchema2020(t.inputSchema), `${t.name} inputSchema is not JSON Schema 2020-12`)
        if (t.outputSchema !== undefined) {
          assert.strictEqual(t.outputSchema.type, "object", t.name)
          assert.isTrue(isJsonSchema2020(t.outputSchema), `${t.name} outputSchema is not JSON Schema 2020-12`)
        }
      }
      const [echo, add, range, search] = tools
      assert.strictEqual(echo.title, "Echo")
      assert.strictEqual(echo.description, "Echoes the text back")
      assert.deepStrictEqual(echo.annotations, { title: "Echo tool", readOnlyHint: true, idempotentHint: true })
      assert.deepStrictEqual(echo.icons, [{ src: "https://example.com/echo.png", mimeType: "image/png", sizes: ["48x48"] }])
      assert.deepStrictEqual(echo.inputSchema.required, ["text"])
      assert.deepStrictEqual(echo.inputSchema.properties?.text, { type: "string", description: "The text to echo" })
      assert.isUndefined(echo.outputSchema)
      assert.deepStrictEqual(add.outputSchema?.properties?.sum, { type: "number" })
      // not an object: wrapped
      assert.deepStrictEqual(range.outputSchema?.required, ["result"])
      assert.deepStrictEqual(range.outputSchema?.properties?.result, { type: "array", items: { type: "number" } })
      // a root $ref is inlined, not replaced by an empty schema
      assert.deepStrictEqual(search.inputSchema.required, ["query"])
      assert.deepStrictEqual(search.inputSchema.properties?.query, { type: "string" })
      assert.isUndefined(search.inputSchema.$ref)
      // what the client returned is what crossed
      const [list] = requests(pair.wire, "client", "tools/list")
      assert.deepStrictEqual((responseTo(pair.wire, "server", list.id)?.result as { tools: unknown }).tools, tools)
      assertWireValid(pair.wire)
    }))

  it.live("a call with valid arguments is answered with the handler's content", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const { client, pair } = yield* connect(server)
      const result = yield* client.callTool("echo", { text: "ab", times: 2 })
      assert.deepStrictEqual(result, { content: [{ type: "text", text: "abab" }] })
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(call.params, { name: "echo", arguments: { text: "ab", times: 2 } })
      assert.deepStrictEqual(responseTo(pair.wire, "server", call.id)?.result, result)
      assertWireValid(pair.wire)
    }))

  it.live("invalid arguments are a tool error naming each field, not a protocol error", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const { client, pair } = yield* connect(server)
      const result = yield* client.callTool("echo", { text: 1, times: 0 })
      assert.isTrue(result.isError)
      const text = (result.content[0] as McpSchema.TextContent).text
      assert.include(text, "echo")
      assert.match(text, /text: Expected string/)
      assert.match(text, /times: /)
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.strictEqual((responseTo(pair.wire, "server", call.id)?.result as McpSchema.CallToolResult).isError, true)
      assertWireValid(pair.wire)
    }))

  it.live("an unknown tool is JSON-RPC -32602", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const { client, pair } = yield* connect(server)
      const error = yield* Effect.flip(client.callTool("nope", {}))
      assert.strictEqual(error._tag, "McpError")
      assert.strictEqual((error as McpError).code, -32602)
      const [call] = requests(pair.wire, "client", "tools/call")
      const response = responseTo(pair.wire, "server", call.id)
      assert.strictEqual((response?.error as { code: number }).code, -32602)
      assert.include((response?.error as { message: string }).message, "nope")
      assertWireValid(pair.wire)
    }))

  it.live("a success schema sends structuredContent with a JSON text fallback; a non-object is wrapped", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Add, Range))
      const { client, pair } = yield* connect(server)
      yield* client.listToolsAll() // the client validates structuredContent against the listed outputSchema
      const sum = yield* client.callTool("add", { a: 1, b: 2 })
      assert.deepStrictEqual(sum, { content: [{ type: "text", text: "{\"sum\":3}" }], structuredContent: { sum: 3 } })
      const range = yield* client.callTool("range", { n: 3 })
      assert.deepStrictEqual(range.structuredContent, { result: [0, 1, 2] })
      assert.deepStrictEqual(JSON.parse((range.content[0] as McpSchema.TextContent).text), { result: [0, 1, 2] })
      const results = requests(pair.wire, "client", "tools/call").map((c) => responseTo(pair.wire, "server", c.id)?.result)
      assert.deepStrictEqual(results, [sum, range])
      assertWireValid(pair.wire)
    }))

  it.live("a typed failure is a tool error with its message", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Fails))
      const { client, pair } = yield* connect(server)
      const result = yield* client.callTool("fails")
      assert.deepStrictEqual(result, { content: [{ type: "text", text: "no such thing" }], isError: true })
      assertWireValid(pair.wire)
    }))

  it.live("an ErrorResponse failure is a JSON-RPC error with its code, message and data", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Refuses))
      const { client, pair } = yield* connect(server)
      const error = yield* Effect.flip(client.callTool("refuses"))
      assert.deepStrictEqual(error, new McpError({ code: -32001, message: "refused", data: { why: "policy" }, method: "tools/call" }))
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(responseTo(pair.wire, "server", call.id)?.error, {
        code: -32001,
        message: "refused",
        data: { why: "policy" }
      })
      assertWireValid(pair.wire)
    }))

  it.live("a defect is -32603 Internal error and its message never crosses the wire", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Dies))
      const { client, pair } = yield* connect(server, { quiet: true })
      const error = yield* Effect.flip(client.callTool("dies"))
      assert.strictEqual((error as McpError).code, -32603)
      assert.strictEqual(error.message, "Internal error")
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(responseTo(pair.wire, "server", call.id)?.error, { code: -32603, message: "Internal error" })
      assert.isFalse(pair.wire.some((w) => w.json.includes(SECRET)), "the defect leaked to the wire")
      // the session survives
      yield* client.ping
      assertWireValid(pair.wire)
    }))

  /** Serves `server` from a fiber whose own Greeter is the wrong one; a 2025 client over memory. */
  const serveUnderWrongGreeter = (server: McpServer.McpServerShape) =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* server.serve(pair.server).pipe(
        Effect.provideService(Greeter, { greet: (n) => `Wrong greeter for ${n}` }),
        Effect.forkScoped
      )
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideService(Transport.Transport, pair.client)
      )
      return { client, pair }
    })

  it.live("a handler's services come from the Layer that registered it, before the serving fiber's", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(
        McpServer.register(Greet).pipe(Layer.provide(Layer.succeed(Greeter, { greet: (n) => `Hello, ${n}` })))
      )
      const { client, pair } = yield* serveUnderWrongGreeter(server)
      const result = yield* client.callTool("greet", { name: "Ada" })
      assert.deepStrictEqual(result.content, [{ type: "text", text: "Hello, Ada" }])
      assertWireValid(pair.wire)
    }))
  it.live("every call of a session sees its own HandlerContext over the feature's services (kept from call to call)", () =>
    Effect.gen(function*() {
      const Who = McpServer.tool({
        name: "who",
        parameters: Schema.Struct({ name: Schema.String }),
        handler: ({ name }) =>
          Effect.gen(function*() {
            const { requestId } = yield* HandlerContext
            const greeter = yield* Greeter
            return `${String(requestId)} ${greeter.greet(name)}`
          })
      })
      const server = yield* buildServer(
        McpServer.register(Who).pipe(Layer.provide(Layer.succeed(Greeter, { greet: (n) => `Hello, ${n}` })))
      )
      const { client, pair } = yield* serveUnderWrongGreeter(server)
      const call = (name: string) =>
        Effect.map(client.callTool("who", { name }), (r) => (r.content[0] as McpSchema.TextContent).text)
      const first = yield* call("Ada")
      const second = yield* call("Bob")
      const together = yield* Effect.all([call("Cy"), call("Di"), call("Ed")], { concurrency: "unbounded" })
      const ids = requests(pair.wire, "client", "tools/call").map((r) => String(r.id))
      assert.deepStrictEqual(
        [first, second, ...together],
        ["Ada", "Bob", "Cy", "Di", "Ed"].map((n, i) => `${ids[i]} Hello, ${n}`)
      )
      assertWireValid(pair.wire)
    }))
  it.live("connect serves a session without waiting on it; its scope ends it, and `closed` tells when the peer left", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const first = yield* Transport.makeMemoryPair()
      const scope = yield* Scope.make()
      const connection = yield* server.connect(first.server).pipe(Scope.provide(scope))
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideService(Transport.Transport, first.client)
      )
      const result = yield* client.callTool("echo", { text: "hi" })
      assert.deepStrictEqual(result.content, [{ type: "text", text: "hi" }])
      assert.strictEqual((yield* server.sessions).length, 1)
      assert.strictEqual(connection.session.clientInfo()?.name, "c")
      // closing the scope ends the session: the server forgets it and the client's calls fail
      yield* Scope.close(scope, Exit.void)
      assert.strictEqual((yield* server.sessions).length, 0)
      // a peer that leaves completes `closed`
      const second = yield* Transport.makeMemoryPair()
      const other = yield* server.connect(second.server)
      yield* second.disconnect("client")
      yield* other.closed.pipe(Effect.timeout("1 second"))
    }))

  it.live("a handler runs under its request's span and in the session's scope, not the registering Layer's", () =>
    Effect.gen(function*() {
      const finalized = yield* Deferred.make<void>()
      const Where = McpServer.tool({
        name: "where",
        handler: () =>
          Effect.gen(function*() {
            const span = yield* Effect.currentSpan
            yield* Effect.addFinalizer(() => Deferred.succeed(finalized, undefined))
            return span.name
          })
      })
      // spans are made only under a tracer other than the built-in one
      const base = yield* Effect.tracer
      const tracer = Tracer.make({ span: (...args) => base.span(...args), context: base.context })
      const server = yield* buildServer(McpServer.register(Where)).pipe(Effect.withSpan("registration"))
      const connection = yield* Scope.make()
      const pair = yield* Transport.makeMemoryPair().pipe(Scope.provide(connection))
      yield* server.serve(pair.server).pipe(Effect.withTracer(tracer), Effect.forkIn(connection))
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideService(Transport.Transport, pair.client),
        Scope.provide(connection)
      )
      const result = yield* client.callTool("where")
      // named as OpenTelemetry's MCP conventions say: `{mcp.method.name} {target}`
      assert.deepStrictEqual(result.content, [{ type: "text", text: "tools/call where" }])
      // the finalizer belongs to the session: it has not run yet, and runs when the session ends
      assert.isTrue(Option.isNone(yield* Deferred.poll(finalized)))
      yield* Scope.close(connection, Exit.void)
      yield* Deferred.await(finalized).pipe(Effect.timeout("1 second"))
    }))
})

// ----------------------------------------------------------------------------
// HandlerContext and ServerSession
// ----------------------------------------------------------------------------

describe("McpServer HandlerContext and ServerSession", () => {
  it.live("a HandlerContext used after its request ended fails with RequestEnded; ServerSession still works", () =>
    Effect.gen(function*() {
      const outcome = yield* Deferred.make<{
        readonly sampled: Exit.Exit<unknown, McpError | ProtocolError>
        readonly notified: Exit.Exit<void, ProtocolError>
        readonly active: boolean
      }>()
      const Later = McpServer.tool({
        name: "later",
        handler: () =>
          Effect.gen(function*() {
            const ctx = yield* HandlerContext
            const session = yield* ServerSession
            assert.isTrue(ctx.isActive())
            yield* Effect.forkDetach(Effect.gen(function*() {
              yield* Effect.sleep("20 millis")
              const sampled = yield* Effect.exit(
                ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })
              )
              const notified = yield* Effect.exit(ctx.notify("notifications/message", { level: "info", data: "late" }))
              yield* session.log("info", "after the request", "job")
              yield* session.notify("notifications/resources/list_changed")
              yield* Deferred.succeed(outcome, { sampled, notified, active: ctx.isActive() })
            }))
            return "started"
          })
      })
      const server = yield* buildServer(McpServer.register(Later))
      const { client, pair } = yield* connect(server, {
        client: { sampling: () =>
          Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "never asked" } })
         }
      })
      const result = yield* client.callTool("later")
      assert.deepStrictEqual(result.content, [{ type: "text", text: "started" }])
      const { active, notified, sampled } = yield* Deferred.await(outcome)
      assert.isFalse(active)
      const failure = (exit: Exit.Exit<unknown, McpError | ProtocolError>) =>
        Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined
      const sampleError = failure(sampled)
      assert.instanceOf(sampleError, ProtocolError)
      assert.strictEqual((sampleError as ProtocolError).reason, "RequestEnded")
      assert.strictEqual((sampleError as ProtocolError).method, "sampling/createMessage")
      assert.include(sampleError!.message, "tools/call")
      const notifyError = failure(notified)
      assert.strictEqual((notifyError as ProtocolError).reason, "RequestEnded")
      yield* waitForWire(pair.wire, (r) => r.message.method === "notifications/resources/list_changed")
      assert.strictEqual(requests(pair.wire, "server", "sampling/createMessage").length, 0)
      const logs = notifications(pair.wire, "server", "notifications/message").map((m) => m.params)
      assert.deepStrictEqual(logs, [{ level: "info", data: "after the request", logger: "job" }])
      assertWireValid(pair.wire)
    }))

  it.live("a HandlerContext's functions work taken out of it", () =>
    Effect.gen(function*() {
      const Destructured = McpServer.tool({
        name: "destructured",
        handler: () =>
          Effect.gen(function*() {
            const { log, progress, requestId, sample } = yield* HandlerContext
            yield* progress(1, { total: 1 })
            yield* log("info", "taken out")
            const answer = yield* sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })
            const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
            return `${String(requestId)}: ${content?.type === "text" ? content.text : "?"}`
          })
      })
      const server = yield* buildServer(McpServer.register(Destructured))
      const { client, pair } = yield* connect(server, {
        client: { sampling: () =>
          Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "hello" } })
         }
      })
      yield* client.setLogLevel("info")
      const progress: Array<number> = []
      const result = yield* client.callTool("destructured", {}, { onProgress: (p) => Effect.sync(() => void progress.push(p.progress)) })
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual(result.content, [{ type: "text", text: `${String(call.id)}: hello` }])
      assert.deepStrictEqual(progress, [1])
      const logs = notifications(pair.wire, "server", "notifications/message").map((m) => m.params)
      assert.deepStrictEqual(logs, [{ level: "info", data: "taken out" }])
      assertWireValid(pair.wire)
    }))

  it.live("the session exposes what the client declared and negotiated", () =>
    Effect.gen(function*() {
      const seen = yield* Deferred.make<{
        readonly version: string | undefined
        readonly clientName: string | undefined
        readonly capabilities: McpSchema.ClientCapabilities | undefined
        readonly sessionId: string
      }>()
      const Who = McpServer.tool({
        name: "who",
        handler: () =>
          Effect.gen(function*() {
            const session = yield* ServerSession
            yield* Deferred.succeed(seen, {
              version: session.protocolVersion(),
              clientName: session.clientInfo()?.name,
              capabilities: session.clientCapabilities(),
              sessionId: session.sessionId
            })
            return session.sessionId
          })
      })
      const server = yield* buildServer(McpServer.register(Who))
      const { client, pair } = yield* connect(server, {
        client: { name: "inspector", capabilities: { experimental: { x: {} } } }
      })
      yield* client.callTool("who")
      const info = yield* Deferred.await(seen)
      assert.strictEqual(info.version, "2025-11-25")
      assert.strictEqual(info.clientName, "inspector")
      assert.deepStrictEqual(info.capabilities, { experimental: { x: {} } })
      assert.deepStrictEqual((yield* server.sessions).map((s) => s.sessionId), [info.sessionId])
      assertWireValid(pair.wire)
    }))

  it.live("one server definition serves two sessions at once", () =>
    Effect.gen(function*() {
      // each call waits until both are running: served one after the other, they would time out
      const bothRunning = yield* Deferred.make<void>()
      let running = 0
      const Meet = McpServer.tool({
        name: "meet",
        parameters: Schema.Struct({ tag: Schema.String }),
        handler: ({ tag }) =>
          Effect.gen(function*() {
            const session = yield* ServerSession
            if (++running === 2) yield* Deferred.succeed(bothRunning, undefined)
            yield* Deferred.await(bothRunning).pipe(Effect.timeoutOrElse({
              duration: "2 seconds",
              orElse: () => Effect.fail(new NotFound({ message: "the other session never ran" }))
            }))
            return `${tag}@${session.sessionId}`
          })
      })
      const server = yield* buildServer(McpServer.register(Meet))
      const a = yield* connect(server)
      const b = yield* connect(server)
      assert.strictEqual((yield* server.sessions).length, 2)
      const [ra, rb] = yield* Effect.all([a.client.callTool("meet", { tag: "a" }), b.client.callTool("meet", { tag: "b" })], {
        concurrency: "unbounded"
      })
      const [ta, tb] = [ra, rb].map(textOf)
      assert.match(ta, /^a@session-/)
      assert.match(tb, /^b@session-/)
      assert.notStrictEqual(ta.slice(2), tb.slice(2), "both calls ran in the same session")
      // each wire carries only its own session
      assert.strictEqual(requests(a.pair.wire, "client", "tools/call").length, 1)
      assert.strictEqual(requests(b.pair.wire, "client", "tools/call").length, 1)
      assertWireValid(a.pair.wire)
      assertWireValid(b.pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// resources
// ----------------------------------------------------------------------------

describe("McpServer resources", () => {
  it.live("resources/list has static and template-listed resources; templates/list the templates", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Readme, Logo, Users))
      const { client, pair } = yield* connect(server)
      const resources = yield* client.listResourcesAll()
      assert.deepStrictEqual(resources, [
        { uri: "file:///readme.md", name: "readme", title: "README", mimeType: "text/markdown" },
        { uri: "file:///logo.png", name: "logo", mimeType: "image/png" },
        { uri: "users://1/profile", name: "user 1" },
        { uri: "users://2/profile", name: "user 2" }
      ])
      const templates = yield* client.listResourceTemplatesAll()
      assert.deepStrictEqual(templates, [
        { uriTemplate: "users://{id}/profile", name: "user", description: "A user profile", mimeType: "application/json" }
      ])
      assert.strictEqual(requests(pair.wire, "client", "resources/list").length, 1)
      assert.strictEqual(requests(pair.wire, "client", "resources/templates/list").length, 1)
      assertWireValid(pair.wire)
    }))

  it.live("resources/read: text, blob (base64) and a template with its variables", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Readme, Logo, Users))
      const { client, pair } = yield* connect(server)
      const text = yield* client.readResource("file:///readme.md")
      assert.deepStrictEqual(text, { contents: [{ uri: "file:///readme.md", mimeType: "text/markdown", text: "# Hello" }] })
      const blob = yield* client.readResource("file:///logo.png")
      assert.deepStrictEqual(blob, {
        contents: [{ uri: "file:///logo.png", mimeType: "image/png", blob: Buffer.from([137, 80, 78, 71, 13, 10]).toString("base64") }]
      })
      const user = yield* client.readResource("users://42/profile")
      assert.deepStrictEqual(user.contents, [
        { uri: "users://42/profile", mimeType: "application/json", text: JSON.stringify({ id: "42", uri: "users://42/profile" }) }
      ])
      const results = requests(pair.wire, "client", "resources/read").map((r) => responseTo(pair.wire, "server", r.id)?.result)
      assert.deepStrictEqual(results, [text, blob, user])
      assertWireValid(pair.wire)
    }))

  it.live("an unknown uri is -32002 with the uri in data", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Readme, Users))
      const { client, pair } = yield* connect(server)
      const error = yield* Effect.flip(client.readResource("file:///missing.txt"))
      assert.strictEqual((error as McpError).code, -32002)
      const [read] = requests(pair.wire, "client", "resources/read")
      assert.deepStrictEqual(responseTo(pair.wire, "server", read.id)?.error, {
        code: -32002,
        message: "Resource not found: file:///missing.txt",
        data: { uri: "file:///missing.txt" }
      })
      assertWireValid(pair.wire)
    }))

  it.live("subscribe: updates reach only the sessions subscribed to that uri; unsubscribe on scope close", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Readme, Logo))
      const a = yield* connect(server)
      const b = yield* connect(server)
      const updated = (wire: ReadonlyArray<Transport.WireRecord>) =>
        notifications(wire, "server", "notifications/resources/updated").map((m) => m.params)

      const subscription = yield* Scope.make()
      const readmeUpdates = yield* a.client.subscribe("file:///readme.md").pipe(Scope.provide(subscription))
      const logoUpdates = yield* b.client.subscribe("file:///logo.png")
      const gotA = yield* readmeUpdates.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      const gotB = yield* logoUpdates.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)

      yield* McpServer.notifyResourceUpdated("file:///readme.md").pipe(Effect.provideService(McpServer.McpServer, server))
      assert.deepStrictEqual(updated(a.pair.wire), [{ uri: "file:///readme.md" }])
      assert.deepStrictEqual(updated(b.pair.wire), [])
      yield* server.notifyResourceUpdated("file:///logo.png")
      assert.deepStrictEqual(updated(a.pair.wire), [{ uri: "file:///readme.md" }])
      assert.deepStrictEqual(updated(b.pair.wire), [{ uri: "file:///logo.png" }])
      assert.deepStrictEqual(Array.from(yield* Fiber.join(gotA)), [{ uri: "file:///readme.md" }])
      assert.deepStrictEqual(Array.from(yield* Fiber.join(gotB)), [{ uri: "file:///logo.png" }])

      yield* Scope.close(subscription, Exit.void)
      const [unsubscribe] = requests(a.pair.wire, "client", "resources/unsubscribe")
      assert.deepStrictEqual(unsubscribe.params, { uri: "file:///readme.md" })
      assert.deepInclude(responseTo(a.pair.wire, "server", unsubscribe.id), { result: {} })
      yield* server.notifyResourceUpdated("file:///readme.md")
      assert.strictEqual(updated(a.pair.wire).length, 1, "an unsubscribed session was notified")
      assert.deepStrictEqual(requests(a.pair.wire, "client", "resources/subscribe").map((m) => m.params), [
        { uri: "file:///readme.md" }
      ])
      assertWireValid(a.pair.wire)
      assertWireValid(b.pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// prompts and completion
// ----------------------------------------------------------------------------

describe("McpServer prompts", () => {
  it.live("prompts/list derives arguments from the Struct: required, optional, descriptions", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Review, Hello))
      const { client, pair } = yield* connect(server)
      const prompts = yield* client.listPromptsAll()
      assert.deepStrictEqual(prompts, [
        {
          name: "review",
          title: "Code review",
          description: "Reviews code",
          arguments: [
            { name: "code", description: "The code to review", required: true },
            { name: "language", description: "Its language", required: false },
            { name: "style", required: false }
          ]
        },
        { name: "hello" }
      ])
      assertWireValid(pair.wire)
    }))

  it.live("prompts/get with arguments returns text, embedded resource and image messages", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Review, Hello))
      const { client, pair } = yield* connect(server)
      const review = yield* client.getPrompt("review", { code: "let x = 1", language: "typescript" })
      assert.deepStrictEqual(review.messages, [
        { role: "user", content: { type: "text", text: "Review this typescript:\nlet x = 1" } },
        {
          role: "user",
          content: { type: "resource", resource: { uri: "file:///style.md", mimeType: "text/markdown", text: "be kind" } }
        },
        { role: "assistant", content: { type: "image", data: "iVBORw0K", mimeType: "image/png" } }
      ])
      const hello = yield* client.getPrompt("hello")
      assert.deepStrictEqual(hello, { messages: [{ role: "user", content: { type: "text", text: "Say hello" } }] })
      const [get] = requests(pair.wire, "client", "prompts/get")
      assert.deepStrictEqual(get.params, { name: "review", arguments: { code: "let x = 1", language: "typescript" } })
      assertWireValid(pair.wire)
    }))

  it.live("invalid or missing arguments and unknown prompts are -32602", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Review))
      const { client, pair } = yield* connect(server)
      const missing = yield* Effect.flip(client.getPrompt("review", { language: "python" }))
      assert.strictEqual((missing as McpError).code, -32602)
      assert.include(missing.message, "code")
      const unknown = yield* Effect.flip(client.getPrompt("nope"))
      assert.strictEqual((unknown as McpError).code, -32602)
      const errors = requests(pair.wire, "client", "prompts/get").map((r) =>
        (responseTo(pair.wire, "server", r.id)?.error as { code: number }).code
      )
      assert.deepStrictEqual(errors, [-32602, -32602])
      assertWireValid(pair.wire)
    }))
})

describe("McpServer prompt arguments are strings", () => {
  it.live("a string-encoded parameter (NumberFromString) is decoded from the string on the wire", () =>
    Effect.gen(function*() {
      const Repeat = McpServer.prompt({
        name: "repeat",
        parameters: Schema.Struct({ word: Schema.String, times: Schema.NumberFromString }),
        content: ({ times, word }) => Effect.succeed(Array.from({ length: times }, () => word).join(" "))
      })
      const server = yield* buildServer(McpServer.register(Repeat))
      const { client, pair } = yield* connect(server)
      const result = yield* client.getPrompt("repeat", { word: "hi", times: "3" })
      assert.deepStrictEqual(result.messages, [{ role: "user", content: { type: "text", text: "hi hi hi" } }])
      const [prompt] = yield* client.listPromptsAll()
      assert.deepStrictEqual(prompt?.arguments?.map((a) => [a.name, a.required]), [["word", true], ["times", true]])
      assertWireValid(pair.wire)
    }))

  it("parameters that do not encode to strings are a type error", () => {
    const typeChecks = () => [
      McpServer.prompt({
        name: "n",
        // @ts-expect-error a number argument: prompt arguments are strings on the wire
        parameters: Schema.Struct({ n: Schema.Number }),
        content: () => Effect.succeed("")
      }),
      McpServer.prompt({
        name: "b",
        // @ts-expect-error a boolean argument
        parameters: Schema.Struct({ b: Schema.optional(Schema.Boolean) }),
        content: () => Effect.succeed("")
      }),
      McpServer.prompt({
        name: "ok",
        parameters: Schema.Struct({ n: Schema.NumberFromString, s: Schema.optional(Schema.String), l: Schema.Literals(["a", "b"]) }),
        content: ({ n }) => Effect.succeed(String(n + 1))
      })
    ]
    assert.isFunction(typeChecks)
  })
})

describe("McpServer completion", () => {
  it.live("completes prompt arguments and template variables, passing context.arguments through", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Review, Users))
      const { client, pair } = yield* connect(server)
      completionContexts.length = 0
      const language = yield* client.complete({
        ref: { type: "ref/prompt", name: "review" },
        argument: { name: "language", value: "t" },
        context: { arguments: { code: "let x = 1" } }
      })
      assert.deepStrictEqual(language.completion, { values: ["typescript", "tsx"], total: 2, hasMore: false })
      assert.deepStrictEqual(completionContexts, [{ code: "let x = 1" }])
      const id = yield* client.complete({
        ref: { type: "ref/resource", uri: "users://{id}/profile" },
        argument: { name: "id", value: "1" }
      })
      assert.deepStrictEqual(id.completion.values, ["1", "10", "11"])
      // an argument without a completer completes to nothing
      const code = yield* client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "code", value: "x" } })
      assert.deepStrictEqual(code.completion.values, [])
      const [first] = requests(pair.wire, "client", "completion/complete")
      assert.deepStrictEqual(first.params, {
        ref: { type: "ref/prompt", name: "review" },
        argument: { name: "language", value: "t" },
        context: { arguments: { code: "let x = 1" } }
      })
      assertWireValid(pair.wire)
    }))

  it.live("sends at most 100 values with total and hasMore", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Review))
      const { client, pair } = yield* connect(server)
      const style = yield* client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "style", value: "" } })
      assert.strictEqual(style.completion.values.length, 100)
      assert.strictEqual(style.completion.values[99], "style-99")
      assert.strictEqual(style.completion.total, 250)
      assert.isTrue(style.completion.hasMore)
      const unknown = yield* Effect.flip(
        client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } })
      )
      assert.strictEqual((unknown as McpError).code, -32602)
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// logging
// ----------------------------------------------------------------------------

const Chatty = McpServer.tool({
  name: "chatty",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.log("info", "an info", "chatty")
      yield* ctx.log("error", { what: "an error" }, "chatty")
      return "ok"
    })
})

describe("McpServer logging", () => {
  it.live("after setLogLevel(warning) only messages at warning or above cross", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Chatty))
      const { client, pair } = yield* connect(server)
      const received = yield* client.logMessages.pipe(Stream.take(1), Stream.runCollect, Effect.forkChild)
      yield* settle
      yield* client.setLogLevel("warning")
      yield* client.callTool("chatty")
      const logs = notifications(pair.wire, "server", "notifications/message").map((m) => m.params)
      assert.deepStrictEqual(logs, [{ level: "error", data: { what: "an error" }, logger: "chatty" }])
      assert.deepStrictEqual(Array.from(yield* Fiber.join(received)), logs as Array<unknown>)
      const [setLevel] = requests(pair.wire, "client", "logging/setLevel")
      assert.deepStrictEqual(setLevel.params, { level: "warning" })
      assertWireValid(pair.wire)
    }))

  it.live("2026-07-28: a call without a level in its _meta gets no log messages; McpClient's logLevel puts one there", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Chatty))
      const run = (logLevel: McpSchema.LoggingLevel | undefined) =>
        Effect.gen(function*() {
          const { client, pair } = yield* connect(server, {
            client: logLevel === undefined ? { era: "2026-07-28" } : { era: "2026-07-28", logLevel }
          })
          assert.strictEqual(client.era, "2026")
          yield* client.callTool("chatty")
          const [call] = requests(pair.wire, "client", "tools/call")
          const meta = (call.params as { _meta: Record<string, unknown> })._meta
          const levels = notifications(pair.wire, "server", "notifications/message").map((m) => (m.params as { level: string }).level)
          return { sent: meta["io.modelcontextprotocol/logLevel"], levels }
        })
      assert.deepStrictEqual(yield* run(undefined), { sent: undefined, levels: [] })
      assert.deepStrictEqual(yield* run("warning"), { sent: "warning", levels: ["error"] })
      assert.deepStrictEqual(yield* run("debug"), { sent: "debug", levels: ["info", "error"] })
    }))

  it.live("2025: McpClient's logLevel is sent with logging/setLevel once initialized", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Chatty))
      const { client, pair } = yield* connect(server, { client: { logLevel: "warning" } })
      yield* client.callTool("chatty")
      assert.deepStrictEqual(requests(pair.wire, "client", "logging/setLevel").map((r) => r.params), [{ level: "warning" }])
      const levels = notifications(pair.wire, "server", "notifications/message").map((m) => (m.params as { level: string }).level)
      assert.deepStrictEqual(levels, ["error"])
      assertWireValid(pair.wire)
    }))

  it.live("with no level set every message crosses", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Chatty))
      const { client, pair } = yield* connect(server)
      yield* client.callTool("chatty")
      const levels = notifications(pair.wire, "server", "notifications/message").map((m) => (m.params as { level: string }).level)
      assert.deepStrictEqual(levels, ["info", "error"])
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// pagination
// ----------------------------------------------------------------------------

const numbered = Array.from({ length: 5 }, (_, i) =>
  McpServer.tool({ name: `t${i + 1}`, handler: () => Effect.succeed(`t${i + 1}`) }))

describe("McpServer pagination", () => {
  it.live("pageSize 2 with 5 tools: three pages with opaque cursors", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(...numbered), { pageSize: 2 })
      const { client, pair } = yield* connect(server)
      const tools = yield* client.listToolsAll()
      assert.deepStrictEqual(tools.map((t) => t.name), ["t1", "t2", "t3", "t4", "t5"])
      const lists = requests(pair.wire, "client", "tools/list")
      assert.strictEqual(lists.length, 3)
      const pages = lists.map((r) => responseTo(pair.wire, "server", r.id)?.result as McpSchema.ListToolsResult)
      assert.deepStrictEqual(pages.map((p) => p.tools.length), [2, 2, 1])
      assert.isUndefined(lists[0].params)
      assert.deepStrictEqual(lists.slice(1).map((r) => (r.params as { cursor: string }).cursor), [
        pages[0].nextCursor,
        pages[1].nextCursor
      ])
      assert.isUndefined(pages[2].nextCursor)
      for (const cursor of [pages[0].nextCursor, pages[1].nextCursor]) {
        assert.isString(cursor)
        assert.notMatch(cursor!, /^\d+$/, "a cursor is a bare offset")
      }
      // the Stream form pages lazily
      const firstThree = yield* client.listTools.pipe(Stream.take(3), Stream.runCollect)
      assert.deepStrictEqual(Array.from(firstThree, (t) => t.name), ["t1", "t2", "t3"])
      assertWireValid(pair.wire)
    }))

  it.live("an invalid cursor is -32602; maxPages bounds listAll with LimitExceeded", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(...numbered), { pageSize: 2 })
      const { client, pair } = yield* connect(server)
      for (const cursor of ["not-a-cursor", "e30", Buffer.from("{\"o\":-1}").toString("base64url")]) {
        const error = yield* Effect.flip(client.request("tools/list", { cursor }))
        assert.strictEqual((error as McpError).code, -32602, cursor)
      }
      const limited = yield* Effect.flip(client.listToolsAll({ maxPages: 1 }))
      assert.strictEqual(limited._tag, "ProtocolError")
      assert.strictEqual((limited as ProtocolError).reason, "LimitExceeded")
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// list_changed
// ----------------------------------------------------------------------------

describe("McpServer list_changed", () => {
  it.live("adding and removing features at runtime notifies every initialized session", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const a = yield* connect(server)
      const b = yield* connect(server)
      // a session that sent initialize but not notifications/initialized
      const raw = yield* serve(server)
      const bare = yield* Protocol.make(raw.client, {
        side: "client",
        onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
        onNotification: () => Effect.void
      })
      yield* bare.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bare", version: "0" } })

      const changesA = yield* a.client.toolListChanged.pipe(Stream.take(3), Stream.runCollect, Effect.forkChild)
      yield* settle
      const toolsChanged = (wire: ReadonlyArray<Transport.WireRecord>) =>
        notifications(wire, "server", "notifications/tools/list_changed").length

      // a feature Layer built at runtime
      const layerScope = yield* Scope.make()
      yield* Layer.buildWithScope(McpServer.register(Add), layerScope).pipe(
        Effect.provideService(McpServer.McpServer, server)
      )
      assert.deepStrictEqual([toolsChanged(a.pair.wire), toolsChanged(b.pair.wire)], [1, 1])
      assert.deepStrictEqual((yield* a.client.listToolsAll()).map((t) => t.name), ["echo", "add"])

      yield* server.remove("tool", "echo")
      assert.deepStrictEqual([toolsChanged(a.pair.wire), toolsChanged(b.pair.wire)], [2, 2])
      yield* server.remove("tool", "echo") // nothing to remove: nothing sent
      assert.strictEqual(toolsChanged(a.pair.wire), 2)

      yield* Scope.close(layerScope, Exit.void)
      assert.deepStrictEqual([toolsChanged(a.pair.wire), toolsChanged(b.pair.wire)], [3, 3])
      assert.deepStrictEqual(yield* a.client.listToolsAll(), [])
      assert.strictEqual(Array.from(yield* Fiber.join(changesA)).length, 3)

      // a resource or a prompt notifies its own list
      yield* Effect.scoped(server.add([Readme, Hello], Context.empty()))
      assert.strictEqual(notifications(a.pair.wire, "server", "notifications/resources/list_changed").length, 2)
      assert.strictEqual(notifications(a.pair.wire, "server", "notifications/prompts/list_changed").length, 2)
      assert.strictEqual(toolsChanged(a.pair.wire), 3)

      assert.strictEqual(sentBy(raw.wire, "server").filter((m) => typeof m.method === "string").length, 0)
      assertWireValid(a.pair.wire)
      assertWireValid(b.pair.wire)
      assertWireValid(raw.wire)
    }))

  it.live("removing a registration does not remove a later one under the same name", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(Layer.empty)
      const first = McpServer.tool({ name: "x", handler: () => Effect.succeed("first") })
      const second = McpServer.tool({ name: "x", handler: () => Effect.succeed("second") })
      const { client, pair } = yield* connect(server)
      const scope1 = yield* Scope.make()
      yield* server.add([first], Context.empty()).pipe(Scope.provide(scope1))
      yield* server.add([second], Context.empty())
      yield* Scope.close(scope1, Exit.void)
      const result = yield* client.callTool("x")
      assert.deepStrictEqual(result.content, [{ type: "text", text: "second" }])
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// lifecycle
// ----------------------------------------------------------------------------

describe("McpServer lifecycle", () => {
  it.live("answers the version a client asks for when it supports it", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo), {
        title: "Test server",
        websiteUrl: "https://example.com",
        instructions: "Use echo"
      })
      const { client, pair } = yield* connect(server, { client: { protocolVersion: "2025-06-18" } })
      assert.strictEqual(client.protocolVersion, "2025-06-18")
      assert.strictEqual(client.instructions, "Use echo")
      assert.deepStrictEqual(client.serverInfo, {
        name: "test-server",
        version: "1.0.0",
        title: "Test server",
        websiteUrl: "https://example.com"
      })
      const [init] = requests(pair.wire, "client", "initialize")
      assert.strictEqual((init.params as { protocolVersion: string }).protocolVersion, "2025-06-18")
      const result = responseTo(pair.wire, "server", init.id)?.result as McpSchema.InitializeResult
      assert.strictEqual(result.protocolVersion, "2025-06-18")
      assert.deepStrictEqual(result.capabilities, {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {}
      })
      assertWireValid(pair.wire)
    }))

  it.live("answers its latest version to a version it does not know", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const pair = yield* serve(server)
      const bare = yield* Protocol.make(pair.client, {
        side: "client",
        onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
        onNotification: () => Effect.void
      })
      const result = yield* bare.request("initialize", {
        protocolVersion: "1999-01-01",
        capabilities: {},
        clientInfo: { name: "old", version: "0" }
      })
      assert.strictEqual(result.protocolVersion, "2025-11-25")
      assertWireValid(pair.wire)
      // another session: an initialize without a version (invalid on purpose, so not validated) is
      // -32602, and does not count as the session's initialize
      const other = yield* serve(server)
      const bare2 = yield* Protocol.make(other.client, {
        side: "client",
        onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
        onNotification: () => Effect.void
      })
      const missing = yield* Effect.flip(bare2.request("initialize", { capabilities: {} }))
      assert.strictEqual((missing as McpError).code, -32602)
      const retried = yield* bare2.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "0" } })
      assert.strictEqual(retried.protocolVersion, "2025-06-18")
    }))

  it.live("a second initialize is refused and the negotiated version stays (any transport)", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const pair = yield* serve(server)
      const bare = yield* Protocol.make(pair.client, {
        side: "client",
        onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
        onNotification: () => Effect.void
      })
      const init = { capabilities: {}, clientInfo: { name: "c", version: "0" } }
      const first = yield* bare.request("initialize", { ...init, protocolVersion: "2025-11-25" })
      assert.strictEqual(first.protocolVersion, "2025-11-25")
      const second = yield* Effect.flip(bare.request("initialize", { ...init, protocolVersion: "2025-03-26" }))
      assert.strictEqual((second as McpError).code, -32600)
      assert.match((second as McpError).message, /already initialized/)
      const sessions = yield* server.sessions
      assert.strictEqual(sessions[0]!.protocolVersion(), "2025-11-25")
    }))

  it.live("-32601 shows at most 100 characters of the method name", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const pair = yield* serve(server)
      const bare = yield* Protocol.make(pair.client, {
        side: "client",
        onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
        onNotification: () => Effect.void
      })
      const long = `a/${"x".repeat(1024 * 1024)}`
      const error = yield* Effect.flip(bare.request(long))
      assert.strictEqual((error as McpError).code, -32601)
      assert.strictEqual((error as McpError).message, `Method not found: ${long.slice(0, 100)}…`)
      const short = yield* Effect.flip(bare.request("no/such"))
      assert.strictEqual((short as McpError).message, "Method not found: no/such")
    }))

  it.live("our client refuses a server that answers a version it does not support", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const bare = yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: ({ request }) =>
          request.method === "initialize"
            ? Effect.succeed({ protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "future", version: "0" } })
            : Effect.fail(ErrorResponse.methodNotFound(request.method)),
        onNotification: () => Effect.void
      })
      const error = yield* Effect.flip(
        McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(Effect.provideService(Transport.Transport, pair.client))
      )
      assert.strictEqual(error._tag, "ProtocolError")
      assert.strictEqual((error as ProtocolError).reason, "NotInitialized")
      assert.include(error.message, "1999-01-01")
      assert.strictEqual(yield* bare.running, 0)
      assert.strictEqual(notifications(pair.wire, "client", "notifications/initialized").length, 0)
      assertWireValid(pair.wire)
    }))
})

describe("McpServer.run", () => {
  it.live("serves the Transport in context until the connection ends, then forgets the session", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Echo))
      const connection = yield* Scope.make()
      const pair = yield* Transport.makeMemoryPair().pipe(Scope.provide(connection))
      const running = yield* McpServer.run.pipe(
        Effect.provideService(McpServer.McpServer, server),
        Effect.provideService(Transport.Transport, pair.server),
        Effect.forkChild
      )
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideService(Transport.Transport, pair.client),
        Scope.provide(connection)
      )
      assert.deepStrictEqual((yield* client.callTool("echo", { text: "hi" })).content, [{ type: "text", text: "hi" }])
      assert.strictEqual((yield* server.sessions).length, 1)
      yield* Scope.close(connection, Exit.void)
      yield* Fiber.join(running).pipe(Effect.timeout("1 second"))
      assert.strictEqual((yield* server.sessions).length, 0)
      assertWireValid(pair.wire)
    }))
})

describe("the wire validator", () => {
  it("rejects what the schema rejects", () => {
    const record = (from: "client" | "server", message: unknown): Transport.WireRecord => ({ from, json: JSON.stringify(message) })
    const call = record("client", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } })
    // a valid exchange passes
    assertWireValid([call, record("server", { jsonrpc: "2.0", id: 1, result: { content: [] } })])
    const invalid: ReadonlyArray<ReadonlyArray<Transport.WireRecord>> = [
      // a request without its required params
      [record("client", { jsonrpc: "2.0", id: 1, method: "tools/call" })],
      // a result that does not fit the request it answers
      [call, record("server", { jsonrpc: "2.0", id: 1, result: { tools: [] } })],
      // a server request sent by the client
      [record("client", { jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } })],
      // a notification nobody defines
      [record("server", { jsonrpc: "2.0", method: "notifications/whatever" })],
      // an answer to nothing
      [record("server", { jsonrpc: "2.0", id: 7, result: {} })],
      // an error without a message
      [call, record("server", { jsonrpc: "2.0", id: 1, error: { code: -32603 } })]
    ]
    for (const wire of invalid) assert.throws(() => assertWireValid(wire), /invalid messages on the wire/, wire.map((w) => w.json).join(" "))
  })
})
