/**
 * `McpClient.urlElicitations` and `McpClient.retryUrlElicitations`: a fake 2025
 * server on a memory pair refuses `tools/call` with -32042 (`data.elicitations`)
 * and sends `notifications/elicitation/complete` when the test says so; the
 * assertions are on the wire (how many `tools/call`, and after what).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Transport from "@effect-mcp/mcp/Transport"
import { sleepers, until } from "./utils/virtualTime.js"
import { initializeResult, parsed } from "./utils/wire.js"

const elicitation = (id: string): McpSchema.ElicitRequestURLParams => ({
  mode: "url",
  elicitationId: id,
  url: `https://example.com/login?e=${id}`,
  message: "Sign in"
})
const required = (id: JsonRpc.RequestId, ids: ReadonlyArray<string>) =>
  JsonRpc.failure(id, { code: -32042, message: "Sign in first", data: { elicitations: ids.map(elicitation) } })
const complete = (id: string) => JsonRpc.notification("notifications/elicitation/complete", { elicitationId: id })

/**
 * A fake server: answers `initialize`; `tools/call` gets the frames `onCall(n)`
 * gives for its n-th call (0-based), sent in order (a notification may go first).
 */
const serve = (pair: Transport.MemoryPair, onCall: (n: number, id: JsonRpc.RequestId) => ReadonlyArray<JsonRpc.Message>) => {
  let calls = 0
  return Transport.incoming(pair.server).pipe(
    Stream.runForEach((frame) => {
      if (JsonRpc.isBatch(frame) || !JsonRpc.isRequest(frame)) return Effect.void
      const out: ReadonlyArray<JsonRpc.Message> = frame.method === "initialize"
        ? [initializeResult(frame.id, { tools: {} })]
        : frame.method === "tools/call"
        ? onCall(calls++, frame.id)
        : [JsonRpc.success(frame.id, {})]
      return Effect.forEach(out, (m) => Effect.ignore(pair.server.send(m)), { discard: true })
    }),
    Effect.ignore,
    Effect.forkScoped
  )
}

const connect = (pair: Transport.MemoryPair) =>
  McpClient.make({ era: "2025", name: "c", version: "1" }).pipe(Effect.provideService(Transport.Transport, pair.client))

const methods = (pair: Transport.MemoryPair) =>
  parsed(pair.wire).map((r) => `${r.from}:${String(r.message.method ?? ("error" in r.message ? "error" : "result"))}`)
const callCount = (pair: Transport.MemoryPair) => methods(pair).filter((m) => m === "client:tools/call").length
const ok = (id: JsonRpc.RequestId) => JsonRpc.success(id, { content: [{ type: "text", text: "logged in" }] })

describe("McpClient.urlElicitations", () => {
  it("reads the elicitations of a -32042 McpError, nothing else", () => {
    const error = McpError.fromObject(required(1, ["e1"]).error, "tools/call")
    assert.deepStrictEqual(McpClient.urlElicitations(error), Option.some([elicitation("e1")]))
    assert.isTrue(Option.isNone(McpClient.urlElicitations(new McpError({ code: -32600, message: "x", data: { elicitations: [] } }))))
    assert.isTrue(Option.isNone(McpClient.urlElicitations(new McpError({ code: -32042, message: "x", data: { elicitations: [{ url: 1 }] } }))))
    assert.isTrue(Option.isNone(McpClient.urlElicitations(new Error("-32042"))))
  })
})

describe("McpClient.retryUrlElicitations", () => {
  it.effect("onUrl gets the URL; the call is sent again only after its completion", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* serve(pair, (n, id) => (n === 0 ? [required(id, ["e1"])] : [ok(id)]))
      const client = yield* connect(pair)
      const shown: Array<string> = []
      const fiber = yield* McpClient.retryUrlElicitations(client, client.callTool("login", {}), {
        onUrl: (el) => Effect.sync(() => void shown.push(el.url))
      }).pipe(Effect.forkChild)
      yield* until(() => shown.length === 1)
      assert.deepStrictEqual(shown, ["https://example.com/login?e=e1"])
      // another elicitation's completion does not release the wait
      yield* pair.server.send(complete("other"))
      yield* until(() => methods(pair).includes("server:notifications/elicitation/complete"))
      for (let i = 0; i < 50; i++) yield* Effect.yieldNow
      assert.strictEqual(callCount(pair), 1)
      yield* pair.server.send(complete("e1"))
      const result = yield* Fiber.join(fiber)
      assert.deepStrictEqual(result.content, [{ type: "text", text: "logged in" }])
      const wire = methods(pair).filter((m) => m !== "client:initialize" && m !== "server:result" && m !== "client:notifications/initialized")
      assert.deepStrictEqual(wire, [
        "client:tools/call",
        "server:error",
        "server:notifications/elicitation/complete",
        "server:notifications/elicitation/complete",
        "client:tools/call"
      ])
    }))

  it.effect("a completion that comes before the error counts; every elicitation is waited for", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* serve(pair, (n, id) => (n === 0 ? [complete("a"), required(id, ["a", "b"])] : [ok(id)]))
      const client = yield* connect(pair)
      const shown: Array<string> = []
      const fiber = yield* McpClient.retryUrlElicitations(client, client.callTool("login", {}), {
        onUrl: (el) => Effect.sync(() => void shown.push(el.elicitationId))
      }).pipe(Effect.forkChild)
      yield* until(() => shown.length === 2)
      for (let i = 0; i < 50; i++) yield* Effect.yieldNow
      assert.strictEqual(callCount(pair), 1)
      yield* pair.server.send(complete("b"))
      yield* Fiber.join(fiber)
      assert.deepStrictEqual(shown, ["a", "b"])
      assert.strictEqual(callCount(pair), 2)
    }))

  it.effect("maxRounds: after them the -32042 error is the failure", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* serve(pair, (n, id) => [complete(`e${n}`), required(id, [`e${n}`])])
      const client = yield* connect(pair)
      let shown = 0
      const error = yield* McpClient.retryUrlElicitations(client, client.callTool("login", {}), {
        onUrl: () => Effect.sync(() => void shown++),
        maxRounds: 2
      }).pipe(Effect.flip)
      assert.instanceOf(error, McpError)
      assert.strictEqual((error as McpError).code, -32042)
      assert.strictEqual(callCount(pair), 3)
      assert.strictEqual(shown, 2)
    }))

  it.effect("timeout (Effect's Clock): no completion in time, the -32042 error is the failure, no second call", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* serve(pair, (_n, id) => [required(id, ["e1"])])
      const client = yield* connect(pair)
      let shown = 0
      const fiber = yield* McpClient.retryUrlElicitations(client, client.callTool("login", {}, { timeout: "1 hour" }), {
        onUrl: () => Effect.sync(() => void shown++),
        timeout: "1 minute"
      }).pipe(Effect.flip, Effect.forkChild)
      yield* until(() => shown === 1)
      yield* sleepers(1)
      yield* TestClock.adjust("59 seconds")
      assert.isUndefined(fiber.pollUnsafe())
      yield* TestClock.adjust("1 second")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual((error as McpError).code, -32042)
      assert.strictEqual(callCount(pair), 1)
    }))

  it.effect("the completions are listened for before the first attempt: one published as the request starts counts", () =>
    Effect.gen(function*() {
      // the completion is published by the request itself, before it fails: a listener that subscribed
      // only once the request had begun (a fork not yet started) would never see it, and the retry would wait forever
      const hub = yield* PubSub.unbounded<JsonRpc.Notification>()
      let runs = 0
      const request = Effect.suspend(() => {
        runs++
        return runs === 1
          ? Effect.andThen(
            PubSub.publish(hub, complete("e1") as JsonRpc.Notification),
            Effect.fail(McpError.fromObject(required(1, ["e1"]).error))
          )
          : Effect.succeed("logged in")
      })
      const result = yield* McpClient.retryUrlElicitations({ era: "2025", notifications: Stream.fromPubSub(hub) }, request, {
        onUrl: () => Effect.void,
        timeout: "1 second"
      }).pipe(Effect.forkChild)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(result), "logged in")
      assert.strictEqual(runs, 2)
    }))

  it.effect("a 2026 session: the request runs as it is (no notifications/elicitation/complete there)", () =>
    Effect.gen(function*() {
      let runs = 0
      let shown = 0
      const request = Effect.suspend(() => {
        runs++
        return Effect.fail(McpError.fromObject(required(1, ["e1"]).error))
      })
      const error = yield* McpClient.retryUrlElicitations({ era: "2026", notifications: Stream.empty }, request, {
        onUrl: () => Effect.sync(() => void shown++)
      }).pipe(Effect.flip)
      assert.strictEqual(error.code, -32042)
      assert.strictEqual(runs, 1)
      assert.strictEqual(shown, 0)
    }))
})
