/**
 * The transport seam as a contract: a transport written from `TransportShape` alone (no library
 * constructor) carries a server and a client, keeps the back-pressure, ends and fails as the
 * type says; and the constructors (`fromPull`, `fromFeed`, `fromMailbox`, the stream's
 * `fromStream`, a pushing `run`) give the engine the same thing on the same input.
 */
import { assert, describe, it } from "@effect/vitest"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { type ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { until } from "./utils/virtualTime.js"

/** What a hand-written transport's queue carries: a read, the peer closing, or a failure. */
type Read = ReadonlyArray<JsonRpc.Frame> | "closed" | TransportError

/**
 * A transport written from the type alone: `run` takes one read at a time off a queue, hands it
 * to the receiver, and runs what the receiver left before taking the next (the back-pressure the
 * type asks for); "closed" ends the reading, an error fails it. `send` encodes and parses, as a wire.
 */
const queued = (reads: Queue.Queue<Read>, peer: Queue.Queue<Read> | undefined, sent: Array<JsonRpc.Outgoing>): Transport.TransportShape => ({
  run: (receiver) => {
    const loop: Effect.Effect<void, TransportError> = Effect.flatMap(Queue.take(reads), (read) =>
      read === "closed"
        ? Effect.void
        : read instanceof TransportError
        ? Effect.fail(read)
        : Effect.andThen(receiver.frames(read) ?? Effect.void, loop))
    return loop
  },
  send: (message) =>
    Effect.suspend(() => {
      sent.push(message)
      return peer === undefined ? Effect.void : Queue.offer(peer, [JsonRpc.parse(JsonRpc.encode(message))])
    })
})

/** A pushing transport written from the type alone: `run` keeps the receiver and gives no effect; the test hands reads. */
const pushing = (sent: Array<JsonRpc.Outgoing>) => {
  let receiver: Transport.Receiver | undefined
  const transport: Transport.TransportShape = {
    run: (r) => {
      receiver = r
      return undefined
    },
    send: (message) => Effect.sync(() => void sent.push(message))
  }
  return {
    transport,
    receiver: () => receiver!,
    /** Hands a read over, running what it leaves before returning (as the type asks). */
    deliver: (read: ReadonlyArray<JsonRpc.Frame>) => Effect.suspend(() => receiver!.frames(read) ?? Effect.void)
  }
}

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})
const ServerLive = McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "s", version: "1" })))

const closedWith = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit)
    ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) as ProtocolError | undefined
    : undefined

describe("a transport written from TransportShape alone", () => {
  it.live("carries an MCP server and client: initialize, a tool call, and the end when the peer closes", () =>
    Effect.gen(function*() {
      const toServer = yield* Queue.unbounded<Read>()
      const toClient = yield* Queue.unbounded<Read>()
      const wire: Array<JsonRpc.Outgoing> = []
      const server = queued(toServer, toClient, wire)
      const client = queued(toClient, toServer, wire)
      const mcp = yield* McpServer.McpServer.pipe(Effect.provide(yield* Layer.build(ServerLive)))
      yield* Effect.forkScoped(mcp.serve(server))
      const mcpClient = yield* McpClient.make({ name: "c", version: "1", era: "2025" }).pipe(
        Effect.provideService(Transport.Transport, client)
      )
      const result = yield* mcpClient.callTool("echo", { text: "over a hand-written transport" })
      assert.deepStrictEqual(result.content, [{ type: "text", text: "over a hand-written transport" }])
      const methods = wire.flatMap((m) => !JsonRpc.isBatch(m) && "method" in m ? [m.method] : [])
      assert.deepStrictEqual(methods, ["initialize", "notifications/initialized", "tools/call"])
      // the server's side ends: the client's reading ends, its calls fail as the connection closed
      yield* Queue.offer(toClient, "closed")
      const after = closedWith(yield* Effect.exit(mcpClient.callTool("echo", { text: "late" })))
      assert.strictEqual(after?.reason, "ConnectionClosed")
      assert.include(after?.message, "the peer closed the connection")
    }))

  it.live("back-pressure: what a read leaves to run ends before the transport takes the next read", () =>
    Effect.gen(function*() {
      const reads = yield* Queue.unbounded<Read>()
      const gate = yield* Deferred.make<void>()
      const seen: Array<string> = []
      yield* Protocol.make(queued(reads, undefined, []), {
        side: "client",
        onRequest: () => Effect.succeed({}),
        onNotification: (n) =>
          Effect.andThen(n.method === "slow" ? Deferred.await(gate) : Effect.void, Effect.sync(() => void seen.push(n.method)))
      })
      yield* Queue.offerAll(reads, [[JsonRpc.notification("slow")], [JsonRpc.notification("quick")]])
      yield* Effect.sleep("20 millis")
      // the slow handler is the effect the first read left: the second read is still queued
      assert.deepStrictEqual(seen, [])
      assert.strictEqual(yield* Queue.size(reads), 1)
      yield* Deferred.succeed(gate, undefined)
      yield* until(() => seen.length === 2)
      assert.deepStrictEqual(seen, ["slow", "quick"])
      // taken, the reading waits for more (a waiting taker counts below zero)
      assert.isAtMost(yield* Queue.size(reads), 0)
    }))

  it.live("a reading that fails closes the engine with the transport's error; pending calls fail with it", () =>
    Effect.gen(function*() {
      const reads = yield* Queue.unbounded<Read>()
      const engine = yield* Protocol.make(queued(reads, undefined, []), {
        side: "client",
        onRequest: () => Effect.succeed({}),
        onNotification: () => Effect.void
      })
      const pending = yield* Effect.forkChild(Effect.exit(engine.request("x")))
      yield* Effect.yieldNow
      yield* Queue.offer(reads, new TransportError({ reason: "Read", message: "the wire broke" }))
      const failed = closedWith(yield* Fiber.join(pending))
      assert.strictEqual(failed?.reason, "ConnectionClosed")
      assert.include(failed?.message, "the wire broke")
      yield* engine.closed
    }))

  it.live("pushing (run gives no effect): a response is settled in the call, a handler is what is left; end closes", () =>
    Effect.gen(function*() {
      const sent: Array<JsonRpc.Outgoing> = []
      const push = pushing(sent)
      const gate = yield* Deferred.make<void>()
      const engine = yield* Protocol.make(push.transport, {
        side: "client",
        onRequest: () => Effect.succeed({}),
        onNotification: () => Deferred.await(gate)
      })
      const call = yield* Effect.forkChild(engine.request("x"))
      yield* until(() => sent.length === 1)
      // settled at once: nothing left to run
      assert.isUndefined(push.receiver().frames([JsonRpc.success(0, { ok: true })]))
      assert.deepStrictEqual(yield* Fiber.join(call), { ok: true })
      // a notification's handler is left to run, and the read is not done until it is
      const left = push.receiver().frames([JsonRpc.notification("n")])
      assert.isDefined(left)
      const running = yield* Effect.forkChild(left!)
      yield* Effect.sleep("10 millis")
      assert.isUndefined(running.pollUnsafe())
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(running)
      const pending = yield* Effect.forkChild(Effect.exit(engine.request("y")))
      yield* until(() => sent.length === 2)
      yield* push.receiver().end(Option.some(new TransportError({ reason: "Closed", message: "pushed away" })))
      assert.include(closedWith(yield* Fiber.join(pending))?.message, "pushed away")
      yield* engine.closed
    }))
})

// --- every way to make `run` gives the engine the same thing -----------------------------------

const reads: ReadonlyArray<ReadonlyArray<JsonRpc.Frame>> = [
  [JsonRpc.request(1, "a")],
  [JsonRpc.notification("n1"), JsonRpc.request(2, "b"), JsonRpc.notification("n2")],
  [[JsonRpc.request(3, "c"), JsonRpc.request(4, "d")]],
  [JsonRpc.request(5, "e")]
]
const frames = reads.flat()
const failure = new TransportError({ reason: "Read", message: "the input failed" })

/** How the input goes on after the reads: never ends, the peer closes, or it fails. */
type After = "open" | "closed" | "failed"

/** The same reads, then `after`, by each constructor (and by a pushing `run`). */
const makers: ReadonlyArray<readonly [string, (after: After) => Effect.Effect<Pick<Transport.TransportShape, "run">>]> = [
  ["fromStream", (after) =>
    Effect.succeed(Transport.fromStream(
      Stream.fromArrays(...reads).pipe(
        Stream.concat(after === "open" ? Stream.never : after === "failed" ? Stream.fail(failure) : Stream.empty)
      )
    ))],
  ["fromPull", (after) =>
    Effect.sync(() => {
      let i = 0
      return Transport.fromPull(Effect.suspend(() =>
        i < reads.length
          ? Effect.succeed(reads[i++]!)
          : after === "open"
          ? Effect.never
          : Effect.fail(after === "failed" ? Option.some(failure) : Option.none())
      ))
    })],
  ["fromFeed", (after) =>
    Effect.succeed(Transport.fromFeed((target) => {
      for (const read of reads) target.frames(read)
      if (after !== "open") target.end(Effect.fail(after === "failed" ? Option.some(failure) : Option.none()))
      return { resume: () => {} }
    }))],
  ["fromMailbox", (after) =>
    Effect.gen(function*() {
      // Effect 4's mailbox is a Queue whose end is a `Cause.Done`
      const queue = yield* Queue.make<JsonRpc.Frame, TransportError | Cause.Done>()
      for (const read of reads) yield* Queue.offerAll(queue, read)
      if (after === "failed") yield* Queue.fail(queue, failure)
      if (after === "closed") yield* Queue.end(queue)
      return Transport.fromMailbox(queue)
    })],
  ["pushing run", (after) =>
    Effect.succeed({
      run: (receiver: Transport.Receiver) => {
        // handed from a fiber of the transport's own, each read's leftover run before the next
        Effect.runFork(Effect.gen(function*() {
          for (const read of reads) yield* receiver.frames(read) ?? Effect.void
          if (after !== "open") yield* receiver.end(after === "failed" ? Option.some(failure) : Option.none())
        }))
        return undefined
      }
    })]
]

/** A server engine over `run`: what it sends, sorted by id, and the notifications it saw, once every request is answered. */
const served = (run: Pick<Transport.TransportShape, "run">, sendNow: boolean) =>
  Effect.gen(function*() {
    const sent: Array<JsonRpc.Outgoing> = []
    const notified: Array<string> = []
    const send = (message: JsonRpc.Outgoing) => Effect.sync(() => void sent.push(message))
    const transport: Transport.TransportShape = sendNow
      ? { ...run, send, sendNow: (message) => void sent.push(message) }
      : { ...run, send }
    yield* Protocol.make(transport, {
      side: "server",
      onRequest: ({ request }) => Effect.succeed({ method: request.method }),
      onNotification: (n) => Effect.sync(() => void notified.push(n.method)),
      batches: () => true
    })
    yield* until(() => sent.length === 4)
    const answers = sent.flatMap((m) => JsonRpc.isBatch(m) ? [...m] : [m]) as Array<JsonRpc.Response>
    return { answers: answers.sort((x, y) => Number(x.id) - Number(y.id)), notified, batches: sent.filter(JsonRpc.isBatch).length }
  })

describe("the constructors of run are the same contract (fromStream, the slow path, equals the fast ones)", () => {
  it.live("a receiver is handed the same frames, and the same end, by each", () =>
    Effect.gen(function*() {
      for (const after of ["closed", "failed"] as const) {
        for (const [name, make] of makers) {
          const got: Array<JsonRpc.Frame> = []
          const ended = yield* Deferred.make<Option.Option<TransportError>>()
          const receiver: Transport.Receiver = {
            frames: (read) => {
              got.push(...read)
              return undefined
            },
            end: (error) => Deferred.succeed(ended, error)
          }
          const reading = (yield* make(after)).run(receiver)
          if (reading !== undefined) {
            yield* Effect.forkScoped(Effect.flatMap(
              Effect.exit(reading),
              (exit) => Deferred.succeed(ended, Exit.isSuccess(exit) ? Option.none() : Cause.findErrorOption(exit.cause))
            ))
          }
          const end = yield* Deferred.await(ended)
          assert.deepStrictEqual(got, frames, `${name}, ${after}`)
          assert.deepStrictEqual(end, after === "failed" ? Option.some(failure) : Option.none(), `${name}, ${after}`)
        }
      }
    }))

  it.live("an engine answers the same and sees the same notifications over each, with sendNow or without", () =>
    Effect.gen(function*() {
      const expected = {
        answers: [1, 2, 3, 4, 5].map((id) => JsonRpc.success(id, { method: "abcde"[id - 1]! })),
        notified: ["n1", "n2"],
        batches: 1
      }
      for (const [name, make] of makers) {
        for (const sendNow of [false, true]) {
          const got = yield* Effect.scoped(Effect.flatMap(make("open"), (run) => served(run, sendNow)))
          assert.deepStrictEqual(got, expected, `${name}, sendNow ${sendNow}`)
        }
      }
    }))

  it.live("Transport.incoming reads each as the same Stream, ending or failing alike", () =>
    Effect.gen(function*() {
      for (const after of ["closed", "failed"] as const) {
        for (const [name, make] of makers) {
          const transport: Transport.TransportShape = { ...(yield* make(after)), send: () => Effect.void }
          const exit = yield* Effect.exit(Stream.runCollect(Transport.incoming(transport)))
          if (after === "closed") {
            assert.deepStrictEqual(Exit.isSuccess(exit) ? exit.value : exit, frames, name)
          } else {
            assert.deepStrictEqual(Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : exit, Option.some(failure), name)
          }
        }
      }
    }))
})

describe("Transport.tap", () => {
  it.live("with outgoing, every message the engine sends is seen, requests too (the transport's sendNow is not used)", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* Protocol.make(pair.server, { side: "server", onRequest: () => Effect.succeed({}), onNotification: () => Effect.void })
      const withSendNow: Transport.TransportShape = {
        ...pair.client,
        sendNow: (message) => pair.client.send(message)
      }
      const logged: Array<JsonRpc.Outgoing> = []
      const tapped = Transport.tap(withSendNow, { outgoing: (message) => Effect.sync(() => void logged.push(message)) })
      const engine = yield* Protocol.make(tapped, { side: "client", onRequest: () => Effect.succeed({}), onNotification: () => Effect.void })
      yield* engine.request("x")
      yield* engine.notify("notifications/y")
      assert.deepStrictEqual(logged, [JsonRpc.request(0, "x"), JsonRpc.notification("notifications/y")])
    }))
})
