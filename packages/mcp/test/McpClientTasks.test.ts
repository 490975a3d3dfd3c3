/**
 * A plain `McpClient.callTool` of a tool whose task support is `required`
 * (2025-11-25) is made as a task, transparently: the result comes back as
 * from any call, the wire shows `tools/call` with `task` then `tasks/result`,
 * and interrupting the call cancels the task on the wire (its handler and
 * its fork are interrupted). A tool not listed yet is found by one listing
 * before its first call. In memory, on the TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpTasks from "@effect-mcp/mcp/McpTasks"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import type { WireRecord } from "@effect-mcp/mcp/Transport"
import { assertWireValid, buildServer, connect, sentBy } from "./utils/wire.js"

const setup = (clientOptions?: { readonly requestTimeout?: Duration.Input }) => Effect.gen(function*() {
  const release = yield* Deferred.make<void>()
  const interrupted = yield* Ref.make<ReadonlyArray<string>>([])
  const store = yield* McpTasks.makeMemoryStore
  const tools = [
    McpServer.tool({
      name: "report",
      execution: { taskSupport: "required" },
      parameters: Schema.Struct({ month: Schema.String }),
      handler: ({ month }) =>
        Effect.gen(function*() {
          yield* Effect.forkScoped(Effect.onInterrupt(Effect.never, () => Ref.update(interrupted, (a) => [...a, "fork"])))
          yield* Effect.onInterrupt(Deferred.await(release), () => Ref.update(interrupted, (a) => [...a, "handler"]))
          return `report of ${month}`
        }).pipe(Effect.scoped)
    }),
    McpServer.tool({ name: "optional", execution: { taskSupport: "optional" }, handler: () => Effect.succeed("optional") }),
    McpServer.tool({ name: "plain", handler: () => Effect.succeed("plain") })
  ]
  const features = Layer.mergeAll(McpServer.register(...tools), McpTasks.layer()).pipe(
    Layer.provide(Layer.succeed(McpTasks.TaskStore, store))
  )
  const server = yield* buildServer(features)
  const { client, pair } = yield* connect(server, { client: { era: "2025", ...clientOptions } })
  return { client, pair, release, interrupted }
})

/** The client's requests, in order (`+task`: task-augmented). */
const methods = (wire: ReadonlyArray<WireRecord>) =>
  sentBy(wire, "client")
    .filter((m) => "id" in m && typeof m.method === "string")
    .map((m) => `${String(m.method)}${(m.params as { task?: unknown } | undefined)?.task !== undefined ? "+task" : ""}`)

const text = (result: McpClient.CallToolResult) => (result.content[0] as { readonly text: string }).text

/** Lets the server's fibers run (all in memory; no time passes). */
const yieldMany = Effect.forEach(Array.from({ length: 30 }), () => Effect.yieldNow, { discard: true })

describe("McpClient.callTool of a tool that requires a task", () => {
  it.effect("listed first: called as a task, its result returned as from a plain call; other tools are plain calls", () =>
    Effect.gen(function*() {
      const { client, pair, release } = yield* setup()
      yield* client.listToolsAll()
      const before = methods(pair.wire).length
      const call = yield* Effect.forkChild(client.callTool("report", { month: "May" }))
      yield* yieldMany
      yield* Deferred.succeed(release, undefined)
      const result = yield* Fiber.join(call)
      assert.strictEqual(text(result), "report of May")
      assert.strictEqual(text(yield* client.callTool("optional")), "optional")
      assert.strictEqual(text(yield* client.callTool("plain")), "plain")
      assert.deepStrictEqual(methods(pair.wire).slice(before), ["tools/call+task", "tasks/result", "tools/call", "tools/call"])
      assertWireValid(pair.wire)
    }))

  it.effect("not listed yet: the client lists the tools once, before the first call, and calls it as its listing says", () =>
    Effect.gen(function*() {
      const { client, pair, release } = yield* setup()
      yield* Deferred.succeed(release, undefined)
      assert.strictEqual(text(yield* client.callTool("report", { month: "June" })), "report of June")
      assert.strictEqual(text(yield* client.callTool("report", { month: "July" })), "report of July")
      assert.strictEqual(text(yield* client.callTool("plain")), "plain")
      const sent = methods(pair.wire).filter((m) => m !== "initialize")
      assert.deepStrictEqual(sent, ["tools/list", "tools/call+task", "tasks/result", "tools/call+task", "tasks/result", "tools/call"])
      // a tool the server does not know: its error, and no second listing
      const unknown = yield* Effect.result(client.callTool("nope"))
      assert.isTrue(unknown._tag === "Failure")
      assert.strictEqual(methods(pair.wire).filter((m) => m === "tools/list").length, 1)
    }))

  it.effect("a task longer than the client's request timeout: the wait for its result is asked again, not failed", () =>
    Effect.gen(function*() {
      const { client, pair, release } = yield* setup({ requestTimeout: "1 second" })
      yield* client.listToolsAll()
      const call = yield* Effect.forkChild(client.callTool("report", { month: "May" }))
      yield* yieldMany
      for (let i = 0; i < 3; i++) {
        yield* TestClock.adjust("1 second")
        yield* yieldMany
      }
      yield* Deferred.succeed(release, undefined)
      assert.strictEqual(text(yield* Fiber.join(call)), "report of May")
      assert.isAtLeast(methods(pair.wire).filter((m) => m === "tasks/result").length, 2)
      assert.notInclude(methods(pair.wire), "tasks/cancel")
    }))

  it.effect("a call with a timeout of its own gives up the wait after it, and cancels the task", () =>
    Effect.gen(function*() {
      const { client, interrupted, pair } = yield* setup()
      yield* client.listToolsAll()
      const bounded = yield* Effect.forkChild(Effect.result(client.callTool("report", { month: "June" }, { timeout: "1 second" })))
      yield* yieldMany
      yield* TestClock.adjust("1 second")
      const outcome = yield* Fiber.join(bounded)
      assert.isTrue(outcome._tag === "Failure")
      yield* yieldMany
      assert.include(methods(pair.wire), "tasks/cancel")
      assert.deepStrictEqual([...(yield* Ref.get(interrupted))].sort(), ["fork", "handler"])
    }))

  it.effect("interrupting the call cancels the task on the wire: the handler and its fork are interrupted", () =>
    Effect.gen(function*() {
      const { client, interrupted, pair } = yield* setup()
      yield* client.listToolsAll()
      const call = yield* Effect.forkChild(client.callTool("report", { month: "May" }))
      yield* yieldMany
      yield* Fiber.interrupt(call)
      yield* yieldMany
      assert.include(methods(pair.wire), "tasks/cancel")
      assert.deepStrictEqual([...(yield* Ref.get(interrupted))].sort(), ["fork", "handler"])
      const { tasks } = (yield* client.request("tasks/list", {})) as unknown as McpSchema.ListTasksResult
      assert.deepStrictEqual(tasks.map((t) => t.status), ["cancelled"])
      assertWireValid(pair.wire)
    }))
})
