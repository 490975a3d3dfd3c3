import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Random from "effect/Random"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Queue from "effect/Queue"
import * as Metric from "effect/Metric"
import * as TestClock from "effect/testing/TestClock"
import * as Tracer from "effect/Tracer"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import { ErrorResponse, type McpError, ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as Cause from "effect/Cause"
import * as Option from "effect/Option"
import * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as ProtocolMake from "../src/internal/protocol/make.js"
import { settled, until } from "./utils/virtualTime.js"
import * as v8 from "node:v8"
import * as vm from "node:vm"

const gc: (options?: { readonly type: "minor" | "major" }) => void = (() => {
  v8.setFlagsFromString("--expose-gc")
  return vm.runInNewContext("gc")
})()

/** Whether V8 made `o` in its young generation (`%InYoungGeneration`, a natives-syntax function). */
const inYoungGeneration: (o: object) => boolean = (() => {
  v8.setFlagsFromString("--allow-natives-syntax")
  return vm.runInThisContext("(o) => %InYoungGeneration(o)")
})()

const noNotifications = () => Effect.void

class Greeting extends Context.Service<Greeting, string>()("test/Greeting") {}

/** The default tracer, keeping every span it makes. */
const recordingTracer = Effect.map(Effect.tracer, (base) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = base.span(...args)
      spans.push(span)
      return span
    },
    context: base.context
  })
  return { spans, tracer }
})
const failureOf = <A>(exit: Exit.Exit<A, McpError | ProtocolError>) =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Option.filter(Cause.findErrorOption(exit.cause), (e) => e._tag === "ProtocolError")) as ProtocolError | undefined : undefined
const parsed = (pair: Transport.MemoryPair, from: "client" | "server") =>
  pair.wire.filter((w) => w.from === from).map((w) => JSON.parse(w.json))

/** A peer pair: `a` calls, `b` answers with `onRequest`. */
const peers = (
  onRequest: Protocol.ProtocolOptions["onRequest"],
  options?: Partial<Protocol.ProtocolOptions>
) =>
  Effect.gen(function*() {
    const pair = yield* Transport.makeMemoryPair()
    // the engine as the SDK holds it: `checkResult` is not in the public `RequestOptions`
    const a = yield* ProtocolMake.start(pair.client, {
      side: "client",
      onRequest: () => Effect.fail(ErrorResponse.methodNotFound("x")),
      onNotification: noNotifications,
      ...options
    })
    const b = yield* Protocol.make(pair.server, { side: "server", onRequest, onNotification: noNotifications, ...options })
    return { pair, a, b }
  })

/**
 * A call from `a` that `b` answers only with progress, one notification each
 * time `progress` is run (which waits until the caller saw it).
 */
const progressPeers = (requestOptions: Protocol.RequestOptions) =>
  Effect.gen(function*() {
    const ticks = yield* Queue.unbounded<void>()
    const seen: Array<number> = []
    let b: Protocol.Protocol | undefined
    const { a, pair } = yield* peers(({ request }) =>
      Effect.gen(function*() {
        const token = (request.params?._meta as { progressToken: number }).progressToken
        for (let i = 1;; i++) {
          yield* Queue.take(ticks)
          yield* b!.notify("notifications/progress", { progressToken: token, progress: i }).pipe(Effect.orDie)
        }
      })
    ).pipe(Effect.tap((peers) => Effect.sync(() => (b = peers.b))))
    const call = yield* Effect.forkChild(
      a.request("slow", {}, { ...requestOptions, onProgress: (p) => Effect.sync(() => seen.push(p.progress)) })
    )
    yield* until(() => parsed(pair, "client").length === 1)
    const progress = Effect.suspend(() => {
      const before = seen.length
      return Effect.andThen(Queue.offer(ticks, undefined), until(() => seen.length > before))
    })
    return { a, pair, call, progress, seen }
  })

describe("Protocol", () => {
  it.live("answers 1000 concurrent requests out of order", () =>
    Effect.gen(function*() {
      const { a, pair } = yield* peers(({ request }) =>
        Effect.gen(function*() {
          yield* Effect.sleep(yield* Random.nextIntBetween(0, 20))
          return { echo: request.params?.n }
        })
      )
      const results = yield* Effect.forEach(
        Array.from({ length: 1000 }, (_, n) => n),
        (n) => a.request("echo", { n }),
        { concurrency: "unbounded" }
      )
      results.forEach((r, n) => assert.strictEqual(r.echo, n))
      const responseIds = parsed(pair, "server").map((m) => m.id)
      const sorted = [...responseIds].sort((x, y) => x - y)
      assert.isFalse(responseIds.every((id, i) => id === sorted[i]), "responses arrived in request order")
      assert.strictEqual(yield* a.pending, 0)
    }))

  it.live("a caller interrupted sends notifications/cancelled; the handler is interrupted and never answers", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const interrupted = yield* Deferred.make<void>()
      const { a, b, pair } = yield* peers(() =>
        Deferred.succeed(started, undefined).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
        )
      )
      const fiber = yield* Effect.forkChild(a.request("slow", {}))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(interrupted)
      // the connection goes on
      const pong = yield* a.request("ping")
      assert.deepStrictEqual(pong, {})
      const fromClient = parsed(pair, "client")
      const cancel = fromClient.find((m) => m.method === "notifications/cancelled")
      assert.deepStrictEqual(cancel?.params?.requestId, 0)
      assert.isFalse(parsed(pair, "server").some((m) => m.id === 0), "a cancelled request was answered")
      assert.strictEqual(yield* b.running, 0)
      assert.strictEqual(yield* a.pending, 0)
    }))

  it.live("cancellation works in the other direction, server to client", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const interrupted = yield* Deferred.make<void>()
      const started = yield* Deferred.make<void>()
      const client = yield* Protocol.make(pair.client, {
        side: "client",
        onRequest: () =>
          Deferred.succeed(started, undefined).pipe(
            Effect.andThen(Effect.never),
            Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
          ),
        onNotification: noNotifications
      })
      const server = yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: () => Effect.succeed({}),
        onNotification: noNotifications
      })
      const fiber = yield* Effect.forkChild(server.request("sampling/createMessage", { maxTokens: 1, messages: [] }))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(interrupted)
      // Effect 4 resumes a Deferred's waiter at once, inside the fiber that completed it (here the
      // handler's, still in its finalizer): one turn lets that fiber end (Effect 3 resumed later)
      yield* Effect.yieldNow
      const cancel = parsed(pair, "server").find((m) => m.method === "notifications/cancelled")
      assert.strictEqual(cancel?.params?.requestId, 0)
      assert.strictEqual(yield* client.running, 0)
    }))

  it.live("ids are per direction and keep their type", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: ({ request }) => Effect.succeed({ id: request.id }),
        onNotification: noNotifications
      })
      for (const id of [0, "", "7", 7]) {
        yield* pair.injectRaw("server", JSON.stringify({ jsonrpc: "2.0", id, method: "m" }))
      }
      yield* Effect.sleep(20)
      const answers = parsed(pair, "server")
      assert.deepStrictEqual(answers.map((m) => m.id), [0, "", "7", 7])
      assert.deepStrictEqual(answers.map((m) => m.result.id), [0, "", "7", 7])
    }))

  it.live("malformed messages get the right error and the connection keeps working", () =>
    Effect.gen(function*() {
      const { a, pair } = yield* peers(({ request }) =>
        request.method === "fail"
          ? Effect.fail(ErrorResponse.invalidParams("bad thing"))
          : request.method === "die"
          ? Effect.die(new Error("secret internals"))
          : Effect.succeed({ ok: true })
      )
      yield* pair.injectRaw("server", "{not json")
      yield* pair.injectRaw("server", JSON.stringify({ jsonrpc: "2.0", id: 5, method: 12 }))
      yield* pair.injectRaw("server", JSON.stringify({ jsonrpc: "1.0", id: "x", method: "m" }))
      yield* pair.injectRaw("server", JSON.stringify([]))
      const failed = yield* Effect.exit(a.request("fail", {}))
      const died = yield* Effect.exit(a.request("die", {}))
      assert.deepStrictEqual(yield* a.request("ok", {}), { ok: true })
      const errors = parsed(pair, "server").filter((m) => "error" in m).map((m) => [m.id, m.error.code])
      assert.deepStrictEqual(errors.slice(0, 4), [[null, -32700], [5, -32600], ["x", -32600], [null, -32600]])
      assert.isTrue(Exit.isFailure(failed))
      assert.deepStrictEqual(parsed(pair, "server").find((m) => m.id === 0)?.error, { code: -32602, message: "bad thing" })
      assert.isTrue(Exit.isFailure(died))
      const dieResponse = pair.wire.find((w) => w.from === "server" && JSON.parse(w.json).id === 1)!
      assert.deepStrictEqual(JSON.parse(dieResponse.json).error, { code: -32603, message: "Internal error" })
      assert.notInclude(pair.wire.map((w) => w.json).join("\n"), "secret internals")
    }))

  it.live("a duplicate in-flight id is refused without disturbing the first", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const release = yield* Deferred.make<void>()
      yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: () => Effect.as(Deferred.await(release), { done: true }),
        onNotification: noNotifications
      })
      yield* pair.injectRaw("server", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "m" }))
      yield* pair.injectRaw("server", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "m" }))
      yield* Effect.sleep(10)
      yield* Deferred.succeed(release, undefined)
      yield* Effect.sleep(10)
      const answers = parsed(pair, "server")
      assert.strictEqual(answers.length, 2)
      assert.strictEqual(answers[0].error.code, -32600)
      assert.deepStrictEqual(answers[1].result, { done: true })
    }))

  it.effect("a request with no answer times out on the Clock, fails with Timeout and is cancelled on the wire", () =>
    Effect.gen(function*() {
      const { a, pair } = yield* peers(() => Effect.never)
      const call = yield* Effect.forkChild(a.request("slow", {}, { timeout: 10_000 }))
      yield* until(() => parsed(pair, "client").length === 1)
      yield* TestClock.adjust(9_999)
      assert.isUndefined(call.pollUnsafe(), "timed out early")
      yield* TestClock.adjust(1)
      const timedOut = yield* settled(call)
      assert.deepStrictEqual(failureOf(timedOut)?.reason, "Timeout")
      assert.include(failureOf(timedOut)?.message, "10000 ms")
      assert.strictEqual(yield* a.pending, 0)
      yield* until(() => parsed(pair, "client").length === 2)
      const cancel = parsed(pair, "client").find((m) => m.method === "notifications/cancelled")
      assert.deepStrictEqual(cancel?.params, { requestId: 0, reason: "Request timed out" })
    }))

  it.effect("request timeouts follow the Clock: each expires at its own deadline, a sooner one first", () =>
    Effect.gen(function*() {
      const { a } = yield* peers(() => Effect.never)
      const long = yield* Effect.forkChild(Effect.exit(a.request("long", {}, { timeout: "60 seconds" })))
      yield* TestClock.adjust("1 second")
      const short = yield* Effect.forkChild(Effect.exit(a.request("short", {}, { timeout: "5 seconds" })))
      yield* TestClock.adjust("4 seconds")
      assert.isUndefined(short.pollUnsafe(), "expired before its deadline")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(failureOf(yield* Fiber.join(short))?.reason, "Timeout")
      assert.isUndefined(long.pollUnsafe(), "a later deadline expired with a sooner one")
      yield* TestClock.adjust("53 seconds")
      assert.isUndefined(long.pollUnsafe())
      yield* TestClock.adjust("1 second")
      const expired = yield* Fiber.join(long)
      assert.deepStrictEqual(failureOf(expired)?.reason, "Timeout")
      assert.include(String(Exit.isFailure(expired) ? expired.cause : ""), "60000 ms")
      assert.strictEqual(yield* a.pending, 0)
    }))

  it.effect("a call answered before its deadline: a later call still expires at its own (the engine's one timer re-arms)", () =>
    Effect.gen(function*() {
      const release = yield* Deferred.make<void>()
      const { a } = yield* peers(({ request }) =>
        request.method === "quick" ? Effect.as(Deferred.await(release), {}) : Effect.never
      )
      const quick = yield* Effect.forkChild(a.request("quick", {}, { timeout: "5 seconds" }))
      yield* TestClock.adjust("1 second")
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(quick)
      yield* TestClock.adjust("2 seconds")
      const slow = yield* Effect.forkChild(Effect.exit(a.request("slow", {}, { timeout: "5 seconds" })))
      // the timer wakes for the answered call's deadline (5 s), finds nothing due, sleeps on to 8 s
      yield* TestClock.adjust("4 seconds")
      assert.isUndefined(slow.pollUnsafe(), "expired before its deadline")
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(failureOf(yield* Fiber.join(slow))?.reason, "Timeout")
      assert.strictEqual(yield* a.pending, 0)
    }))

  it.effect("progress resets the timeout on the Clock", () =>
    Effect.gen(function*() {
      const { call, pair, progress, seen } = yield* progressPeers({ timeout: 10_000 })
      // 6 × 6 s: over three times the timeout in all, never 10 s without progress
      for (let i = 1; i <= 6; i++) {
        yield* TestClock.adjust(6_000)
        yield* progress
        assert.strictEqual(seen.length, i)
      }
      assert.isUndefined(call.pollUnsafe(), "progress did not reset the timeout")
      yield* TestClock.adjust(9_999)
      assert.isUndefined(call.pollUnsafe(), "the timeout ran from the start, not from the last progress")
      yield* TestClock.adjust(1)
      const exit = yield* settled(call)
      assert.strictEqual(failureOf(exit)?.reason, "Timeout")
      assert.include(failureOf(exit)?.message, "10000 ms")
      yield* until(() => parsed(pair, "client").some((m) => m.method === "notifications/cancelled"))
    }))

  it.effect("the hard maximum applies however often progress comes", () =>
    Effect.gen(function*() {
      const { call, progress } = yield* progressPeers({ timeout: 10_000, maxTimeout: 15_000 })
      yield* TestClock.adjust(6_000)
      yield* progress
      yield* TestClock.adjust(6_000)
      yield* progress
      yield* TestClock.adjust(2_999)
      assert.isUndefined(call.pollUnsafe(), "timed out before the maximum")
      yield* TestClock.adjust(1)
      const exit = yield* settled(call)
      assert.strictEqual(failureOf(exit)?.reason, "Timeout")
      assert.include(failureOf(exit)?.message, "15000 ms")
    }))

  it.effect("resetTimeoutOnProgress: false keeps the timeout from the start", () =>
    Effect.gen(function*() {
      const { call, progress, seen } = yield* progressPeers({ timeout: 10_000, resetTimeoutOnProgress: false })
      yield* TestClock.adjust(6_000)
      yield* progress
      assert.strictEqual(seen.length, 1)
      yield* TestClock.adjust(4_000)
      const exit = yield* settled(call)
      assert.strictEqual(failureOf(exit)?.reason, "Timeout")
      assert.include(failureOf(exit)?.message, "10000 ms")
    }))

  it.effect("a handler is given services through incoming.provide, in the request's fiber or scoped in another", () =>
    Effect.gen(function*() {
      const ctx = Context.make(Greeting, "hello")
      const { a } = yield* peers((incoming) =>
        incoming.request.method === "own"
          ? incoming.provide(Effect.map(Greeting, (g) => ({ g })), ctx)
          : Effect.forkChild(Effect.zip(incoming.provide(Greeting, ctx), Effect.serviceOption(Greeting))).pipe(
            Effect.flatMap(Fiber.join),
            Effect.map(([g, after]) => ({ g, after: Option.isSome(after) }))
          )
      )
      assert.deepStrictEqual(yield* a.request("own"), { g: "hello" })
      assert.deepStrictEqual(yield* a.request("child"), { g: "hello", after: false })
    }))

  it.live("an ended request's IncomingRequest no longer holds its fiber (whatever keeps the request keeps no more)", () =>
    Effect.gen(function*() {
      // V8 pretenures some allocation sites: a dead object in the old generation then keeps
      // what it points to alive through scavenges. Were the request's fiber reachable from
      // its IncomingRequest, that would be the fiber and all it holds, for every request
      // (server at 64 in flight: 20.5 -> 5.9 MB promoted per 10k calls)
      const kept: Array<Protocol.IncomingRequest> = []
      const fibers: Array<WeakRef<object>> = []
      const ctx = Context.make(Greeting, "hello")
      const { a } = yield* peers((incoming) => {
        kept.push(incoming)
        return Effect.withFiber((fiber) => {
          fibers.push(new WeakRef(fiber))
          return incoming.provide(Effect.map(Greeting, (g) => ({ g })), ctx)
        })
      })
      for (let i = 0; i < 20; i++) assert.deepStrictEqual(yield* a.request("own"), { g: "hello" })
      yield* Effect.sleep(20)
      gc()
      yield* Effect.sleep(20)
      gc()
      assert.strictEqual(kept.length, 20)
      // the last request's fiber may still be referenced by the engine's bookkeeping for a moment
      const alive = fibers.slice(0, -1).filter((f) => f.deref() !== undefined).length
      assert.strictEqual(alive, 0)
    }))

  it.live("IncomingRequests stay young while V8 pretenures what survives (a dead old one keeps its request)", () =>
    Effect.gen(function*() {
      // V8 pretenures an object literal's allocation site when, at a scavenge with the young
      // generation at its largest, most of what it made is alive; optimized code then makes all
      // later ones in the old generation, where a dead one keeps its request's frame and closures
      // through scavenges (server: ~6 MB promoted per 10k sequential calls). Grown first, then
      // every IncomingRequest kept across a scavenge, as a burst of slow requests would
      let grow: Array<{ readonly i: number }> = []
      for (let r = 0; r < 12; r++) {
        for (let i = 0; i < 200_000; i++) grow.push({ i })
        gc({ type: "minor" })
      }
      grow = []
      const kept: Array<Protocol.IncomingRequest> = []
      let madeOld = 0
      const { a } = yield* peers((incoming) => {
        kept.push(incoming)
        // read as it is made: a kept one is promoted by its second scavenge
        if (!inYoungGeneration(incoming)) madeOld++
        return Effect.succeed({})
      })
      const batch = (n: number) => Effect.forEach(Array.from({ length: n }), () => a.request("own"), { discard: true })
      yield* batch(4_000)
      gc({ type: "minor" })
      madeOld = 0
      // later ones, from code optimized again after the scavenge's decision
      yield* batch(4_000)
      assert.strictEqual(kept.length, 8_000)
      assert.strictEqual(madeOld, 0)
    }))

  it.live("batches are processed up to 2025-03-26 and refused after", () =>
    Effect.gen(function*() {
      let allow = true
      const pair = yield* Transport.makeMemoryPair()
      yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: ({ request }) => Effect.succeed({ m: request.method }),
        onNotification: noNotifications,
        batches: () => allow
      })
      const batch = JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "a" },
        { jsonrpc: "2.0", method: "notifications/x" },
        { jsonrpc: "2.0", id: 2, method: "b" },
        { junk: 1 }
      ])
      yield* pair.injectRaw("server", batch)
      yield* pair.injectRaw("server", JSON.stringify([{ jsonrpc: "2.0", method: "notifications/x" }]))
      yield* Effect.sleep(20)
      allow = false
      yield* pair.injectRaw("server", batch)
      yield* Effect.sleep(20)
      const frames = pair.wire.filter((w) => w.from === "server").map((w) => JSON.parse(w.json))
      assert.strictEqual(frames.length, 2, "an all-notification batch got an answer")
      assert.isTrue(Array.isArray(frames[0]))
      assert.deepStrictEqual(
        (frames[0] as Array<{ id: unknown }>).map((m) => m.id).sort(),
        [1, 2, null]
      )
      assert.strictEqual(frames[1].error.code, -32600)
      assert.include(frames[1].error.message, "batches")
    }))

  it.live("after the scope closes no fiber of the engine is left running", () =>
    Effect.gen(function*() {
      // Effect 4 has no Supervisor: the fibers started with this service in their context are
      // counted as they start and end (the runtime tells `Metric.FiberRuntimeMetrics`)
      let alive = 0
      const tracker: Metric.FiberRuntimeMetricsService = {
        recordFiberStart: () => void alive++,
        recordFiberEnd: () => void alive--
      }
      const pending = yield* Effect.gen(function*() {
        const scope = yield* Scope.make()
        const { a } = yield* peers(() => Effect.never).pipe(Scope.provide(scope))
        const calls = yield* Effect.forkChild(
          Effect.forEach(Array.from({ length: 10 }), () => Effect.exit(a.request("hang", {})), {
            concurrency: "unbounded"
          })
        )
        yield* Effect.sleep(20)
        yield* Scope.close(scope, Exit.void)
        return yield* Fiber.join(calls)
      }).pipe(Effect.provideService(Metric.FiberRuntimeMetrics, tracker))
      // every pending call failed with ConnectionClosed instead of hanging
      assert.strictEqual(pending.length, 10)
      for (const exit of pending) {
        assert.strictEqual(failureOf(exit)?.reason, "ConnectionClosed")
      }
      yield* Effect.sleep(10)
      assert.deepStrictEqual(alive, 0, `fibers left: ${alive}`)
    }))

  it.live("a transport read as made, through Transport.tap, or as a Stream (fromStream of incoming): all read and end alike", () =>
    Effect.gen(function*() {
      for (const wrap of ["none", "tap", "stream"] as const) {
        const pair = yield* Transport.makeMemoryPair()
        const seen: Array<JsonRpc.Frame> = []
        const sent: Array<JsonRpc.Outgoing> = []
        const record = (frame: JsonRpc.Frame) => Effect.sync(() => void seen.push(frame))
        const client = wrap === "tap"
          ? Transport.tap(pair.client, { incoming: record, outgoing: (m) => Effect.sync(() => void sent.push(m)) })
          : wrap === "stream"
          ? { ...pair.client, ...Transport.fromStream(Transport.incoming(pair.client).pipe(Stream.tap(record))) }
          : pair.client
        yield* Protocol.make(pair.server, {
          side: "server",
          onRequest: (r) => (r.request.method === "hang" ? Effect.never : Effect.succeed({ echo: r.request.params ?? {} })),
          onNotification: noNotifications
        })
        const a = yield* Protocol.make(client, { side: "client", onRequest: () => Effect.never, onNotification: noNotifications })
        assert.deepStrictEqual(yield* a.request("x", { n: 1 }), { echo: { n: 1 } })
        // the wrapper saw the response: the engine read through it
        assert.strictEqual(seen.length, wrap === "none" ? 0 : 1, wrap)
        assert.deepStrictEqual(sent, wrap === "tap" ? [JsonRpc.request(0, "x", { n: 1 })] : [], wrap)
        const pending = yield* Effect.forkChild(Effect.exit(a.request("hang", {})))
        yield* pair.disconnect("server")
        const exit = yield* Fiber.join(pending)
        assert.include(String(Exit.isFailure(exit) ? exit.cause : ""), "peer closed")
      }
    }))

  it.live("the peer closing fails pending calls at once", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const a = yield* Protocol.make(pair.client, {
        side: "client",
        onRequest: () => Effect.never,
        onNotification: noNotifications
      })
      const call = yield* Effect.forkChild(Effect.exit(a.request("x", {})))
      yield* Effect.sleep(5)
      yield* pair.disconnect("server")
      const exit = yield* Fiber.join(call)
      assert.include(String(Exit.isFailure(exit) ? exit.cause : ""), "peer closed")
    }))

  it.live("checkResult: a Right is the call's result, a Left fails it (nothing cancelled), a throw is a defect", () =>
    Effect.gen(function*() {
      const { a, pair } = yield* peers(({ request }) => Effect.succeed({ n: request.params?.n }))
      const double = yield* a.request("x", { n: 2 }, {
        checkResult: (result) => Result.succeed({ n: (result.n as number) * 2 })
      })
      assert.deepStrictEqual(double, { n: 4 })
      const refused = new ProtocolError({ reason: "InvalidResult", method: "x", message: "no" })
      const failed = yield* Effect.flip(a.request("x", { n: 1 }, { checkResult: () => Result.fail(refused) }))
      assert.strictEqual(failed, refused)
      const died = yield* Effect.exit(a.request("x", { n: 1 }, {
        checkResult: () => {
          throw new Error("boom")
        }
      }))
      assert.isTrue(Exit.isFailure(died) && Cause.hasDies(died.cause))
      assert.strictEqual(parsed(pair, "client").filter((m) => m.method === "notifications/cancelled").length, 0)
      assert.strictEqual(yield* a.pending, 0)
    }))

  it.live("a transport's sendNow sends requests: done at once, waited for, or failing", () =>
    Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      yield* Protocol.make(pair.server, { side: "server", onRequest: () => Effect.succeed({ ok: 1 }), onNotification: noNotifications })
      let mode: "now" | "wait" | "fail" = "now"
      const ways: Array<string> = []
      const transport: Transport.TransportShape = {
        ...pair.client,
        sendNow: (message) => {
          ways.push(mode)
          if (mode === "fail") return Effect.fail(new TransportError({ reason: "Write", message: "the pipe broke" }))
          if (mode === "wait") return pair.client.send(message)
          Effect.runSync(pair.client.send(message))
          return undefined
        }
      }
      const a = yield* Protocol.make(transport, { side: "client", onRequest: () => Effect.succeed({}), onNotification: noNotifications })
      assert.deepStrictEqual(yield* a.request("x", {}), { ok: 1 })
      mode = "wait"
      assert.deepStrictEqual(yield* a.request("x", {}), { ok: 1 })
      mode = "fail"
      const error = failureOf(yield* Effect.exit(a.request("x", {})))
      assert.strictEqual(error?.reason, "Transport")
      assert.include(error?.message, "the pipe broke")
      assert.deepStrictEqual(ways, ["now", "wait", "fail"])
      assert.strictEqual(yield* a.pending, 0)
      // notifications still go through send
      yield* a.notify("notifications/x")
      assert.strictEqual(ways.length, 3)
    }))

  it.live("every request handled or sent runs in a span named after its method (OpenTelemetry's MCP conventions)", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* recordingTracer
      const { a } = yield* peers(() => Effect.succeed({}), { sessionId: "s-1" })
      yield* a.request("tools/list", {}).pipe(Effect.withTracer(tracer))
      yield* Effect.sleep(5)
      const sent = spans.find((sp) => sp.name === "tools/list" && sp.kind === "client")
      assert.isDefined(sent)
      assert.strictEqual(sent!.attributes.get("mcp.method.name"), "tools/list")
      assert.strictEqual(sent!.attributes.get("jsonrpc.request.id"), "0")
      assert.strictEqual(sent!.attributes.get("mcp.session.id"), "s-1")
    }))

  it.live("the handler side's span carries the request id and session", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* recordingTracer
      const { a } = yield* peers(() => Effect.succeed({}), { sessionId: "s-2" }).pipe(Effect.withTracer(tracer))
      yield* a.request("prompts/get", { name: "x" })
      const handled = spans.find((sp) => sp.name === "prompts/get x" && sp.kind === "server")
      assert.isDefined(handled)
      assert.strictEqual(handled!.attributes.get("jsonrpc.request.id"), "0")
      assert.strictEqual(handled!.attributes.get("gen_ai.prompt.name"), "x")
      assert.strictEqual(handled!.attributes.get("mcp.session.id"), "s-2")
    }))
})

void JsonRpc

describe("Transport.layerMemoryPair", () => {
  it.live("connects a server and a client provided as Layers", () =>
    Effect.gen(function*() {
      const { client, pair, server } = yield* Transport.layerMemoryPair()
      const serverTransport = yield* Transport.Transport.pipe(Effect.provide(server))
      yield* Protocol.make(serverTransport, { side: "server", onRequest: () => Effect.succeed({ ok: 1 }), onNotification: noNotifications })
      const clientTransport = yield* Transport.Transport.pipe(Effect.provide(client))
      const a = yield* Protocol.make(clientTransport, { side: "client", onRequest: () => Effect.succeed({}), onNotification: noNotifications })
      assert.deepStrictEqual(yield* a.request("x", {}), { ok: 1 })
      assert.deepStrictEqual(pair.wire.map((w) => w.from), ["client", "server"])
    }))
  it.effect("closed: a wait begun before close ends at close; one begun after ends at once (the signal is made on first wait)", () =>
    Effect.scoped(Effect.gen(function*() {
      const pair = yield* Transport.makeMemoryPair()
      const engine = yield* Protocol.make(pair.server, {
        side: "server",
        onRequest: () => Effect.succeed({}),
        onNotification: () => Effect.void
      })
      const early = yield* Effect.forkChild(engine.closed)
      yield* Effect.yieldNow
      assert.isUndefined(early.pollUnsafe())
      yield* engine.close("test")
      yield* Fiber.join(early)
      yield* engine.closed
      // closing twice is still nothing more
      yield* engine.close("again")
      yield* engine.closed
    })))
})

describe("a transport that feeds the engine (Transport.fromFeed)", () => {
  /** An engine over a transport whose frames are handed over by hand; the pull never reads. */
  const fedEngine = (options: Pick<Protocol.ProtocolOptions, "side" | "onRequest" | "onNotification">) =>
    Effect.gen(function*() {
      const sent: Array<JsonRpc.Outgoing> = []
      const resumed: Array<number> = []
      let target: Transport.FeedTarget | undefined
      const transport: Transport.TransportShape = {
        ...Transport.fromFeed((t) => {
          target = t
          return { resume: () => void resumed.push(sent.length) }
        }),
        send: (message) => Effect.sync(() => void sent.push(message))
      }
      const engine = yield* Protocol.make(transport, options)
      yield* Effect.yieldNow
      assert.isDefined(target, "the engine attached to the feed")
      return { engine, sent, resumed, target: target! }
    })
  const fedClient = (onNotification: Protocol.ProtocolOptions["onNotification"]) =>
    fedEngine({ side: "client", onRequest: () => Effect.succeed({}), onNotification })

  it.effect("settles a response at once, and runs what frames leave to run in order, before the frames after them", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      const seen: Array<string> = []
      const { engine, target } = yield* fedClient((n) =>
        n.method === "first" ? Effect.andThen(Deferred.await(gate), Effect.sync(() => seen.push(n.method))) : Effect.sync(() => seen.push(n.method))
      )
      const one = yield* Effect.forkChild(engine.request("one"))
      const two = yield* Effect.forkChild(engine.request("two"))
      yield* Effect.yieldNow
      // a response alone is settled in the transport's callback
      assert.isTrue(target.frames([JsonRpc.success(0, { n: 1 })]))
      assert.deepStrictEqual(yield* Fiber.join(one), { n: 1 })
      // a notification's handler runs before the frames after it are looked at
      assert.isTrue(target.frames([JsonRpc.notification("first"), JsonRpc.success(1, { n: 2 }), JsonRpc.notification("second")]))
      yield* Effect.yieldNow
      assert.isUndefined(two.pollUnsafe())
      yield* Deferred.succeed(gate, undefined)
      assert.deepStrictEqual(yield* Fiber.join(two), { n: 2 })
      yield* until(() => seen.length === 2)
      assert.deepStrictEqual(seen, ["first", "second"])
    }))

  it.effect("asks the transport to stop reading while its fiber is behind, and to read again once it caught up", () =>
    Effect.gen(function*() {
      const gate = yield* Deferred.make<void>()
      let handled = 0
      const { resumed, target } = yield* fedClient((n) =>
        Effect.andThen(n.method === "slow" ? Deferred.await(gate) : Effect.void, Effect.sync(() => void handled++))
      )
      assert.isTrue(target.frames([JsonRpc.notification("slow")]))
      const answers: Array<boolean> = []
      for (let i = 0; i < 300; i++) answers.push(target.frames([JsonRpc.notification("quick")]))
      assert.strictEqual(answers.indexOf(false), 255, "a backlog of 256 frames pauses the transport")
      assert.deepStrictEqual(resumed, [])
      yield* Deferred.succeed(gate, undefined)
      yield* until(() => handled === 301)
      assert.strictEqual(resumed.length, 1)
    }))

  it.effect("closes the engine when the input ends, after the frames before the end, failing what is pending", () =>
    Effect.gen(function*() {
      const { engine, target } = yield* fedClient(() => Effect.void)
      const one = yield* Effect.forkChild(engine.request("one"))
      const two = yield* Effect.forkChild(engine.request("two"))
      yield* Effect.yieldNow
      target.frames([JsonRpc.notification("n"), JsonRpc.success(0, {})])
      target.end(Effect.fail(Option.none()))
      assert.deepStrictEqual(yield* Fiber.join(one), {})
      const failed = failureOf(yield* Fiber.await(two))
      assert.strictEqual(failed?.reason, "ConnectionClosed")
      yield* engine.closed
    }))

  it.effect("answers a request whose handler answered as it was made by the transport's sendNow, in the callback; else by send", () =>
    Effect.gen(function*() {
      const sent: Array<JsonRpc.Outgoing> = []
      const sentNow: Array<JsonRpc.Outgoing> = []
      let room = true
      let target: Transport.FeedTarget | undefined
      const transport: Transport.TransportShape = {
        ...Transport.fromFeed((t) => {
          target = t
          return { resume: () => undefined }
        }),
        send: (message) => Effect.sync(() => void sent.push(message)),
        // queued at once while there is room; else the effect to wait for (as a full pipe's 'drain')
        sendNow: (message) =>
          room ? void sentNow.push(message) : Effect.sync(() => void sent.push(message))
      }
      yield* Protocol.make(transport, {
        side: "server",
        onRequest: ({ request }) =>
          request.method === "now"
            ? Effect.succeed({ n: request.id })
            : request.method === "refused"
            // an Exit is an effect too (on Effect 4 `Effect.fail` makes one, as `Effect.succeed` does)
            ? Exit.fail(ErrorResponse.invalidParams("no"))
            : Effect.sync(() => ({ later: request.id })),
        onNotification: noNotifications
      })
      yield* Effect.yieldNow
      // the engine's first request too (whether spans are collected is read off its runtime, not a fiber)
      target!.frames([JsonRpc.request(0, "now")])
      assert.deepStrictEqual(sentNow, [JsonRpc.success(0, { n: 0 })])
      target!.frames([JsonRpc.request(1, "now"), JsonRpc.request(2, "refused"), JsonRpc.request(3, "later")])
      // answered in the callback: nothing ran in between
      assert.deepStrictEqual(sentNow, [
        JsonRpc.success(0, { n: 0 }),
        JsonRpc.success(1, { n: 1 }),
        JsonRpc.failure(2, { code: JsonRpc.ErrorCode.InvalidParams, message: "no" })
      ])
      yield* until(() => sent.length === 1)
      assert.deepStrictEqual(sent, [JsonRpc.success(3, { later: 3 })])
      // no room: the answer waits in a fiber for the effect sendNow gave
      room = false
      target!.frames([JsonRpc.request(4, "now")])
      yield* until(() => sent.length === 2)
      assert.deepStrictEqual(sent[1], JsonRpc.success(4, { n: 4 }))
      assert.strictEqual(sentNow.length, 3)
    }))

  /** A server engine whose handlers note when they start; `hang` never ends, `gated` waits for the gate. */
  const fedServer = Effect.gen(function*() {
    const gate = yield* Deferred.make<void>()
    const started: Array<JsonRpc.RequestId> = []
    const interrupted: Array<JsonRpc.RequestId> = []
    const notified: Array<string> = []
    const fed = yield* fedEngine({
      side: "server",
      onRequest: ({ request }) =>
        Effect.suspend(() => {
          started.push(request.id)
          return request.method === "hang"
            ? Effect.onInterrupt(Effect.never, () => Effect.sync(() => void interrupted.push(request.id)))
            : Effect.succeed({ id: request.id })
        }),
      onNotification: (n) =>
        Effect.andThen(n.method === "slow" ? Deferred.await(gate) : Effect.void, Effect.sync(() => void notified.push(n.method)))
    })
    const answered = () => fed.sent.flatMap((m) => (JsonRpc.isBatch(m) ? [] : "id" in m ? [m.id] : []))
    return { ...fed, gate, started, interrupted, notified, answered }
  })

  it.effect("server: forks a request's handler in the transport's callback; a frame's leftover work runs before later frames", () =>
    Effect.gen(function*() {
      const { answered, gate, interrupted, notified, started, target } = yield* fedServer
      // started before `frames` returned: no fiber was woken to fork it
      assert.isTrue(target.frames([JsonRpc.request(1, "echo"), JsonRpc.request(2, "hang")]))
      assert.deepStrictEqual(started, [1, 2])
      assert.deepStrictEqual(answered(), [1])
      // a cancellation reaches the handler forked in the callback
      assert.isTrue(target.frames([JsonRpc.notification("notifications/cancelled", { requestId: 2 })]))
      yield* until(() => interrupted.length === 1)
      // a request behind a notification still running waits for it
      assert.isTrue(target.frames([JsonRpc.notification("slow"), JsonRpc.request(3, "echo")]))
      assert.isTrue(target.frames([JsonRpc.request(4, "echo")]))
      yield* Effect.yieldNow
      assert.deepStrictEqual(started, [1, 2])
      yield* Deferred.succeed(gate, undefined)
      yield* until(() => answered().length === 3)
      assert.deepStrictEqual(started, [1, 2, 3, 4])
      assert.deepStrictEqual(answered(), [1, 3, 4], "the cancelled request is answered by nobody")
      assert.deepStrictEqual(notified, ["slow"])
    }))

  it.effect("server: stops the transport at a backlog of 256 frames behind its fiber, reads again once it caught up", () =>
    Effect.gen(function*() {
      const { answered, gate, resumed, target } = yield* fedServer
      assert.isTrue(target.frames([JsonRpc.notification("slow")]))
      const answers: Array<boolean> = []
      for (let i = 1; i <= 300; i++) answers.push(target.frames([JsonRpc.request(i, "echo")]))
      assert.strictEqual(answers.indexOf(false), 255, "a backlog of 256 frames pauses the transport")
      assert.deepStrictEqual(answered(), [])
      yield* Deferred.succeed(gate, undefined)
      yield* until(() => answered().length === 300)
      assert.deepStrictEqual(answered(), Array.from({ length: 300 }, (_, i) => i + 1))
      assert.strictEqual(resumed.length, 1)
    }))

  it.effect("server: at the end of the input closes the engine, interrupting running handlers; frames after it are not read", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const { answered, engine, interrupted, started, target } = yield* Scope.provide(fedServer, scope)
      target.frames([JsonRpc.request(1, "hang"), JsonRpc.request(2, "echo")])
      target.end(Effect.fail(Option.none()))
      yield* engine.closed
      yield* until(() => interrupted.length === 1)
      assert.deepStrictEqual(answered(), [2])
      // the engine's fiber is gone: what comes now is left unread, and no handler starts
      yield* Scope.close(scope, Exit.void)
      assert.isFalse(target.frames([JsonRpc.request(3, "echo")]))
      assert.deepStrictEqual(started, [1, 2])
    }))
})
