/**
 * `McpTest`: a client of a server Layer over an in-memory transport, in either era, under
 * `it.effect` (a `TestClock`): the era asked is the one spoken on the wire, the client's handlers
 * are reached from a tool through `HandlerContext`, a call is answered with no virtual time
 * passing, a handler's sleep and a call's timeout move only with `TestClock.adjust`, and closing
 * the scope ends the session (its handlers interrupted) and releases the server Layer.
 */
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as TestClock from "effect/testing/TestClock"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError, ProtocolError } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTest from "@effect-mcp/mcp/McpTest"
import type { WireRecord } from "@effect-mcp/mcp/Transport"

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

/** Asks the client's model, then the user, then for its roots: every reverse call a tool has. */
const Interview = McpServer.tool({
  name: "interview",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const sampled = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "your name?" } }],
        maxTokens: 10
      })
      const { color } = yield* ctx.elicit({ message: "Favourite color?", schema: Schema.Struct({ color: Schema.String }) })
      const { roots } = yield* ctx.listRoots()
      const content = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content
      const text = content?.type === "text" ? content.text : "?"
      return `${sampled.model}:${text} ${color} ${roots.map((root) => root.uri).join(",")}`
    })
})

const Nap = McpServer.tool({
  name: "nap",
  parameters: Schema.Struct({ seconds: Schema.Number }),
  handler: ({ seconds }) => Effect.sleep(`${seconds} seconds`).pipe(Effect.as(`slept ${seconds} s`))
})

const ServerLive = McpServer.register(Echo, Interview, Nap).pipe(
  Layer.provideMerge(McpServer.layer({ name: "under-test", version: "1.2.3" }))
)

const methodsSent = (wire: ReadonlyArray<WireRecord>, from: "client" | "server") =>
  wire.flatMap((w) => {
    const message = JSON.parse(w.json) as { readonly method?: unknown }
    return w.from === from && typeof message.method === "string" ? [message.method] : []
  })

/** Yields `n` times, letting the other fibers (both ends of the memory pair) run. */
const turns = (n: number) => Effect.repeat(Effect.yieldNow, { times: n })

const handlers = {
  sampling: () => Effect.succeed({ role: "assistant" as const, content: { type: "text" as const, text: "Ada" }, model: "fake" }),
  elicitation: { form: () => Effect.succeed({ action: "accept" as const, content: { color: "teal" } }) },
  roots: [{ uri: "file:///work", name: "work" }]
}


/** A tool that signals `started`, then waits forever; `interrupted` completes when it is interrupted. */
const hangingTool = (started: Deferred.Deferred<void>, interrupted: Deferred.Deferred<void>) =>
  McpServer.tool({
    name: "hang",
    handler: () =>
      Deferred.succeed(started, undefined).pipe(
        Effect.andThen(Effect.never),
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
  })
describe("McpTest.client", () => {
  for (const era of ["2025", "2026"] as const) {
    it.effect(`${era}: speaks the era asked, and a tool call is answered with no virtual time passing`, () =>
      Effect.gen(function*() {
        const wire: Array<WireRecord> = []
        const start = yield* Clock.currentTimeMillis
        const client = yield* McpTest.client(ServerLive, { era, onWire: (record) => wire.push(record) })
        assert.strictEqual(client.era, era)
        assert.strictEqual(client.protocolVersion, era === "2025" ? "2025-11-25" : "2026-07-28")
        assert.deepStrictEqual(client.serverInfo, { name: "under-test", version: "1.2.3" })
        const result = yield* client.callTool("echo", { text: "hi" })
        assert.deepStrictEqual(result.content, [{ type: "text", text: "hi" }])
        // no TestClock.adjust was needed: the virtual clock never moved
        assert.strictEqual(yield* Clock.currentTimeMillis, start)
        // what crossed: a session opened by initialize (2025), or server/discover and no initialize (2026)
        const sent = methodsSent(wire, "client")
        assert.deepStrictEqual(
          sent,
          era === "2025"
            ? ["initialize", "notifications/initialized", "tools/call"]
            : ["server/discover", "tools/call"]
        )
        const call = wire.find((w) => w.from === "client" && w.json.includes(`"tools/call"`))
        assert.strictEqual(call?.json.includes("io.modelcontextprotocol/protocolVersion"), era === "2026")
      }))

    it.effect(`${era}: the client's sampling, elicitation and roots handlers answer a tool's reverse calls`, () =>
      Effect.gen(function*() {
        const wire: Array<WireRecord> = []
        const asked = yield* Ref.make<ReadonlyArray<string>>([])
        const client = yield* McpTest.client(ServerLive, {
          era,
          onWire: (record) => wire.push(record),
          sampling: (params) =>
            Effect.as(Ref.update(asked, (all) => [...all, `sample ${params.maxTokens}`]), {
              role: "assistant" as const,
              content: { type: "text" as const, text: "Ada" },
              model: "fake"
            }),
          elicitation: {
            form: (params) =>
              Effect.as(Ref.update(asked, (all) => [...all, `elicit ${params.message}`]), {
                action: "accept" as const,
                content: { color: "teal" }
              })
          },
          roots: [{ uri: "file:///work", name: "work" }]
        })
        const result = yield* client.callTool("interview")
        assert.deepStrictEqual(result.content, [{ type: "text", text: "fake:Ada teal file:///work" }])
        assert.deepStrictEqual(yield* Ref.get(asked), ["sample 10", "elicit Favourite color?"])
        if (era === "2025") {
          // server→client requests on the session
          assert.deepStrictEqual(methodsSent(wire, "server"), ["sampling/createMessage", "elicitation/create", "roots/list"])
        } else {
          // 2026: no server→client request; the call is retried with each answer (one round per question)
          assert.deepStrictEqual(methodsSent(wire, "server"), [])
          assert.deepStrictEqual(methodsSent(wire, "client"), ["server/discover", "tools/call", "tools/call", "tools/call", "tools/call"])
        }
      }))

    it.effect(`${era}: a handler's Effect.sleep is driven by TestClock.adjust`, () =>
      Effect.gen(function*() {
        const client = yield* McpTest.client(ServerLive, { era })
        const call = yield* Effect.forkChild(client.callTool("nap", { seconds: 10 }))
        yield* turns(50)
        yield* TestClock.adjust("9 seconds")
        yield* turns(50)
        assert.isUndefined(call.pollUnsafe(), "the nap ended before 10 s of virtual time")
        yield* TestClock.adjust("1 second")
        const result = yield* Fiber.join(call)
        assert.deepStrictEqual(result.content, [{ type: "text", text: "slept 10 s" }])
      }))

    it.effect(`${era}: a call's timeout fires on virtual time, cancels the call and interrupts the handler`, () =>
      Effect.gen(function*() {
        const wire: Array<WireRecord> = []
        const interrupted = yield* Deferred.make<void>()
        const started = yield* Deferred.make<void>()
        const Hang = hangingTool(started, interrupted)
        const Live = McpServer.register(Hang).pipe(Layer.provideMerge(McpServer.layer({ name: "hang", version: "1" })))
        const client = yield* McpTest.client(Live, { era, onWire: (record) => wire.push(record) })
        const call = yield* Effect.forkChild(client.callTool("hang", {}, { timeout: "5 seconds" }))
        yield* Deferred.await(started)
        yield* TestClock.adjust("5 seconds")
        const error = yield* Effect.flip(Fiber.join(call))
        assert.instanceOf(error, ProtocolError)
        assert.strictEqual((error as ProtocolError).reason, "Timeout")
        yield* Deferred.await(interrupted)
        assert.include(methodsSent(wire, "client"), "notifications/cancelled")
      }))

    it.effect(`${era}: closing the scope ends the session, interrupts its handlers and releases the server Layer`, () =>
      Effect.gen(function*() {
        const started = yield* Deferred.make<void>()
        const interrupted = yield* Deferred.make<void>()
        const released = yield* Deferred.make<void>()
        const Hang = hangingTool(started, interrupted)
        // the definition built here, outside the test client's scope, to see its sessions after
        const definition = Context.get(
          yield* Layer.build(McpServer.register(Hang).pipe(Layer.provideMerge(McpServer.layer({ name: "hang", version: "1" })))),
          McpServer.McpServer
        )
        const ServerLayer = Layer.succeed(McpServer.McpServer, definition).pipe(
          Layer.merge(Layer.effectDiscard(Effect.addFinalizer(() => Deferred.succeed(released, undefined))))
        )
        const scope = yield* Scope.make()
        const client = yield* McpTest.client(ServerLayer, { era }).pipe(Scope.provide(scope))
        const call = yield* Effect.forkChild(client.callTool("hang"))
        yield* Deferred.await(started)
        assert.strictEqual((yield* definition.sessions).length, 1)
        assert.isTrue(Option.isNone(yield* Deferred.poll(released)), "the server Layer was released early")

        yield* Scope.close(scope, Exit.void)
        yield* Deferred.await(interrupted)
        yield* Deferred.await(released)
        assert.strictEqual((yield* definition.sessions).length, 0)
        const exit = yield* Fiber.await(call)
        assert.isTrue(Exit.isFailure(exit), "the call outlived its client")
      }))
  }

  it.effect("by default (auto) a server of both eras is spoken to in 2026, a 2025-only one in 2025", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* McpTest.client(ServerLive)).era, "2026")
      const Only2025 = McpServer.register(Echo).pipe(
        Layer.provideMerge(McpServer.layer({ name: "old", version: "1", eras: "2025" }))
      )
      const client = yield* McpTest.client(Only2025)
      assert.strictEqual(client.era, "2025")
      assert.deepStrictEqual((yield* client.callTool("echo", { text: "x" })).content, [{ type: "text", text: "x" }])
    }))

  it.effect("an era asked is kept: no fallback to a server of the other era only", () =>
    Effect.gen(function*() {
      const only = (eras: "2025" | "2026") =>
        McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "one-era", version: "1", eras })))
      // pinned to 2026, a 2025-only server's -32601 to server/discover is no reason to initialize
      const wire: Array<WireRecord> = []
      const pinned2026 = yield* McpTest.client(only("2025"), { era: "2026", onWire: (record) => wire.push(record) })
      assert.strictEqual(pinned2026.era, "2026")
      yield* pinned2026.callTool("echo", { text: "x" })
      assert.deepStrictEqual(methodsSent(wire, "client"), ["server/discover", "tools/call"])
      // pinned to 2025, a 2026-only server's refusal of initialize fails the connection
      const pinned2025 = yield* Effect.flip(McpTest.client(only("2026"), { era: "2025" }))
      assert.instanceOf(pinned2025, McpError)
      assert.strictEqual((pinned2025 as McpError).code, -32022)
      assert.strictEqual((pinned2025 as McpError).method, "initialize")
    }))

  it.effect("the client declares the capabilities of the handlers given, and its clientInfo", () =>
    Effect.gen(function*() {
      const Whoami = McpServer.tool({
        name: "whoami",
        handler: () =>
          Effect.map(HandlerContext, (ctx) =>
            JSON.stringify({ info: ctx.session.clientInfo(), capabilities: ctx.session.clientCapabilities() }))
      })
      const Live = McpServer.register(Whoami).pipe(Layer.provideMerge(McpServer.layer({ name: "who", version: "1" })))
      const ask = (client: McpClient.McpClientShape) =>
        Effect.map(client.callTool("whoami"), (r) => JSON.parse(r.content[0]?.type === "text" ? r.content[0].text : "{}"))
      for (const era of ["2025", "2026"] as const) {
        const bare = yield* ask(yield* McpTest.client(Live, { era }))
        assert.deepStrictEqual(bare, { info: { name: "mcp-test", version: "0.0.0" }, capabilities: {} }, era)
        const full = yield* ask(
          yield* McpTest.client(Live, {
            era,
            name: "my-host",
            version: "2.0.0",
            capabilities: { experimental: { "io.example/x": {} } },
            ...handlers
          })
        )
        assert.deepStrictEqual(full.info, { name: "my-host", version: "2.0.0" }, era)
        assert.deepStrictEqual(Object.keys(full.capabilities).sort(), ["elicitation", "experimental", "roots", "sampling"], era)
      }
    }))
})

/** A service a sampling handler needs: a requirement of the test client. */
class Model extends Context.Service<Model, { readonly name: string }>()("McpTest.test/Model") {}

const samplingWithModel = () =>
  Effect.gen(function*() {
    const model = yield* Model
    return { role: "assistant" as const, content: { type: "text" as const, text: "hi" }, model: model.name }
  })

describe("McpTest types", () => {
  it("the server Layer's requirements and the handlers' are the client's; no handler, none", () => {
    expectTypeOf(McpTest.client(ServerLive)).toEqualTypeOf<
      Effect.Effect<McpClient.McpClientShape, McpClient.ClientError, Scope.Scope>
    >()
    expectTypeOf(McpTest.client(ServerLive, { era: "2025" })).toEqualTypeOf<
      Effect.Effect<McpClient.McpClientShape, McpClient.ClientError, Scope.Scope>
    >()
    expectTypeOf(McpTest.client(ServerLive, { sampling: samplingWithModel })).toEqualTypeOf<
      Effect.Effect<McpClient.McpClientShape, McpClient.ClientError, Model | Scope.Scope>
    >()
    const NeedsModel = Layer.effectDiscard(Effect.asVoid(Effect.service(Model))).pipe(Layer.provideMerge(ServerLive))
    expectTypeOf(McpTest.layer(NeedsModel)).toEqualTypeOf<Layer.Layer<McpClient.McpClient, McpClient.ClientError, Model>>()
    expectTypeOf(McpTest.layer(ServerLive, { sampling: samplingWithModel })).toEqualTypeOf<
      Layer.Layer<McpClient.McpClient, McpClient.ClientError, Model>
    >()
  })
})

describe("McpTest.layer", () => {
  it.layer(McpTest.layer(ServerLive, { era: "2025", ...handlers }))("provides McpClient", (it) => {
    it.effect("a client of the server, its handlers answering", () =>
      Effect.gen(function*() {
        const client = yield* McpClient.McpClient
        assert.strictEqual(client.era, "2025")
        assert.deepStrictEqual((yield* client.listToolsAll()).map((tool) => tool.name), ["echo", "interview", "nap"])
        const result = yield* client.callTool("interview")
        assert.deepStrictEqual(result.content, [{ type: "text", text: "fake:Ada teal file:///work" }])
      }))
  })
})
