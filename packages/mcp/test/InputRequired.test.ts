/**
 * Multi-round-trip requests (SEP-2322) on the 2026-07-28 path, over the
 * in-memory transport with a raw client engine: the same handlers that make
 * reverse calls on a 2025 session answer `InputRequiredResult`, complete on
 * the retry, and refuse a bad `requestState` with −32602. Every 2026 message
 * is validated against the official 2026-07-28 JSON Schema.
 */
import { assert, describe, it } from "@effect/vitest"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import Ajv2020Module from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as TestClock from "effect/testing/TestClock"
import { readFileSync } from "node:fs"
import { assertValid2026 } from "./utils/wire2026.js"

// -----------------------------------------------------------------------------
// the 2026 JSON Schema
// -----------------------------------------------------------------------------

const spec = JSON.parse(readFileSync(new URL("./fixtures/spec/2026-07-28/schema.json", import.meta.url), "utf8"))
const ajv = new Ajv2020Module.default({ strict: false, allErrors: true })
addFormatsModule.default(ajv)
ajv.addSchema(spec, "mcp")
const specErrors = (def: string, value: unknown): string | null => {
  const validate = ajv.getSchema(`mcp#/$defs/${def}`)!
  return validate(value) ? null : ajv.errorsText(validate.errors)
}

type Json = { readonly [key: string]: any }

/** Every client request and server answer on the wire, checked against the 2026 schema. */
const assertWire2026 = (wire: ReadonlyArray<Transport.WireRecord>, options: { readonly requests?: boolean } = {}) => {
  const methods = new Map<unknown, string>()
  for (const record of wire) {
    const message = JSON.parse(record.json) as Json
    if (record.from === "client" && typeof message.method === "string" && message.id !== undefined) {
      methods.set(message.id, message.method)
      const def = ({ "tools/call": "CallToolRequest", "prompts/get": "GetPromptRequest", "resources/read": "ReadResourceRequest" } as Json)[message.method]
      if (def !== undefined && options.requests !== false) assert.isNull(specErrors(def, message), record.json)
    }
    if (record.from === "server") {
      assertValid2026(message, methods.get(message.id))
      for (const request of Object.values(message.result?.inputRequests ?? {}) as Array<Json>) {
        assert.isNull(specErrors("InputRequest", request), JSON.stringify(request))
      }
    }
  }
}

// -----------------------------------------------------------------------------
// the server under test
// -----------------------------------------------------------------------------

const ALL = { elicitation: {}, sampling: {}, roots: {} }
const envelope = (capabilities: Json = ALL) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": capabilities,
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" }
})

const Name = Schema.Struct({ name: Schema.String })
const Color = Schema.Struct({ color: Schema.String })

const sampleText = (result: McpSchema.CreateMessageResult) => {
  const content = Array.isArray(result.content) ? result.content[0] : result.content
  return content?.type === "text" ? content.text : "?"
}

/** Runs of each tool's handler, to see what ran again. */
const runs = new Map<string, number>()
const counted = (name: string) => Effect.sync(() => runs.set(name, (runs.get(name) ?? 0) + 1))

const askName = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.elicit({ message: "What is your name?", schema: Name }, { inputKey: "user_name" }))
const askColor = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.elicit({ message: "What is your favourite colour?", schema: Color }))
const askModel = Effect.flatMap(HandlerContext, (ctx) =>
  ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 20 }))
const askRoots = Effect.flatMap(HandlerContext, (ctx) => ctx.listRoots())

/** Interruptions seen by `interruptible`'s forked child and its own finalizer. */
const interruptions = { child: 0, handler: 0, forked: 0 }
/** Set by `interruptible` once its child runs; a `gate`, when set, holds the handler before it asks. */
const interruptible = { started: undefined as Deferred.Deferred<void> | undefined, gate: undefined as Deferred.Deferred<void> | undefined }

const tools = [
  McpServer.tool({
    name: "greet",
    handler: () =>
      Effect.gen(function*() {
        yield* counted("greet")
        const { name } = yield* askName
        return `Hello, ${name}!`
      })
  }),
  McpServer.tool({
    name: "parallel",
    parameters: Schema.Struct({ tag: Schema.optional(Schema.String) }),
    handler: () =>
      Effect.gen(function*() {
        yield* counted("parallel")
        // the roots branch yields before it asks: still the same round
        const laterRoots = Effect.andThen(Effect.repeat(Effect.yieldNow, { times: 4 }), askRoots)
        const [{ name }, sample, roots] = yield* Effect.all([askName, askModel, laterRoots], { concurrency: "unbounded" })
        return `${name} / ${sampleText(sample)} / ${roots.roots.map((r) => r.uri).join(",")}`
      })
  }),
  McpServer.tool({
    name: "sequential",
    handler: () =>
      Effect.gen(function*() {
        yield* counted("sequential")
        const { name } = yield* askName
        const { color } = yield* askColor
        const sample = yield* askModel
        return `${name} likes ${color}; the model says ${sampleText(sample)}`
      })
  }),
  McpServer.tool({
    name: "optional_elicit",
    handler: () =>
      Effect.gen(function*() {
        const [sample, name] = yield* Effect.all([askModel, Effect.result(askName)], { concurrency: "unbounded" })
        return `${sampleText(sample)} / ${Result.isSuccess(name) ? name.success.name : `no form (${name.failure._tag})`}`
      })
  }),
  McpServer.tool({
    name: "interruptible",
    handler: () =>
      Effect.gen(function*() {
        const started = yield* Deferred.make<void>()
        yield* Effect.forkScoped(
          Effect.andThen(Deferred.succeed(started, undefined), Effect.never).pipe(
            Effect.onInterrupt(() => Effect.sync(() => interruptions.child++))
          )
        )
        yield* Deferred.await(started)
        // a plain fork: a child of the request's fiber, ended with the request (started at once, as
        // v3's fork was: v4's `forkChild` defers the start, and a child the request's end interrupts
        // before it ran never sees its interruption)
        yield* Effect.forkChild(Effect.onInterrupt(Effect.never, () => Effect.sync(() => interruptions.forked++)), {
          startImmediately: true
        })
        if (interruptible.started !== undefined) yield* Deferred.succeed(interruptible.started, undefined)
        if (interruptible.gate !== undefined) yield* Deferred.await(interruptible.gate)
        const { name } = yield* askName
        return name
      }).pipe(Effect.scoped, Effect.onInterrupt(() => Effect.sync(() => interruptions.handler++)))
  }),
  McpServer.tool({
    name: "not_needed",
    handler: () =>
      Effect.raceFirst(
        Effect.map(askName, ({ name }) => name),
        Effect.andThen(Effect.yieldNow, Effect.succeed("no question needed"))
      )
  }),
  McpServer.tool({
    name: "branch_fails",
    handler: () =>
      Effect.map(
        Effect.all([askName, Effect.andThen(Effect.yieldNow, Effect.fail(new Error("the other branch failed")))], {
          concurrency: "unbounded"
        }),
        () => "unreachable"
      )
  }),
  McpServer.tool({
    name: "declined",
    handler: () =>
      askName.pipe(Effect.map(({ name }) => name), Effect.catchTag("ElicitationDeclined", (e) => Effect.succeed(`declined: ${e.action}`)))
  })
]

const prompt = McpServer.prompt({
  name: "with_context",
  content: () => Effect.map(askName, ({ name }) => `Write a poem for ${name}`)
})
const resource = McpServer.resource({
  uri: "roots://first",
  name: "first root",
  content: Effect.map(askRoots, ({ roots }) => roots[0]?.uri ?? "none")
})

const KEY_A = "a".repeat(32)
const KEY_B = "b".repeat(32)

/** The server; with `config`, its requestState from it (`McpServer.layerConfig`). */
const serverLayer = (options: Partial<McpServer.ServerOptions> = {}, config?: ConfigProvider.ConfigProvider) =>
  McpServer.register(...tools, prompt, resource).pipe(
    Layer.provideMerge(
      config === undefined
        ? McpServer.layer({ name: "mrtr", version: "1.0.0", requestState: { keys: [KEY_A] }, ...options })
        : McpServer.layerConfig({ name: "mrtr", version: "1.0.0", ...options }).pipe(
          Layer.orDie,
          Layer.provide(ConfigProvider.layer(config))
        )
    )
  )

interface Peer {
  readonly request: (method: string, params: Json) => Effect.Effect<Json, McpError | unknown>
  readonly wire: ReadonlyArray<Transport.WireRecord>
  readonly client: Protocol.Protocol
}

/** A server serving one in-memory session, and a raw client engine on its other side. */
const connect = (
  options: Partial<McpServer.ServerOptions> = {},
  info?: Transport.TransportInfo,
  config?: ConfigProvider.ConfigProvider
): Effect.Effect<Peer, never, Scope.Scope> => Effect.map(connectWithServer(options, info, config), ({ peer }) => peer)

/** The server's log messages, as text, and a layer that collects them. */
const collectLogs = () => {
  const logs: Array<string> = []
  const logger = Logger.layer([
    Logger.make(({ message }) => {
      logs.push(String(Array.isArray(message) ? message.join(" ") : message))
    })
  ])
  return { logs, logger }
}

/** `connect`, with the server. */
const connectWithServer = (
  options: Partial<McpServer.ServerOptions> = {},
  info?: Transport.TransportInfo,
  config?: ConfigProvider.ConfigProvider
): Effect.Effect<{ readonly peer: Peer; readonly server: McpServer.McpServerShape }, never, Scope.Scope> =>
  Effect.gen(function*() {
    const server = Context.get(yield* Layer.build(serverLayer(options, config)), McpServer.McpServer)
    const pair = yield* Transport.makeMemoryPair()
    yield* server.serve(info === undefined ? pair.server : { ...pair.server, info }).pipe(Effect.forkScoped)
    const client = yield* Protocol.make(pair.client, {
      side: "client",
      onRequest: () => Effect.die("a 2026 server sends no requests"),
      onNotification: () => Effect.void
    })
    const peer: Peer = {
      client,
      wire: pair.wire,
      request: (method, params) => client.request(method, params as JsonRpc.Params) as Effect.Effect<Json, McpError>
    }
    return { peer, server }
  })

const call = (peer: Peer, name: string, extra: Json = {}, capabilities?: Json) =>
  peer.request("tools/call", { name, arguments: {}, ...extra, _meta: envelope(capabilities) })

const accept = (content: Json) => ({ action: "accept", content })
const modelSays = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "m", stopReason: "endTurn" })
const rootsOf = (...uris: Array<string>) => ({ roots: uris.map((uri) => ({ uri, name: uri })) })

/** Answers every input request of a result the way a client would. */
const answerAll = (result: Json, name = "Ada"): Json =>
  Object.fromEntries(
    Object.entries(result.inputRequests as Json).map(([key, request]) => [
      key,
      request.method === "elicitation/create"
        ? accept(String(request.params.message).includes("colour") ? { color: "teal" } : { name })
        : request.method === "sampling/createMessage"
        ? modelSays("hi")
        : rootsOf("file:///work")
    ])
  )

const errorOf = <A>(effect: Effect.Effect<A, unknown>) =>
  Effect.flip(effect).pipe(Effect.map((e) => e as McpError))

const textOf = (result: Json) => result.content[0].text as string

// -----------------------------------------------------------------------------

describe("InputRequiredResult on 2026-07-28", () => {
  it.effect("a reverse call becomes an input request; the retry completes the call with the answer", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const first = yield* call(peer, "greet")
      assert.strictEqual(first.resultType, "input_required")
      assert.deepStrictEqual(first.inputRequests, {
        user_name: {
          method: "elicitation/create",
          params: {
            message: "What is your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] }
          }
        }
      })
      assert.isString(first.requestState)
      const second = yield* call(peer, "greet", {
        inputResponses: { user_name: accept({ name: "Ada" }) },
        requestState: first.requestState
      })
      assert.strictEqual(textOf(second), "Hello, Ada!")
      assert.strictEqual(second.resultType, "complete")
      assertWire2026(peer.wire)
      // no server-to-client request crossed the wire
      assert.isFalse(peer.wire.some((w) => w.from === "server" && JSON.parse(w.json).method !== undefined))
    }))

  it.effect("parallel reverse calls are one round with every input request; the handler runs twice", () =>
    Effect.gen(function*() {
      runs.set("parallel", 0)
      const peer = yield* connect()
      const first = yield* call(peer, "parallel")
      const keys = Object.keys(first.inputRequests)
      assert.strictEqual(keys.length, 3)
      assert.deepStrictEqual(
        Object.values(first.inputRequests as Json).map((r) => r.method).sort(),
        ["elicitation/create", "roots/list", "sampling/createMessage"]
      )
      assert.include(keys, "user_name")
      const second = yield* call(peer, "parallel", { inputResponses: answerAll(first), requestState: first.requestState })
      assert.strictEqual(textOf(second), "Ada / hi / file:///work")
      assert.strictEqual(runs.get("parallel"), 2)
      assertWire2026(peer.wire)
    }))

  it.effect("sequential reverse calls are one round each; earlier answers travel in the state", () =>
    Effect.gen(function*() {
      runs.set("sequential", 0)
      const peer = yield* connect()
      const asked: Array<Array<string>> = []
      let result = yield* call(peer, "sequential")
      const states = new Set<string>()
      while (result.resultType === "input_required") {
        asked.push(Object.values(result.inputRequests as Json).map((r) => r.method))
        states.add(result.requestState)
        // only this round's answers are sent: the earlier ones come back from the state
        result = yield* call(peer, "sequential", { inputResponses: answerAll(result), requestState: result.requestState })
      }
      assert.deepStrictEqual(asked, [["elicitation/create"], ["elicitation/create"], ["sampling/createMessage"]])
      assert.strictEqual(states.size, 3, "every round has a state of its own")
      assert.strictEqual(textOf(result), "Ada likes teal; the model says hi")
      assert.strictEqual(runs.get("sequential"), 4)
      assertWire2026(peer.wire)
    }))

  it.effect("a retry without a needed response is asked again; one without the state starts over", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const first = yield* call(peer, "sequential")
      const second = yield* call(peer, "sequential", { inputResponses: answerAll(first), requestState: first.requestState })
      // the colour is not answered: asked again, with the name still known
      const again = yield* call(peer, "sequential", { inputResponses: {}, requestState: second.requestState })
      assert.strictEqual(again.resultType, "input_required")
      assert.deepStrictEqual(Object.keys(again.inputRequests), Object.keys(second.inputRequests))
      // a wrong key is no answer either
      const wrong = yield* call(peer, "greet", { inputResponses: { wrong_key: accept({ data: "x" }) } })
      assert.deepStrictEqual(Object.keys(wrong.inputRequests), ["user_name"])
      // the state of round 2 still completes the call once the colour comes
      const done = yield* call(peer, "sequential", { inputResponses: answerAll(again), requestState: again.requestState })
      const last = yield* call(peer, "sequential", { inputResponses: answerAll(done), requestState: done.requestState })
      assert.strictEqual(textOf(last), "Ada likes teal; the model says hi")
      assertWire2026(peer.wire)
    }))

  it.effect("extra responses are ignored; a first request may bring its answers without a state", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const result = yield* call(peer, "greet", {
        inputResponses: {
          user_name: accept({ name: "Ada" }),
          unknown_extra_key: accept({ foo: "bar" }),
          another: 12345
        }
      })
      assert.strictEqual(textOf(result), "Hello, Ada!")
      const first = yield* call(peer, "greet")
      const second = yield* call(peer, "greet", {
        inputResponses: { user_name: accept({ name: "Bo" }), stray: { nonsense: true } },
        requestState: first.requestState
      })
      assert.strictEqual(textOf(second), "Hello, Bo!")
    }))

  it.effect("invalid input responses get -32602, never a complete result", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const invalid = yield* errorOf(call(peer, "greet", { inputResponses: { user_name: 12345 } }))
      assert.strictEqual(invalid.code, -32602)
      assert.include(invalid.message, "user_name")
      const notAnObject = yield* errorOf(call(peer, "greet", { inputResponses: null }))
      assert.strictEqual(notAnObject.code, -32602)
      const first = yield* call(peer, "greet")
      const wrongShape = yield* errorOf(
        call(peer, "greet", { inputResponses: { user_name: { action: "maybe" } }, requestState: first.requestState })
      )
      assert.strictEqual(wrongShape.code, -32602)
    }))

  it.effect("a handler that ends on its own while a question is open ends as it ended", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const done = yield* call(peer, "not_needed")
      assert.strictEqual(done.resultType, "complete")
      assert.strictEqual(textOf(done), "no question needed")
      const failed = yield* call(peer, "branch_fails")
      assert.strictEqual(failed.resultType, "complete")
      assert.isTrue(failed.isError)
      assert.include(textOf(failed), "the other branch failed")
      assertWire2026(peer.wire)
    }))

  it.effect("a declined form reaches the handler as on 2025", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const first = yield* call(peer, "declined")
      const second = yield* call(peer, "declined", {
        inputResponses: { user_name: { action: "decline" } },
        requestState: first.requestState
      })
      assert.strictEqual(textOf(second), "declined: decline")
    }))

  it.effect("only declared capabilities are asked for; an undeclared one fails the reverse call as on 2025", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const first = yield* call(peer, "optional_elicit", {}, { sampling: {} })
      assert.deepStrictEqual(Object.values(first.inputRequests as Json).map((r) => r.method), ["sampling/createMessage"])
      const second = yield* call(
        peer,
        "optional_elicit",
        { inputResponses: answerAll(first), requestState: first.requestState },
        { sampling: {} }
      )
      assert.match(textOf(second), /^hi \/ no form \(ProtocolError\)$/)
      // nothing declared: the reverse call fails; uncaught, the request is answered -32021
      const none = yield* errorOf(call(peer, "greet", {}, {}))
      assert.strictEqual(none.code, -32021)
      assert.deepStrictEqual(none.data, { requiredCapabilities: { elicitation: {} } })
      assertWire2026(peer.wire)
    }))

  it.effect("prompts/get and resources/read answer InputRequiredResult too; other methods never", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const first = yield* peer.request("prompts/get", { name: "with_context", _meta: envelope() })
      assert.strictEqual(first.resultType, "input_required")
      const prompt = yield* peer.request("prompts/get", {
        name: "with_context",
        inputResponses: answerAll(first),
        requestState: first.requestState,
        _meta: envelope()
      })
      assert.deepStrictEqual(prompt.messages, [{ role: "user", content: { type: "text", text: "Write a poem for Ada" } }])
      const read = yield* peer.request("resources/read", { uri: "roots://first", _meta: envelope() })
      assert.deepStrictEqual(Object.values(read.inputRequests as Json), [{ method: "roots/list" }])
      const content = yield* peer.request("resources/read", {
        uri: "roots://first",
        inputResponses: answerAll(read),
        requestState: read.requestState,
        _meta: envelope()
      })
      assert.deepStrictEqual(content.contents, [{ uri: "roots://first", text: "file:///work" }])
      const list = yield* peer.request("tools/list", { _meta: envelope() })
      assert.strictEqual(list.resultType, "complete")
      assertWire2026(peer.wire)
    }))
})

describe("requestState", () => {
  it.effect("a tampered state is refused with -32602", () =>
    Effect.gen(function*() {
      const peer = yield* connect()
      const first = yield* call(peer, "greet")
      const state = first.requestState as string
      const [body, mac] = state.split(".")
      const payload = JSON.parse(Buffer.from(body!, "base64url").toString())
      payload.p.a.user_name = ["x", accept({ name: "Mallory" })]
      const forged = `${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`
      for (const bad of [`${state}-TAMPERED`, forged, "garbage", `${body}.`, 42]) {
        const error = yield* errorOf(call(peer, "greet", { inputResponses: answerAll(first), requestState: bad }))
        assert.strictEqual(error.code, -32602, String(bad))
        assert.include(error.message, "requestState")
      }
      // the bad requests are bad on purpose: only the answers are checked
      assertWire2026(peer.wire, { requests: false })
    }))

  it.effect("a state is bound to its tool, its arguments and its caller", () =>
    Effect.gen(function*() {
      let subject = "alice"
      const principal = () => ({
        subject,
        clientId: "c",
        issuer: "https://as",
        scopes: [],
        audience: [],
        expiresAt: undefined,
        claims: {}
      })
      const peer = yield* connect({}, { principal })
      const first = yield* call(peer, "parallel", { arguments: { tag: "one" } })
      const retry = (name: string, args: Json) =>
        errorOf(call(peer, name, { arguments: args, inputResponses: answerAll(first), requestState: first.requestState }))
      assert.include((yield* retry("greet", {})).message, "another request")
      assert.include((yield* retry("parallel", { tag: "two" })).message, "another request")
      subject = "bob"
      assert.include((yield* retry("parallel", { tag: "one" })).message, "another request")
      subject = "alice"
      const done = yield* call(peer, "parallel", {
        arguments: { tag: "one" },
        inputResponses: answerAll(first),
        requestState: first.requestState
      })
      assert.strictEqual(textOf(done), "Ada / hi / file:///work")
      // and to the method: a tool's state is no prompt's
      const prompt = yield* errorOf(peer.request("prompts/get", {
        name: "parallel",
        requestState: first.requestState,
        _meta: envelope()
      }))
      assert.strictEqual(prompt.code, -32602)
    }))

  it.effect("a state expires after its ttl", () =>
    Effect.gen(function*() {
      const peer = yield* connect({ requestState: { keys: [KEY_A], ttl: "5 minutes" } })
      const first = yield* call(peer, "greet")
      yield* TestClock.adjust("4 minutes")
      const inTime = yield* call(peer, "greet", { inputResponses: answerAll(first), requestState: first.requestState })
      assert.strictEqual(textOf(inTime), "Hello, Ada!")
      yield* TestClock.adjust("1 minute")
      const late = yield* errorOf(call(peer, "greet", { inputResponses: answerAll(first), requestState: first.requestState }))
      assert.strictEqual(late.code, -32602)
      assert.include(late.message, "expired")
    }))

  it.effect("another instance with the same keys takes the retry; keys rotate newest first", () =>
    Effect.gen(function*() {
      const one = yield* connect({ requestState: { keys: [KEY_A] } })
      const first = yield* call(one, "greet")
      const retry = (peer: Peer) => call(peer, "greet", { inputResponses: answerAll(first), requestState: first.requestState })
      const same = yield* connect({ requestState: { keys: [KEY_A] } })
      assert.strictEqual(textOf(yield* retry(same)), "Hello, Ada!")
      const rotated = yield* connect({ requestState: { keys: [KEY_B, KEY_A] } })
      assert.strictEqual(textOf(yield* retry(rotated)), "Hello, Ada!")
      const retired = yield* connect({ requestState: { keys: [KEY_B] } })
      const error = yield* errorOf(retry(retired))
      assert.strictEqual(error.code, -32602)
      assert.include(error.message, "signature")
      // the rotated server signs with its newest key
      const fresh = yield* call(rotated, "greet")
      const onlyB = yield* call(retired, "greet", { inputResponses: answerAll(fresh), requestState: fresh.requestState })
      assert.strictEqual(textOf(onlyB), "Hello, Ada!")
    }))

  it.effect("without keys, a random key of the process is used; a server of one instance does not warn about it", () =>
    Effect.gen(function*() {
      const { logs, logger } = collectLogs()
      const peer = yield* connect({ requestState: undefined }).pipe(Effect.provide(logger))
      const first = yield* call(peer, "greet")
      yield* call(peer, "greet")
      const done = yield* call(peer, "greet", { inputResponses: answerAll(first), requestState: first.requestState })
      assert.strictEqual(textOf(done), "Hello, Ada!")
      assert.strictEqual(logs.filter((l) => l.includes("random key")).length, 0, logs.join("\n"))
      const other = yield* connect({ requestState: { keys: [KEY_A] } })
      const refused = yield* errorOf(call(other, "greet", { inputResponses: answerAll(first), requestState: first.requestState }))
      assert.strictEqual(refused.code, -32602)
    }))

  it.effect("without keys, an instance of a fleet (a relay installed) warns once, on the first state it signs", () =>
    Effect.gen(function*() {
      const { logs, logger } = collectLogs()
      const { peer, server } = yield* connectWithServer({ requestState: undefined }).pipe(Effect.provide(logger))
      // what the streamable HTTP server does when it has a SessionStore
      yield* server.relay(() => Effect.void)
      const first = yield* call(peer, "greet")
      yield* call(peer, "greet")
      yield* call(peer, "greet", { inputResponses: answerAll(first), requestState: first.requestState })
      assert.strictEqual(logs.filter((l) => l.includes("random key of this process")).length, 1, logs.join("\n"))
    }))

  it.effect("without keys, a state refused for its signature (another instance's) makes the server warn, once", () =>
    Effect.gen(function*() {
      const { logs, logger } = collectLogs()
      const signer = yield* connect({ requestState: { keys: [KEY_A] } })
      const foreign = yield* call(signer, "greet")
      const peer = yield* connect({ requestState: undefined }).pipe(Effect.provide(logger))
      for (let i = 0; i < 2; i++) {
        const refused = yield* errorOf(
          call(peer, "greet", { inputResponses: answerAll(foreign), requestState: foreign.requestState })
        )
        assert.strictEqual(refused.code, -32602)
      }
      assert.strictEqual(logs.filter((l) => l.includes("random key of this process")).length, 1, logs.join("\n"))
    }))

  it.effect("McpServer.layerConfig: the keys (newest first) and ttl of MCP_REQUEST_STATE_KEYS and MCP_REQUEST_STATE_TTL", () =>
    Effect.gen(function*() {
      const env = (keys: string) =>
        ConfigProvider.fromEnv({ env: { MCP_REQUEST_STATE_KEYS: keys, MCP_REQUEST_STATE_TTL: "5 minutes" } })
      const configured = yield* connect({}, undefined, env(` ${KEY_B} , ${KEY_A}`))
      // a state of an instance with the older key is accepted
      const first = yield* call(yield* connect({ requestState: { keys: [KEY_A] } }), "greet")
      const retried = yield* call(configured, "greet", { inputResponses: answerAll(first), requestState: first.requestState })
      assert.strictEqual(textOf(retried), "Hello, Ada!")
      // its own are signed with the newest, and last its ttl
      const fresh = yield* call(configured, "greet")
      const onlyB = yield* connect({ requestState: { keys: [KEY_B] } })
      const retry = call(onlyB, "greet", { inputResponses: answerAll(fresh), requestState: fresh.requestState })
      assert.strictEqual(textOf(yield* retry), "Hello, Ada!")
      yield* TestClock.adjust("6 minutes")
      assert.include((yield* errorOf(retry)).message, "expired")
      // a short key: a config error that names its place, never its value
      const error = yield* Effect.flip(
        Layer.build(McpServer.layerConfig({ name: "s", version: "1" })).pipe(Effect.provideService(ConfigProvider.ConfigProvider, env(`${KEY_A},short-secret`)))
      )
      assert.include(String(error), "MCP_REQUEST_STATE_KEYS")
      assert.include(String(error), "key 2 is 12 bytes")
      assert.notInclude(String(error), "short-secret")
    }))

  it.effect("a key shorter than 32 bytes is refused when the server is made", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(McpServer.make({ name: "s", version: "1", requestState: { keys: ["short"] } }))
      assert.isTrue(exit._tag === "Failure")
    }))
})

describe("cancellation", () => {
  it.effect("a round's end interrupts the handler and what it forked", () =>
    Effect.gen(function*() {
      interruptions.child = 0
      interruptions.handler = 0
      interruptions.forked = 0
      interruptible.started = undefined
      interruptible.gate = undefined
      const peer = yield* connect()
      const first = yield* call(peer, "interruptible")
      assert.strictEqual(first.resultType, "input_required")
      for (let i = 0; i < 1000 && interruptions.forked === 0; i++) yield* Effect.yieldNow
      assert.deepStrictEqual(interruptions, { child: 1, handler: 1, forked: 1 })
      const second = yield* call(peer, "interruptible", { inputResponses: answerAll(first), requestState: first.requestState })
      assert.strictEqual(textOf(second), "Ada")
      for (let i = 0; i < 1000 && interruptions.forked === 1; i++) yield* Effect.yieldNow
      // the completed run's children end with its scope and with the request
      assert.deepStrictEqual(interruptions, { child: 2, handler: 1, forked: 2 })
    }))

  it.effect("notifications/cancelled interrupts a handler mid-round, and everything it forked", () =>
    Effect.gen(function*() {
      interruptions.child = 0
      interruptions.handler = 0
      interruptions.forked = 0
      interruptible.started = yield* Deferred.make<void>()
      interruptible.gate = yield* Deferred.make<void>()
      const peer = yield* connect()
      const pending = yield* call(peer, "interruptible").pipe(Effect.forkChild)
      yield* Deferred.await(interruptible.started)
      // the caller gives up: the client engine sends notifications/cancelled
      yield* Fiber.interrupt(pending)
      for (let i = 0; i < 1000 && (interruptions.handler === 0 || interruptions.forked === 0); i++) yield* Effect.yieldNow
      assert.deepStrictEqual(interruptions, { child: 1, handler: 1, forked: 1 })
      assert.isTrue(peer.wire.some((w) => JSON.parse(w.json).method === "notifications/cancelled"))
      assert.isFalse(peer.wire.some((w) => w.from === "server" && JSON.parse(w.json).id !== undefined))
      interruptible.started = undefined
      interruptible.gate = undefined
    }))
})

describe("our client on 2026-07-28", () => {
  it.effect("McpClient answers the rounds through its handlers: the same handler, the same result", () =>
    Effect.gen(function*() {
      runs.set("sequential", 0)
      const server = Context.get(yield* Layer.build(serverLayer()), McpServer.McpServer)
      const pair = yield* Transport.makeMemoryPair()
      yield* server.serve(pair.server).pipe(Effect.forkScoped)
      const asked = yield* Ref.make<Array<string>>([])
      const client = yield* McpClient.make({
        era: "2026-07-28",
        name: "c",
        version: "1",
        sampling: () =>
          Effect.andThen(Ref.update(asked, (a) => [...a, "sampling"]), Effect.succeed(modelSays("hi") as McpSchema.CreateMessageResult)),
        elicitation: {
          form: (params) =>
            Effect.andThen(
              Ref.update(asked, (a) => [...a, "elicitation"]),
              Effect.succeed(accept(params.message.includes("colour") ? { color: "teal" } : { name: "Ada" }) as McpSchema.ElicitResult)
            )
        },
        roots: [{ uri: "file:///work", name: "file:///work" }]
      }).pipe(Effect.provideService(Transport.Transport, pair.client))
      const sequential = yield* client.callTool("sequential", {})
      assert.deepStrictEqual(sequential.content, [{ type: "text", text: "Ada likes teal; the model says hi" }])
      assert.deepStrictEqual(yield* Ref.get(asked), ["elicitation", "elicitation", "sampling"])
      assert.strictEqual(runs.get("sequential"), 4)
      const parallel = yield* client.callTool("parallel", {})
      assert.deepStrictEqual(parallel.content, [{ type: "text", text: "Ada / hi / file:///work" }])
      assert.isFalse(pair.wire.some((w) => w.from === "server" && JSON.parse(w.json).method !== undefined && JSON.parse(w.json).id !== undefined))
      assertWire2026(pair.wire)
    }))
})

describe("the same handlers on 2025-11-25", () => {
  it.effect("reverse calls go to the client as requests, in parallel", () =>
    Effect.gen(function*() {
      const server = Context.get(yield* Layer.build(serverLayer()), McpServer.McpServer)
      const pair = yield* Transport.makeMemoryPair()
      yield* server.serve(pair.server).pipe(Effect.forkScoped)
      const asked = yield* Ref.make<Array<string>>([])
      const client = yield* McpClient.make({
        era: "2025",
        name: "c",
        version: "1",
        sampling: () =>
          Effect.andThen(Ref.update(asked, (a) => [...a, "sampling"]), Effect.succeed(modelSays("hi") as McpSchema.CreateMessageResult)),
        elicitation: {
          form: () => Effect.andThen(Ref.update(asked, (a) => [...a, "elicitation"]), Effect.succeed(accept({ name: "Ada" }) as McpSchema.ElicitResult))
        },
        roots: [{ uri: "file:///work", name: "file:///work" }]
      }).pipe(Effect.provideService(Transport.Transport, pair.client))
      const result = yield* client.callTool("parallel", {})
      assert.deepStrictEqual(result.content, [{ type: "text", text: "Ada / hi / file:///work" }])
      assert.deepStrictEqual((yield* Ref.get(asked)).sort(), ["elicitation", "sampling"])
      assert.isTrue(pair.wire.some((w) => JSON.parse(w.json).method === "roots/list"))
      assert.isFalse(pair.wire.some((w) => w.json.includes("input_required")))
    }))
})
