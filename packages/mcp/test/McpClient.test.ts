/**
 * McpClient end to end: progress, timeouts, cancellation, reverse calls
 * (sampling, elicitation, roots), capability checks, keep-alive and
 * structuredContent validation, against a real server or a fake peer over the
 * in-memory transport, with every message validated against the official
 * 2025-11-25 JSON Schema.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SubscriptionRef from "effect/SubscriptionRef"
import * as TestClock from "effect/testing/TestClock"
import { HandlerContext, type HandlerContextShape } from "@effect-mcp/mcp/HandlerContext"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ErrorResponse, ProtocolError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import {
  assertWireValid,
  buildServer,
  connect,
  fakePeer,
  initializeResult,
  notifications,
  requests,
  responseTo,
  sentBy,
  serve,
  settle,
  waitForWire
} from "./utils/wire.js"
import { settled, sleepers, until } from "./utils/virtualTime.js"

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

const textOf = (result: McpClient.CallToolResult) => (result.content[0] as McpSchema.TextContent).text

/** Reports progress `steps` times, every `every` ms, then answers "done". */
const Steps = McpServer.tool({
  name: "steps",
  parameters: Schema.Struct({ steps: Schema.Int, every: Schema.Int }),
  handler: ({ every, steps }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= steps; i++) {
        yield* Effect.sleep(every)
        yield* ctx.progress(i, { total: steps, message: `step ${i}` })
      }
      return "done"
    })
})

const userText = (text: string): McpSchema.SamplingMessage => ({ role: "user", content: { type: "text", text } })

/** Asks the client's model and answers with its text, or with the reason it could not. */
const Ask = McpServer.tool({
  name: "ask",
  parameters: Schema.Struct({ q: Schema.String, withTools: Schema.optional(Schema.Boolean) }),
  handler: ({ q, withTools }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const answer = yield* ctx.sample({
        messages: [userText(q)],
        maxTokens: 50,
        ...(withTools === true
          ? {
            tools: [{ name: "lookup", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
            toolChoice: { mode: "auto" }
          }
          : {})
      })
      return Array.isArray(answer.content) ? "?" : (answer.content as McpSchema.TextContent).text
    }).pipe(
      Effect.catch((error) =>
        Effect.succeed(error._tag === "ProtocolError" ? `ProtocolError:${error.reason}` : `McpError:${error.code}`)
      )
    )
})

const ListRoots = McpServer.tool({
  name: "roots",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const { roots } = yield* ctx.listRoots()
      return roots.map((r) => r.uri).join(",")
    })
})

// ----------------------------------------------------------------------------
// progress and timeouts
// ----------------------------------------------------------------------------

describe("McpClient notifications", () => {
  it.live("a notification stream gets what arrives once it runs (nothing earlier), and ends when the client closes", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (request) => request.method === "initialize" ? initializeResult(request.id) : undefined)
      const scope = yield* Scope.make()
      const client = yield* McpClient.make({ era: "2025", name: "test-client", version: "1.0.0" }).pipe(
        Effect.provideService(Transport.Transport, pair.client),
        Scope.provide(scope)
      )
      const log = (data: string) =>
        pair.server.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } })
      // no stream yet: dropped (the client's PubSub is made by its first subscriber)
      yield* log("before")
      yield* settle
      const received = yield* client.logMessages.pipe(Stream.map((p) => p.data), Stream.runCollect, Effect.forkChild)
      yield* settle
      yield* log("after")
      yield* settle
      yield* Scope.close(scope, Exit.void)
      assert.deepStrictEqual([...yield* Fiber.join(received)], ["after"])
    }))
})

describe("McpClient progress", () => {
  it.live("callTool with onProgress receives every progress notification of its request", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Steps))
      const { client, pair } = yield* connect(server)
      const seen: Array<Protocol.ProgressParams> = []
      const result = yield* client.callTool("steps", { steps: 3, every: 5 }, {
        onProgress: (p) => Effect.sync(() => seen.push(p))
      })
      assert.strictEqual(textOf(result), "done")
      const [call] = requests(pair.wire, "client", "tools/call")
      const token = (call.params as { _meta: { progressToken: string | number } })._meta.progressToken
      assert.deepStrictEqual(seen, [1, 2, 3].map((i) => ({ progressToken: token, progress: i, total: 3, message: `step ${i}` })))
      assert.deepStrictEqual(notifications(pair.wire, "server", "notifications/progress").map((m) => m.params), seen)
      assertWireValid(pair.wire)
    }))

  it.live("without onProgress no token is sent and the server sends no progress", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Steps))
      const { client, pair } = yield* connect(server)
      yield* client.callTool("steps", { steps: 2, every: 1 })
      const [call] = requests(pair.wire, "client", "tools/call")
      assert.isUndefined((call.params as { _meta?: unknown })._meta)
      assert.strictEqual(notifications(pair.wire, "server", "notifications/progress").length, 0)
      assertWireValid(pair.wire)
    }))

  it.live("callToolStream emits Progress events then the Result", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Steps))
      const { client, pair } = yield* connect(server)
      const events = Array.from(yield* Stream.runCollect(client.callToolStream("steps", { steps: 2, every: 5 })))
      assert.deepStrictEqual(events.map((e) => e._tag), ["Progress", "Progress", "Result"])
      assert.deepStrictEqual(events.slice(0, 2).map((e) => e._tag === "Progress" ? e.progress.progress : -1), [1, 2])
      const last = events[2]
      assert.strictEqual(last._tag === "Result" ? textOf(last.result) : "", "done")
      assertWireValid(pair.wire)
    }))

  it.effect("progress restarts the timeout: 2 s timeout, progress every 0.5 s for 6 s (virtual) succeeds", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Steps))
      const { client, pair } = yield* connect(server)
      const call = yield* Effect.forkChild(client.callTool("steps", { steps: 12, every: 500 }, {
        timeout: "2 seconds",
        onProgress: () => Effect.void
      }))
      for (let i = 1; i <= 12; i++) {
        // the step's sleep on the server and the client's timeout timer
        yield* sleepers(2)
        yield* TestClock.adjust(500)
      }
      const exit = yield* settled(call)
      assert.isTrue(Exit.isSuccess(exit), `the call failed: ${Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""}`)
      assert.strictEqual(Exit.isSuccess(exit) ? textOf(exit.value) : "", "done")
      assert.strictEqual(notifications(pair.wire, "client", "notifications/cancelled").length, 0)
      assertWireValid(pair.wire)
    }))

  it.effect("without progress the call times out, is cancelled on the wire and never answered", () =>
    Effect.gen(function*() {
      const interrupted = yield* Deferred.make<void>()
      const Sleepy = McpServer.tool({
        name: "sleepy",
        handler: () =>
          Effect.sleep("60 seconds").pipe(
            Effect.as("woke up"),
            Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
          )
      })
      const server = yield* buildServer(McpServer.register(Sleepy))
      const { client, pair } = yield* connect(server)
      const call = yield* Effect.forkChild(client.callTool("sleepy", {}, { timeout: "20 seconds" }))
      // the handler's sleep and the client's timeout timer
      yield* sleepers(2)
      yield* TestClock.adjust("19999 millis")
      assert.isUndefined(call.pollUnsafe(), "timed out early")
      yield* TestClock.adjust("1 millis")
      const error = failureOf(yield* settled(call))
      assert.instanceOf(error, ProtocolError)
      assert.strictEqual((error as ProtocolError).reason, "Timeout")
      assert.include((error as ProtocolError).message, "20000 ms")
      const [call_] = requests(pair.wire, "client", "tools/call")
      yield* until(() => notifications(pair.wire, "client", "notifications/cancelled").length === 1)
      const [cancel] = notifications(pair.wire, "client", "notifications/cancelled")
      assert.strictEqual((cancel.params as { requestId: unknown }).requestId, call_.id)
      yield* Deferred.await(interrupted)
      yield* client.ping
      assert.isUndefined(responseTo(pair.wire, "server", call_.id))
      assertWireValid(pair.wire)
    }))

  it.effect("maxTimeout is a hard bound that progress does not extend", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Steps))
      const { client, pair } = yield* connect(server)
      // the call would take 15 s; progress every 0.5 s keeps resetting the idle timeout (10 s)
      const call = yield* Effect.forkChild(client.callTool("steps", { steps: 30, every: 500 }, {
        timeout: "10 seconds",
        maxTimeout: "6 seconds",
        onProgress: () => Effect.void
      }))
      for (let i = 1; i <= 11; i++) {
        yield* sleepers(2)
        yield* TestClock.adjust(500)
      }
      yield* sleepers(2)
      yield* TestClock.adjust(499)
      assert.isUndefined(call.pollUnsafe(), "timed out before the hard bound")
      yield* TestClock.adjust(1)
      const error = failureOf(yield* settled(call))
      assert.strictEqual((error as ProtocolError).reason, "Timeout")
      assert.include((error as ProtocolError).message, "6000 ms", "the idle timeout fired, not the hard bound")
      assert.isAbove(notifications(pair.wire, "server", "notifications/progress").length, 3)
      yield* until(() => notifications(pair.wire, "client", "notifications/cancelled").length === 1)
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// cancellation
// ----------------------------------------------------------------------------

describe("McpClient cancellation", () => {
  it.live("interrupting callTool cancels it on the wire, interrupts the handler, and nothing answers it", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const Hang = McpServer.tool({
        name: "hang",
        handler: () =>
          Deferred.succeed(started, undefined).pipe(
            Effect.andThen(Effect.never),
            Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
          )
      })
      const server = yield* buildServer(McpServer.register(Hang))
      const { client, pair } = yield* connect(server)
      const fiber = yield* Effect.forkChild(client.callTool("hang"))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(interrupted)
      const [call] = requests(pair.wire, "client", "tools/call")
      const cancels = notifications(pair.wire, "client", "notifications/cancelled")
      assert.deepStrictEqual(cancels.map((m) => (m.params as { requestId: unknown }).requestId), [call.id])
      yield* client.ping // anything answered before the pong would be on the wire by now
      assert.isUndefined(responseTo(pair.wire, "server", call.id))
      assertWireValid(pair.wire)
    }))

  it.live("cancelling a forward request cancels its pending reverse call on the wire", () =>
    Effect.gen(function*() {
      const samplingStarted = yield* Deferred.make<void>()
      const samplingInterrupted = yield* Deferred.make<void>()
      const server = yield* buildServer(McpServer.register(Ask))
      const { client, pair } = yield* connect(server, {
        client: { sampling: () =>
          Deferred.succeed(samplingStarted, undefined).pipe(
            Effect.andThen(Effect.never),
            Effect.onInterrupt(() => Deferred.succeed(samplingInterrupted, undefined))
          )
         }
      })
      const fiber = yield* Effect.forkChild(client.callTool("ask", { q: "never answered" }))
      yield* Deferred.await(samplingStarted)
      yield* Fiber.interrupt(fiber)
      const [sampling] = requests(pair.wire, "server", "sampling/createMessage")
      yield* waitForWire(pair.wire, (r) =>
        r.from === "server" && r.message.method === "notifications/cancelled" &&
        (r.message.params as { requestId: unknown }).requestId === sampling.id)
      // the client's handler for the reverse call was interrupted in turn
      yield* Deferred.await(samplingInterrupted)
      const [call] = requests(pair.wire, "client", "tools/call")
      yield* client.ping
      assert.isUndefined(responseTo(pair.wire, "server", call.id))
      assert.isUndefined(responseTo(pair.wire, "client", sampling.id))
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// reverse calls
// ----------------------------------------------------------------------------

describe("McpClient reverse calls", () => {
  it.live("sampling with tools and toolChoice when the client declares sampling.tools", () =>
    Effect.gen(function*() {
      const received: Array<McpSchema.CreateMessageRequestParams> = []
      const server = yield* buildServer(McpServer.register(Ask))
      const { client, pair } = yield* connect(server, {
        client: {
          sampling: {
            createMessage: (params) =>
              Effect.sync(() => {
                received.push(params)
                return { role: "assistant", model: "test-model", content: { type: "text", text: "42" }, stopReason: "endTurn" }
              }),
            tools: true
          }
        }
      })
      const result = yield* client.callTool("ask", { q: "answer?", withTools: true })
      assert.strictEqual(textOf(result), "42")
      const [init] = requests(pair.wire, "client", "initialize")
      assert.deepStrictEqual((init.params as { capabilities: unknown }).capabilities, { sampling: { tools: {} } })
      const [sampling] = requests(pair.wire, "server", "sampling/createMessage")
      assert.deepStrictEqual(sampling.params, {
        messages: [userText("answer?")],
        maxTokens: 50,
        tools: [{ name: "lookup", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
        toolChoice: { mode: "auto" }
      })
      assert.deepStrictEqual(received, [sampling.params as McpSchema.CreateMessageRequestParams])
      assert.deepInclude(responseTo(pair.wire, "client", sampling.id), {
        result: { role: "assistant", model: "test-model", content: { type: "text", text: "42" }, stopReason: "endTurn" }
      })
      assertWireValid(pair.wire)
    }))

  it.live("sampling with tools without sampling.tools fails with CapabilityMissing and sends nothing", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Ask))
      const { client, pair } = yield* connect(server, {
        client: { sampling: () =>
          Effect.succeed({ role: "assistant", model: "m", content: { type: "text", text: "plain" } })
         }
      })
      assert.strictEqual(textOf(yield* client.callTool("ask", { q: "q", withTools: true })), "ProtocolError:CapabilityMissing")
      assert.strictEqual(requests(pair.wire, "server", "sampling/createMessage").length, 0)
      // without tools the same client is asked
      assert.strictEqual(textOf(yield* client.callTool("ask", { q: "q" })), "plain")
      assert.strictEqual(requests(pair.wire, "server", "sampling/createMessage").length, 1)
      assertWireValid(pair.wire)
    }))

  it.live("a client without sampling: CapabilityMissing on the server, nothing on the wire", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Ask))
      const { client, pair } = yield* connect(server)
      assert.strictEqual(textOf(yield* client.callTool("ask", { q: "q" })), "ProtocolError:CapabilityMissing")
      assert.strictEqual(sentBy(pair.wire, "server").filter((m) => "method" in m && "id" in m).length, 0)
      assertWireValid(pair.wire)
    }))

  it.live("a server request the client declared but has no handler for is answered -32601 at once", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Ask))
      const { client, pair } = yield* connect(server, { client: { capabilities: { sampling: {} } } })
      const start = Date.now()
      assert.strictEqual(textOf(yield* client.callTool("ask", { q: "q" })), "McpError:-32601")
      assert.isBelow(Date.now() - start, 1000)
      const [sampling] = requests(pair.wire, "server", "sampling/createMessage")
      assert.strictEqual((responseTo(pair.wire, "client", sampling.id)?.error as { code: number }).code, -32601)
      assertWireValid(pair.wire)
    }))

  it.live("form elicitation: the client fills the requested schema's defaults into an accepted answer", () =>
    Effect.gen(function*() {
      const seen = yield* Deferred.make<McpSchema.ElicitResult>()
      const Signup = McpServer.tool({
        name: "signup",
        handler: () =>
          Effect.gen(function*() {
            const ctx = yield* HandlerContext
            const answer = yield* ctx.elicit({
              message: "Your details",
              requestedSchema: {
                type: "object",
                properties: {
                  name: { type: "string", title: "Name" },
                  age: { type: "integer", minimum: 0, default: 30 },
                  newsletter: { type: "boolean", default: true },
                  color: { type: "string", enum: ["red", "green"], default: "green" }
                },
                required: ["name"]
              }
            })
            yield* Deferred.succeed(seen, answer)
            return answer.action
          })
      })
      const server = yield* buildServer(McpServer.register(Signup))
      const { client, pair } = yield* connect(server, {
        client: { elicitation: {
          form: () => Effect.succeed({ action: "accept", content: { name: "Ada", color: "red" } })
        } }
      })
      assert.strictEqual(textOf(yield* client.callTool("signup")), "accept")
      const expected: McpSchema.ElicitResult = { action: "accept", content: { name: "Ada", color: "red", age: 30, newsletter: true } }
      assert.deepStrictEqual(yield* Deferred.await(seen), expected)
      const [init] = requests(pair.wire, "client", "initialize")
      assert.deepStrictEqual((init.params as { capabilities: unknown }).capabilities, { elicitation: { form: {} } })
      const [elicit] = requests(pair.wire, "server", "elicitation/create")
      assert.deepStrictEqual(responseTo(pair.wire, "client", elicit.id)?.result, expected)
      assertWireValid(pair.wire)
    }))

  it.live("URL elicitation reaches the url handler; a form-only client is never asked for one", () =>
    Effect.gen(function*() {
      const Login = McpServer.tool({
        name: "login",
        handler: () =>
          Effect.gen(function*() {
            const ctx = yield* HandlerContext
            const answer = yield* ctx.elicit({
              mode: "url",
              message: "Sign in to continue",
              url: "https://example.com/login?session=1",
              elicitationId: "login-1"
            })
            return answer.action
          }).pipe(Effect.catchTag("ProtocolError", (e) => Effect.succeed(e.reason)))
      })
      const server = yield* buildServer(McpServer.register(Login))
      const urls: Array<McpSchema.ElicitRequestURLParams> = []
      const withUrl = yield* connect(server, {
        client: { elicitation: {
          url: (params) => Effect.sync(() => (urls.push(params), { action: "accept" }))
        } }
      })
      assert.strictEqual(textOf(yield* withUrl.client.callTool("login")), "accept")
      assert.deepStrictEqual(urls, [{
        mode: "url",
        message: "Sign in to continue",
        url: "https://example.com/login?session=1",
        elicitationId: "login-1"
      }])
      const [init] = requests(withUrl.pair.wire, "client", "initialize")
      assert.deepStrictEqual((init.params as { capabilities: unknown }).capabilities, { elicitation: { url: {} } })
      assertWireValid(withUrl.pair.wire)

      const formOnly = yield* connect(server, {
        client: { elicitation: { form: () => Effect.succeed({ action: "decline" }) } }
      })
      assert.strictEqual(textOf(yield* formOnly.client.callTool("login")), "CapabilityMissing")
      assert.strictEqual(requests(formOnly.pair.wire, "server", "elicitation/create").length, 0)
      assertWireValid(formOnly.pair.wire)
    }))

  it.live("ctx.elicit with a Schema publishes its flat JSON Schema and returns the decoded answer, or ElicitationDeclined", () =>
    Effect.gen(function*() {
      const Details = Schema.Struct({
        name: Schema.String.annotate({ title: "Name" }),
        // v3's `greaterThanOrEqualTo(0)` carried this title and description by default; a v4 filter carries none
        age: Schema.optional(
          Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { title: "greaterThanOrEqualTo(0)", description: "a non-negative number" }))
        ),
        color: Schema.Literals(["red", "green"]),
        newsletter: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false)))
      })
      const Signup = McpServer.tool({
        name: "signup",
        handler: () =>
          Effect.gen(function*() {
            const ctx = yield* HandlerContext
            const details: typeof Details.Type = yield* ctx.elicit({ message: "Your details", schema: Details })
            return JSON.stringify(details)
          }).pipe(
            Effect.catchTags({
              ElicitationDeclined: (e) => Effect.succeed(`declined:${e.action}`),
              ProtocolError: (e) => Effect.succeed(`ProtocolError:${e.reason}`)
            })
          )
      })
      const server = yield* buildServer(McpServer.register(Signup))
      const answers: Array<McpSchema.ElicitResult> = [
        { action: "accept", content: { name: "Ada", color: "red", age: 36 } },
        { action: "decline" },
        { action: "cancel" },
        { action: "accept", content: { name: "Ada", color: "blue" } }
      ]
      const { client, pair } = yield* connect(server, {
        client: { elicitation: { form: () => Effect.sync(() => answers.shift()!) } }
      })
      assert.strictEqual(textOf(yield* client.callTool("signup")), JSON.stringify({ name: "Ada", age: 36, color: "red", newsletter: false }))
      assert.strictEqual(textOf(yield* client.callTool("signup")), "declined:decline")
      assert.strictEqual(textOf(yield* client.callTool("signup")), "declined:cancel")
      assert.strictEqual(textOf(yield* client.callTool("signup")), "ProtocolError:InvalidResult")
      const [elicit] = requests(pair.wire, "server", "elicitation/create")
      assert.deepStrictEqual(elicit.params, {
        message: "Your details",
        requestedSchema: {
          type: "object",
          required: ["name", "color"],
          properties: {
            name: { type: "string", title: "Name" },
            age: { type: "integer", description: "a non-negative number", title: "greaterThanOrEqualTo(0)", minimum: 0 },
            color: { type: "string", enum: ["red", "green"] },
            newsletter: { type: "boolean" }
          }
        }
      })
      assertWireValid(pair.wire)
    }))

  it.live("ctx.elicit with a schema a form cannot express is a defect, and nothing is sent", () =>
    Effect.gen(function*() {
      const Bad = McpServer.tool({
        name: "bad",
        handler: () =>
          Effect.gen(function*() {
            const ctx = yield* HandlerContext
            // passes the type-level check (string | number) but is a union, which a form cannot ask for
            return yield* ctx.elicit({ message: "?", schema: Schema.Struct({ x: Schema.Union([Schema.String, Schema.Number]) }) })
          }).pipe(Effect.as("asked"))
      })
      const server = yield* buildServer(McpServer.register(Bad))
      const { client, pair } = yield* connect(server, {
        client: { elicitation: { form: () => Effect.succeed({ action: "decline" }) } },
        quiet: true
      })
      const exit = yield* Effect.exit(client.callTool("bad"))
      assert.strictEqual((failureOf(exit) as { readonly code: number }).code, -32603)
      assert.strictEqual(requests(pair.wire, "server", "elicitation/create").length, 0)
      const typeChecks = (ctx: HandlerContextShape) => {
        // @ts-expect-error a nested object is not a form field
        ctx.elicit({ message: "?", schema: Schema.Struct({ address: Schema.Struct({ city: Schema.String }) }) })
        // @ts-expect-error nor is an array of numbers
        ctx.elicit({ message: "?", schema: Schema.Struct({ ns: Schema.Array(Schema.Number) }) })
        return ctx.elicit({ message: "?", schema: Schema.Struct({ when: Schema.DateFromString, n: Schema.optional(Schema.Number) }) })
      }
      assert.isFunction(typeChecks)
    }))

  it.live("no elicitation on a session negotiated before 2025-06-18, whatever the client declares", () =>
    Effect.gen(function*() {
      const Confirm = McpServer.tool({
        name: "confirm",
        handler: () =>
          Effect.gen(function*() {
            const ctx = yield* HandlerContext
            const answer = yield* ctx.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } })
            return answer.action
          }).pipe(Effect.catchTag("ProtocolError", (e) => Effect.succeed(e.reason)))
      })
      const server = yield* buildServer(McpServer.register(Confirm))
      const { client, pair } = yield* connect(server, {
        client: {
          protocolVersion: "2025-03-26",
          elicitation: { form: () => Effect.succeed({ action: "accept", content: {} }) }
        }
      })
      assert.strictEqual(client.protocolVersion, "2025-03-26")
      assert.strictEqual(textOf(yield* client.callTool("confirm")), "CapabilityMissing")
      assert.strictEqual(requests(pair.wire, "server", "elicitation/create").length, 0)
      assertWireValid(pair.wire)
    }))

  it.live("roots/list answers the current roots; a change sends notifications/roots/list_changed", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(ListRoots))
      const roots = yield* SubscriptionRef.make<ReadonlyArray<McpSchema.Root>>([{ uri: "file:///a", name: "a" }])
      const { client, pair } = yield* connect(server, { client: { roots } })
      // changed right after connecting: the notification is not lost
      yield* SubscriptionRef.set(roots, [{ uri: "file:///a" }, { uri: "file:///b" }])
      yield* waitForWire(pair.wire, (r) => r.message.method === "notifications/roots/list_changed")
      assert.strictEqual(textOf(yield* client.callTool("roots")), "file:///a,file:///b")
      assert.strictEqual(notifications(pair.wire, "client", "notifications/roots/list_changed").length, 1)
      const [init] = requests(pair.wire, "client", "initialize")
      assert.deepStrictEqual((init.params as { capabilities: unknown }).capabilities, { roots: { listChanged: true } })
      assertWireValid(pair.wire)
    }))

  it.live("a handler's services are requirements of McpClient.layer; only the given handlers are declared", () =>
    Effect.gen(function*() {
      class Model extends Context.Service<Model, { readonly answer: string }>()("test/Model") {}
      const server = yield* buildServer(McpServer.register(Ask))
      const pair = yield* serve(server)
      const ClientLive = McpClient.layer({
        era: "2025", name: "needs-model",
        version: "1.0.0",
        sampling: () =>
          Effect.map(Model, (model) => ({ role: "assistant" as const, model: "m", content: { type: "text" as const, text: model.answer } }))
      })
      // the handler's requirement shows in the Layer's type...
      const typed: Layer.Layer<McpClient.McpClient, McpClient.ClientError, Transport.Transport | Model> = ClientLive
      // @ts-expect-error ...so a Layer without Model is not one without requirements
      const _missing: Layer.Layer<McpClient.McpClient, McpClient.ClientError, Transport.Transport> = ClientLive
      const context = yield* Layer.build(typed).pipe(
        Effect.provideService(Transport.Transport, pair.client),
        Effect.provideService(Model, { answer: "from the Model service" })
      )
      const client = Context.get(context, McpClient.McpClient)
      assert.strictEqual(textOf(yield* client.callTool("ask", { q: "q" })), "from the Model service")
      const [init] = requests(pair.wire, "client", "initialize")
      // no elicitation handler, no roots: neither is declared
      assert.deepStrictEqual((init.params as { capabilities: unknown }).capabilities, { sampling: {} })
      assert.deepStrictEqual(McpClient.declaredCapabilities({ name: "n", version: "1", elicitation: {} }), {})
      assertWireValid(pair.wire)
    }))

  it.live("roots that do not change send no notification", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(ListRoots))
      const { client, pair } = yield* connect(server, { client: { roots: [{ uri: "file:///a" }] } })
      yield* settle
      assert.strictEqual(textOf(yield* client.callTool("roots")), "file:///a")
      assert.strictEqual(notifications(pair.wire, "client", "notifications/roots/list_changed").length, 0)
      assertWireValid(pair.wire)
    }))
})

// ----------------------------------------------------------------------------
// structuredContent validation
// ----------------------------------------------------------------------------

/** A tool that publishes an output schema and does not keep to it. */
const liar = (structuredContent: { readonly [key: string]: unknown } | undefined, $id?: string): McpServer.Tool => ({
  _tag: "Tool",
  name: "liar",
  definition: {
    name: "liar",
    inputSchema: { type: "object" },
    outputSchema: { ...($id !== undefined ? { $id } : {}), type: "object", properties: { n: { type: "number" } }, required: ["n"] }
  },
  call: () =>
    Effect.succeed({
      content: [{ type: "text", text: JSON.stringify(structuredContent ?? null) }],
      ...(structuredContent !== undefined ? { structuredContent } : {})
    })
})

describe("McpClient structuredContent validation", () => {
  it.live("structuredContent that does not match the listed outputSchema fails with InvalidResult", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(liar({ n: "not a number" })))
      const { client, pair } = yield* connect(server)
      // not listed yet: nothing to validate against
      assert.deepStrictEqual((yield* client.callTool("liar")).structuredContent, { n: "not a number" })
      yield* client.listToolsAll()
      const error = yield* Effect.flip(client.callTool("liar"))
      assert.instanceOf(error, ProtocolError)
      assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
      assert.include(error.message, "liar")
      // what crossed is the server's answer, unchanged
      const calls = requests(pair.wire, "client", "tools/call")
      assert.deepStrictEqual((responseTo(pair.wire, "server", calls[1].id)?.result as McpSchema.CallToolResult).structuredContent, {
        n: "not a number"
      })
      assertWireValid(pair.wire)
    }))

  it.live("a listed output schema with no structuredContent fails; validation can be turned off", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(liar(undefined)))
      const strict = yield* connect(server)
      yield* strict.client.listToolsAll()
      const error = yield* Effect.flip(strict.client.callTool("liar"))
      assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
      const lax = yield* connect(server, { client: { validateStructuredContent: false } })
      yield* lax.client.listToolsAll()
      assert.isUndefined((yield* lax.client.callTool("liar")).structuredContent)
      assertWireValid(strict.pair.wire)
      assertWireValid(lax.pair.wire)
    }))

  it.live("valid structuredContent passes; validation survives listing an output schema with $id again", () =>
    Effect.gen(function*() {
      const honest = yield* buildServer(McpServer.register(liar({ n: 1 })))
      const a = yield* connect(honest)
      yield* a.client.listToolsAll()
      assert.deepStrictEqual((yield* a.client.callTool("liar")).structuredContent, { n: 1 })
      assertWireValid(a.pair.wire)

      const lying = yield* buildServer(McpServer.register(liar({ n: "x" }, "https://example.com/liar-output")))
      const b = yield* connect(lying)
      yield* b.client.listToolsAll()
      yield* Stream.runDrain(b.client.listTools)
      const error = yield* Effect.flip(b.client.callTool("liar"))
      assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
      assertWireValid(b.pair.wire)
    }))
})

describe("McpClient tools/call result decoding", () => {
  it.live("a result that is not a CallToolResult fails with InvalidResult; nothing is cancelled; the next call works", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      let calls = 0
      yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: ({ request }) =>
          request.method === "initialize"
            ? Effect.succeed({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bare", version: "0" } })
            : Effect.succeed(++calls === 1 ? { content: "not an array" } : { content: [{ type: "text", text: "ok" }] }),
        onNotification: () => Effect.void
      })
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideService(Transport.Transport, pair.client)
      )
      const error = yield* Effect.flip(client.callTool("x", { a: 1 }))
      assert.instanceOf(error, ProtocolError)
      assert.strictEqual((error as ProtocolError).reason, "InvalidResult")
      assert.strictEqual((error as ProtocolError).method, "tools/call")
      assert.include(error.message, "Invalid tools/call result")
      assert.strictEqual(textOf(yield* client.callTool("x")), "ok")
      // with call options too (they go to the engine with the check)
      assert.strictEqual(textOf(yield* client.callTool("x", {}, { timeout: "5 seconds" })), "ok")
      // (the server's first answer is invalid on purpose: the wire is not checked)
      assert.strictEqual(notifications(pair.wire, "client", "notifications/cancelled").length, 0)
    }))
})

// ----------------------------------------------------------------------------
// capabilities, keep-alive
// ----------------------------------------------------------------------------

describe("McpClient capabilities", () => {
  it.live("a method the server did not declare fails with CapabilityMissing before anything is sent", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: ({ request }) =>
          request.method === "initialize"
            ? Effect.succeed({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "bare", version: "0" } })
            : Effect.fail(ErrorResponse.methodNotFound(request.method)),
        onNotification: () => Effect.void
      })
      const client = yield* McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(
        Effect.provideService(Transport.Transport, pair.client)
      )
      const before = pair.wire.length
      const calls: ReadonlyArray<readonly [string, Effect.Effect<unknown, McpClient.ClientError, never>]> = [
        ["tools/call", client.callTool("x")],
        ["tools/list", client.listToolsAll()],
        ["resources/list", client.listResourcesAll()],
        ["resources/read", client.readResource("file:///x")],
        ["resources/subscribe", Effect.scoped(client.subscribe("file:///x"))],
        ["prompts/get", client.getPrompt("p")],
        ["completion/complete", client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } })],
        ["logging/setLevel", client.setLogLevel("debug")]
      ]
      for (const [method, call] of calls) {
        const error = yield* Effect.flip(call)
        assert.instanceOf(error, ProtocolError, method)
        assert.strictEqual((error as ProtocolError).reason, "CapabilityMissing", method)
        assert.strictEqual((error as ProtocolError).method, method)
      }
      assert.strictEqual(pair.wire.length, before, "something was sent")
      yield* client.ping // ping needs no capability
      assertWireValid(pair.wire)
    }))
})

describe("McpClient keep-alive", () => {
  /** Steps virtual time by `step` `n` times, letting the peer answer in between. */
  const tick = (step: Duration.Input, n: number) =>
    Effect.forEach(Array.from({ length: n }), () =>
      Effect.andThen(TestClock.adjust(step), Effect.repeat(Effect.yieldNow, { times: 20 })), { discard: true })

  it.effect("a server that never answers ping is dropped after maxMissed; pending calls fail saying why", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (request) =>
        request.method === "initialize" ? initializeResult(request.id, { tools: {} }) : undefined)
      const client = yield* McpClient.make({
        era: "2025", name: "c",
        version: "1",
        keepAlive: { interval: "30 millis", maxMissed: 2 }
      }).pipe(Effect.provideService(Transport.Transport, pair.client))
      const call = yield* Effect.forkChild(Effect.exit(client.callTool("never-answered")))
      yield* tick("30 millis", 2)
      assert.isUndefined(call.pollUnsafe(), "dropped before maxMissed pings went unanswered")
      yield* tick("30 millis", 2)
      const exit = yield* settled(call).pipe(Effect.flatten)
      const error = failureOf(exit)
      assert.instanceOf(error, ProtocolError)
      assert.strictEqual((error as ProtocolError).reason, "ConnectionClosed")
      assert.include(error!.message, "keep-alive")
      yield* client.closed
      const pings = requests(pair.wire, "client", "ping")
      assert.strictEqual(pings.length, 2)
      // each unanswered ping was cancelled
      assert.deepStrictEqual(
        notifications(pair.wire, "client", "notifications/cancelled").map((m) => (m.params as { requestId: unknown }).requestId),
        pings.map((p) => p.id)
      )
      assertWireValid(pair.wire)
    }))

  it.effect("a server answering ping with -32601 is alive", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* fakePeer(pair.server, (request) =>
        request.method === "initialize"
          ? initializeResult(request.id)
          : request.method === "ping"
          ? JsonRpc.failure(request.id, { code: -32601, message: "Method not found" })
          : undefined)
      const client = yield* McpClient.make({
        era: "2025", name: "c",
        version: "1",
        keepAlive: { interval: "20 millis", maxMissed: 2 }
      }).pipe(Effect.provideService(Transport.Transport, pair.client))
      const closed = yield* Effect.forkChild(client.closed)
      yield* tick("20 millis", 10)
      assert.isUndefined(closed.pollUnsafe(), "the client closed")
      assert.isAtLeast(requests(pair.wire, "client", "ping").length, 3)
      // (the server's first answer is invalid on purpose: the wire is not checked)
      assert.strictEqual(notifications(pair.wire, "client", "notifications/cancelled").length, 0)
    }))
})
